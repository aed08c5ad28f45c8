// Names of image editors as they appear in TIFF Software (tag 0x0131), XMP xmp:CreatorTool and
// xmpMM:History stEvt:softwareAgent. Matched case-insensitively as substrings; the short names,
// which could occur inside other words, must stand as words. Order matters: the first match names
// the editor (so 'Adobe Photoshop Lightroom' reads as Lightroom).
const EDITORS: readonly (readonly [needle: string, name: string])[] = [
  ['lightroom', 'Adobe Lightroom'],
  ['photoshop', 'Adobe Photoshop'],
  ['camera raw', 'Adobe Camera Raw'],
  ['gimp', 'GIMP'],
  ['paint.net', 'Paint.NET'],
  ['pixelmator', 'Pixelmator'],
  ['affinity', 'Affinity Photo'],
  ['snapseed', 'Snapseed'],
  ['picsart', 'PicsArt'],
  ['acdsee', 'ACDSee'],
  ['picasa', 'Picasa'],
  ['windows photo editor', 'Windows Photo Editor'],
  ['windows photo viewer', 'Windows Photo Viewer'],
  ['microsoft photos', 'Microsoft Photos'],
  ['photo gallery', 'Windows Live Photo Gallery'],
  ['picture manager', 'Microsoft Office Picture Manager'],
  ['imagemagick', 'ImageMagick'],
  ['graphicconverter', 'GraphicConverter'],
  ['luminar', 'Luminar'],
  ['capture one', 'Capture One'],
  ['darktable', 'darktable'],
  ['rawtherapee', 'RawTherapee'],
  ['photoscape', 'PhotoScape'],
  ['fotor', 'Fotor'],
  ['canva', 'Canva'],
  ['facetune', 'Facetune'],
  ['paintshop', 'Corel PaintShop Pro'],
  ['paint shop pro', 'Corel PaintShop Pro'],
  ['photodirector', 'PhotoDirector'],
  ['polarr', 'Polarr'],
  ['vsco', 'VSCO'],
  ['photopea', 'Photopea'],
  ['irfanview', 'IrfanView'],
  ['xnview', 'XnView'],
  ['faststone', 'FastStone'],
  ['dxo', 'DxO'],
  ['krita', 'Krita'],
  ['meitu', 'Meitu'],
  ['airbrush', 'AirBrush'],
];

const SHORT = 5;

function contains(haystack: string, needle: string): boolean {
  if (needle.length > SHORT) return haystack.includes(needle);
  let at = haystack.indexOf(needle);
  while (at >= 0) {
    const before = haystack[at - 1] ?? ' ';
    const after = haystack[at + needle.length] ?? ' ';
    if (!/[a-z]/.test(before) && !/[a-z]/.test(after)) return true;
    at = haystack.indexOf(needle, at + 1);
  }
  return false;
}

/** The editor a software string names, e.g. 'Adobe Photoshop 25.0 (Windows)' → 'Adobe Photoshop'; else null. */
export function editorNamedIn(software: string): string | null {
  const s = software.toLowerCase();
  for (const [needle, name] of EDITORS) if (contains(s, needle)) return name;
  return null;
}
