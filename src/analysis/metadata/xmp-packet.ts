/**
 * Reads the two XMP properties Custody records, xmp:CreatorTool and the stEvt:softwareAgent of
 * each xmpMM:History event, from a standard XMP packet (XMP Part 1 §7; Part 3 §1.1.3: in JPEG,
 * UTF-8 and at most 65,502 bytes). Pure.
 *
 * Why not exifr's XMP parser: it is built on lazy regular expressions with back-references and
 * re-parses every nested element, quadratic in the packet; a crafted 64 KiB packet costs it about
 * half a second (measured), a thousand times our per-file budget. These scans are linear: each
 * pattern is anchored on a literal prefix and its character classes stop at the next quote or
 * angle bracket. Prefixes are resolved through the packet's xmlns declarations, as a namespace-
 * aware reader (ExifTool) would, so `xap:CreatorTool` in older files is found too.
 */
export interface XmpFields {
  creatorTool: string | null;
  historySoftware: string[] | null;
  warnings: string[];
}

const NS_XMP = 'http://ns.adobe.com/xap/1.0/';
const NS_XMP_MM = 'http://ns.adobe.com/xap/1.0/mm/';
const NS_ST_EVT = 'http://ns.adobe.com/xap/1.0/sType/ResourceEvent#';
/** At most this many History events are kept (Photoshop writes one per save). */
export const MAX_HISTORY_EVENTS = 1000;

export function readXmpFields(packet: Uint8Array): XmpFields {
  const warnings: string[] = [];
  const xml = new TextDecoder('utf-8').decode(packet);
  if (xml.includes('\ufffd')) warnings.push('XMP: the packet is not valid UTF-8');
  const prefixes = namespacePrefixes(xml);
  const creatorTool = firstValue(xml, prefixes.get(NS_XMP) ?? [], 'CreatorTool');
  const historySoftware = readHistory(
    xml,
    prefixes.get(NS_XMP_MM) ?? [],
    prefixes.get(NS_ST_EVT) ?? [],
    warnings,
  );
  return { creatorTool, historySoftware, warnings };
}

/** URI -> the prefixes bound to it anywhere in the packet (a prefix may be declared per element). */
export function namespacePrefixes(xml: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const m of xml.matchAll(/xmlns:([A-Za-z_][\w.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    const prefix = m[1] ?? '';
    const uri = decodeEntities(m[2] ?? m[3] ?? '');
    const list = map.get(uri) ?? [];
    if (!list.includes(prefix)) list.push(prefix);
    map.set(uri, list);
  }
  return map;
}

function firstValue(xml: string, prefixes: readonly string[], name: string): string | null {
  for (const prefix of prefixes) {
    const found = allValues(xml, prefix, name, 1)[0];
    if (found !== undefined) return found;
  }
  return null;
}

/** Values of `prefix:name` in document order, whether written as an attribute or as a simple element. */
function allValues(xml: string, prefix: string, name: string, limit: number): string[] {
  const q = `${escapeRegExp(prefix)}:${name}`;
  // attribute: prefix:name="v" (preceded by whitespace); element: <prefix:name ...>v</prefix:name>
  const re = new RegExp(
    `(?:\\s${q}\\s*=\\s*(?:"([^"]*)"|'([^']*)'))|(?:<${q}(?:\\s[^<>]*)?>([^<]*)</${q}\\s*>)`,
    'g',
  );
  const out: string[] = [];
  for (const m of xml.matchAll(re)) {
    out.push(decodeEntities(m[1] ?? m[2] ?? m[3] ?? ''));
    if (out.length >= limit) break;
  }
  return out;
}

function readHistory(
  xml: string,
  mmPrefixes: readonly string[],
  evtPrefixes: readonly string[],
  warnings: string[],
): string[] | null {
  for (const mm of mmPrefixes) {
    const open = xml.indexOf(`<${mm}:History`);
    if (open === -1) continue;
    let close = xml.indexOf(`</${mm}:History`, open);
    if (close === -1) {
      warnings.push('XMP: xmpMM:History is not closed; read to the end of the packet');
      close = xml.length;
    }
    const region = xml.slice(open, close);
    const agents: string[] = [];
    for (const evt of evtPrefixes) {
      agents.push(...allValues(region, evt, 'softwareAgent', MAX_HISTORY_EVENTS + 1));
    }
    if (agents.length > MAX_HISTORY_EVENTS) {
      warnings.push(`XMP: more than ${MAX_HISTORY_EVENTS} History events; the rest were not read`);
      agents.length = MAX_HISTORY_EVENTS;
    }
    return agents.length === 0 ? null : agents;
  }
  return null;
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML 1.0 §4.6 predefined entities and §4.1 character references; anything else is left as written. */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9A-Fa-f]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/g, (whole, body: string) => {
    if (body.startsWith('#')) {
      const code = body[1] === 'x' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body] ?? whole;
  });
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
}
