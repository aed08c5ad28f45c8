import { CoreError } from './errors.js';

export interface CsvRecord {
  cells: string[];
  /** Line of the file where the record starts (records can span lines inside quotes). */
  line: number;
}

/**
 * RFC 4180 records from untrusted text: fields separated by commas, records by CRLF, LF or CR,
 * a field in double quotes may hold commas, line breaks and doubled quotes. A quote inside an
 * unquoted field, text after a closing quote, or an unclosed quote is refused with its place.
 * Blank lines are skipped. Cells are data only: "=SUM(A1)" is the text =SUM(A1), never a formula.
 */
export function parseCsv(
  text: string,
  error: (message: string) => Error = (m) => new CoreError('CSV_INVALID', m),
): CsvRecord[] {
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let field = '';
  let inQuotes = false;
  let wasQuoted = false;
  let line = 1;
  let recordLine = 1;
  const fail = (what: string): never => {
    throw error(`row ${records.length + 1} (line ${line}), column ${cells.length + 1}: ${what}`);
  };
  const endRecord = (): void => {
    cells.push(field);
    if (!(cells.length === 1 && cells[0] === '')) records.push({ cells, line: recordLine });
    cells = [];
    field = '';
    wasQuoted = false;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inQuotes) {
      if (ch !== '"') {
        if (ch === '\n' || (ch === '\r' && text[i + 1] !== '\n')) line++;
        field += ch;
      } else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else {
        inQuotes = false;
        const next = text[i + 1];
        if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r')
          fail('text after a closing quote');
      }
    } else if (ch === '"') {
      if (field !== '' || wasQuoted)
        fail('a quote inside an unquoted field (quote the whole field and double the quote)');
      inQuotes = wasQuoted = true;
    } else if (ch === ',') {
      cells.push(field);
      field = '';
      wasQuoted = false;
    } else if (ch === '\r' || ch === '\n') {
      endRecord();
      if (ch === '\r' && text[i + 1] === '\n') i++;
      recordLine = ++line;
    } else field += ch;
  }
  if (inQuotes) fail('a quoted field is never closed');
  if (field !== '' || wasQuoted || cells.length > 0) endRecord();
  return records;
}

/**
 * A CSV cell that spreadsheet programs will not execute: text starting with = + - @ or a tab or
 * carriage return is prefixed with an apostrophe (OWASP "CSV injection"), then quoted per RFC 4180
 * where needed.
 *
 * @example
 *   csvCell('=HYPERLINK("x")') // "'=HYPERLINK(""x"")" quoted
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Rows → RFC 4180 text with CRLF line ends, every cell through csvCell. */
export function formatCsv(rows: readonly (readonly (string | number | null)[])[]): string {
  return rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
