import { describe, expect, it } from 'vitest';
import { terminalText } from './terminal-text.js';

describe('terminalText', () => {
  it('escapes C0, DEL, C1, separators and bidirectional controls; leaves text and backslashes', () => {
    expect(terminalText('IMG\u001b[31m.jpg')).toBe('IMG\\x1B[31m.jpg');
    expect(terminalText('a\nb\rc\td\u0000')).toBe('a\\x0Ab\\x0Dc\\x09d\\x00');
    expect(terminalText('\u007f\u009b2J')).toBe('\\x7F\\x9B2J');
    expect(terminalText('gpj.\u202Eexe \u2028')).toBe('gpj.\\u{202E}exe \\u{2028}');
    expect(terminalText('صورة 1.jpg C:\\DCIM\\x')).toBe('صورة 1.jpg C:\\DCIM\\x');
    expect(terminalText('می\u200Cخواهم')).toBe('می\u200Cخواهم'); // a joiner is not a control
  });
});
