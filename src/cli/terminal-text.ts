// Text from outside (file names, ZIP member names, manifest paths, reasons, notes, actor names) is
// printed for a person only through this helper. A name holding ESC [31m, a carriage return or a
// bidirectional override would otherwise recolour, overwrite or reorder what the reader sees:
// a file could make its own problem line vanish. JSON output needs none of this (JSON.stringify
// escapes C0 controls already, and --json is for programs).

// C0 controls (tab and newline too: inside a name they would forge a line), DEL, C1 controls,
// line and paragraph separators, and the bidirectional marks, embeddings, overrides and isolates.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/**
 * `s` with every control character written as an escape: `\xHH` below U+0100, `\u{HHHH}` above.
 * A backslash is left as it is (Windows paths stay readable).
 *
 * @example
 *   terminalText('IMG\u001B[31m.jpg') // 'IMG\\x1B[31m.jpg'
 */
export function terminalText(s: string): string {
  return s.replace(CONTROL, (c) => {
    const code = c.codePointAt(0) ?? 0;
    return code < 0x100 ? `\\x${code.toString(16).toUpperCase().padStart(2, '0')}` : `\\u{${code.toString(16).toUpperCase()}}`;
  });
}
