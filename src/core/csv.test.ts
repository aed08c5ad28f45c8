import { describe, expect, it } from 'vitest';
import { hasCode } from './errors.js';
import { csvCell, formatCsv, parseCsv } from './csv.js';

describe('parseCsv', () => {
  it('reads RFC 4180 quoting, line breaks inside quotes and CRLF', () => {
    const r = parseCsv('a,"b,c","d ""e"""\r\n"multi\nline",x,\r\n\r\n');
    expect(r.map((x) => x.cells)).toEqual([
      ['a', 'b,c', 'd "e"'],
      ['multi\nline', 'x', ''],
    ]);
    expect(r[1]?.line).toBe(2);
  });

  it('refuses broken quoting with its place', () => {
    try {
      parseCsv('a,b\nc,d"e\n');
      expect.unreachable();
    } catch (e) {
      expect(hasCode(e, 'CSV_INVALID')).toBe(true);
      expect((e as Error).message).toMatch(/row 2 \(line 2\), column 2/);
    }
    expect(() => parseCsv('"open\n')).toThrow(/never closed/);
  });
});

describe('csvCell', () => {
  it('defuses formulas (OWASP CSV injection) and quotes where needed', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+49 30')).toBe("'+49 30");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell(-2)).toBe('-2');
    expect(csvCell('فرع ٢١٥')).toBe('فرع ٢١٥');
    expect(csvCell(null)).toBe('');
    expect(formatCsv([['a', 'b,c'], [1, null]])).toBe('a,"b,c"\r\n1,\r\n');
  });

  it('round-trips through parseCsv (apart from the defusing apostrophe)', () => {
    const rows = [['x', 'with "quotes"', 'line\nbreak', ' padded ']];
    expect(parseCsv(formatCsv(rows)).map((r) => r.cells)).toEqual(rows);
  });
});
