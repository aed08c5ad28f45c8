// A small, strict XML reader for the chart tests: enough of XML 1.0 to prove an SVG is well formed
// (one root, matched tags, quoted and unique attributes, only the five predefined entities and
// character references) and to query what it contains. It throws on anything it does not know,
// including comments, CDATA and DOCTYPE, which Vega's SVG never contains.

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: (XmlElement | string)[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(raw: string, at: number): string {
  if (raw.includes('<')) throw new Error(`raw "<" at ${at}`);
  return raw.replace(/&([^;]*);?/g, (match, ref: string) => {
    if (!match.endsWith(';')) throw new Error(`bare "&" at ${at}`);
    if (/^#x[0-9a-fA-F]+$/.test(ref)) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (/^#\d+$/.test(ref)) return String.fromCodePoint(Number(ref.slice(1)));
    const named = ENTITIES[ref];
    if (named === undefined) throw new Error(`unknown entity &${ref}; at ${at}`);
    return named;
  });
}

// Sticky (y) regexes match exactly at lastIndex, so the reader never copies the rest of the text.
const TAG_NAME = /[A-Za-z_][\w.:-]*/y;
const ATTRIBUTE = /\s+([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;
const TAG_CLOSE = /\s*(\/?)>/y;
const END_TAG = /<\/([A-Za-z_][\w.:-]*)\s*>/y;

function stickyMatch(re: RegExp, xml: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(xml);
}

/** Parses `<tag a="1" b='2'>` from `pos` (just after "<"); returns the element and the end. */
function readStartTag(
  xml: string,
  pos: number,
): { element: XmlElement; end: number; empty: boolean } {
  const name = stickyMatch(TAG_NAME, xml, pos)?.[0];
  if (name === undefined) throw new Error(`bad tag name at ${pos}`);
  const element: XmlElement = { name, attributes: {}, children: [] };
  let i = pos + name.length;
  for (;;) {
    const close = stickyMatch(TAG_CLOSE, xml, i);
    if (close !== null) return { element, end: i + close[0].length, empty: close[1] === '/' };
    const m = stickyMatch(ATTRIBUTE, xml, i);
    if (m === null) throw new Error(`malformed attribute in <${name}> at ${i}`);
    const key = m[1] ?? '';
    if (Object.hasOwn(element.attributes, key))
      throw new Error(`duplicate attribute ${key} at ${i}`);
    element.attributes[key] = decode(m[2] ?? m[3] ?? '', i);
    i += m[0].length;
  }
}

/** Parses a whole document (an optional XML declaration, then one root element). */
export function parseXml(xml: string): XmlElement {
  let pos = 0;
  const declaration = /^<\?xml[^?]*\?>\s*/.exec(xml);
  if (declaration !== null) pos = declaration[0].length;
  if (xml[pos] !== '<') throw new Error('document does not start with an element');
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (pos < xml.length) {
    const lt = xml.indexOf('<', pos);
    const text = xml.slice(pos, lt === -1 ? xml.length : lt);
    const parent = stack[stack.length - 1];
    if (text !== '') {
      if (parent === undefined) {
        if (text.trim() !== '') throw new Error(`text outside the root at ${pos}`);
      } else parent.children.push(decode(text, pos));
    }
    if (lt === -1) break;
    if (xml.startsWith('</', lt)) {
      const m = stickyMatch(END_TAG, xml, lt);
      const open = stack.pop();
      if (m === null || open === undefined || open.name !== m[1]) {
        throw new Error(`mismatched end tag at ${lt}`);
      }
      pos = lt + m[0].length;
      continue;
    }
    if (root !== undefined && stack.length === 0) throw new Error(`second root at ${lt}`);
    const { element, end, empty } = readStartTag(xml, lt + 1);
    if (parent === undefined) root = element;
    else parent.children.push(element);
    if (!empty) stack.push(element);
    pos = end;
  }
  if (root === undefined || stack.length > 0) throw new Error('unclosed element');
  return root;
}

/** Every element below `root` (and root itself) that satisfies `test`, in document order. */
export function findAll(root: XmlElement, test: (e: XmlElement) => boolean): XmlElement[] {
  const out: XmlElement[] = [];
  const visit = (e: XmlElement): void => {
    if (test(e)) out.push(e);
    for (const c of e.children) if (typeof c !== 'string') visit(c);
  };
  visit(root);
  return out;
}

/** The decoded character data of `e` and its descendants. */
export function textContent(e: XmlElement): string {
  return e.children.map((c) => (typeof c === 'string' ? c : textContent(c))).join('');
}

/** True when the element's class attribute lists every one of `classes`. */
export function hasClasses(e: XmlElement, ...classes: string[]): boolean {
  const list = (e.attributes['class'] ?? '').split(/\s+/);
  return classes.every((c) => list.includes(c));
}
