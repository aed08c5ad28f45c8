import { describe, expect, it } from 'vitest';
import { canonicalBytes, canonicalize, parseCanonical } from './canonical-json.js';
import { CoreError } from './errors.js';

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    if (e instanceof CoreError) return e.code;
    throw e;
  }
  return undefined;
}

function pathOf(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    if (e instanceof CoreError) return e.details['path'];
    throw e;
  }
  return undefined;
}

const bytes = (s: string): Buffer => Buffer.from(s, 'utf8');

describe('canonicalize (RFC 8785)', () => {
  it('sorts keys by UTF-16 code units (§3.2.3), not by insertion or integer-key order', () => {
    const value = { b: 1, a: 2, A: 3, _: 4, '10': 5, '9': 6, '': 7, aa: 8 };
    expect(canonicalize(value)).toBe('{"":7,"10":5,"9":6,"A":3,"_":4,"a":2,"aa":8,"b":1}');
  });

  it('sorts nested objects and keeps array order', () => {
    const value = { z: [3, 1, { y: null, x: true }], a: { d: false, c: [] }, m: {} };
    expect(canonicalize(value)).toBe(
      '{"a":{"c":[],"d":false},"m":{},"z":[3,1,{"x":true,"y":null}]}',
    );
  });

  it('writes literals and integers without whitespace (§3.2.1, §3.2.2.3)', () => {
    expect(canonicalize(null)).toBe('null');
    expect(canonicalize(true)).toBe('true');
    expect(canonicalize([0, -1, 42])).toBe('[0,-1,42]');
    expect(canonicalize(Number.MAX_SAFE_INTEGER)).toBe('9007199254740991');
    expect(canonicalize(-Number.MAX_SAFE_INTEGER)).toBe('-9007199254740991');
    expect(canonicalize(-0)).toBe('0'); // documented: -0 is written as 0
  });

  it('reproduces the string example of RFC 8785 §3.2.2.2', () => {
    const parsed: unknown = JSON.parse(
      '"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/"',
    );
    expect(canonicalize(parsed)).toBe('"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"');
  });

  it('escapes control characters, quote and backslash as JSON.stringify does', () => {
    const controls = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)).join('');
    const expected =
      '"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r' +
      '\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019' +
      '\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f"';
    expect(canonicalize(controls)).toBe(expected);
    expect(canonicalize('say "hi" \\ bye')).toBe('"say \\"hi\\" \\\\ bye"');
    expect(canonicalize('a/b\x7f')).toBe('"a/b\x7f"'); // solidus and DEL stay raw
  });

  it('keeps U+2028, U+2029 and other non-ASCII characters as raw UTF-8', () => {
    expect(canonicalize('\u2028\u2029')).toBe('"\u2028\u2029"');
    expect(canonicalBytes('\u2028').toString('hex')).toBe('22e280a822');
    // {"name":"é€😀"}: é = c3a9, € = e282ac, 😀 = f09f9880
    expect(canonicalBytes({ name: 'é€😀' }).toString('hex')).toBe(
      '7b226e616d65223a22c3a9e282acf09f9880227d',
    );
  });

  it('escapes lone surrogates (well-formed JSON.stringify) so the UTF-8 stays valid', () => {
    expect(canonicalize('a\ud800b')).toBe('"a\\ud800b"');
    expect(canonicalize('\udc00')).toBe('"\\udc00"');
    expect(canonicalize('\ud83d\ude00')).toBe('"😀"'); // a proper pair is one code point
    expect(parseCanonical(canonicalBytes('x\ud800'))).toBe('x\ud800');
  });

  it('keeps a "__proto__" key as data, without touching prototypes', () => {
    const value: unknown = JSON.parse('{"__proto__":{"polluted":1},"a":1}');
    expect(canonicalize(value)).toBe('{"__proto__":{"polluted":1},"a":1}');
    const parsed = parseCanonical(bytes('{"__proto__":{"polluted":1},"a":1}'));
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('accepts null-prototype objects', () => {
    const o = Object.assign(Object.create(null) as Record<string, unknown>, { b: 1, a: 2 });
    expect(canonicalize(o)).toBe('{"a":2,"b":1}');
  });
});

describe('canonicalize refuses values outside the subset, naming the path', () => {
  class Thing {
    x = 1;
  }
  const sparse: unknown[] = [1];
  sparse[2] = 3;
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic['self'] = { back: cyclic };
  let deep: unknown = 1;
  for (let i = 0; i < 300; i++) deep = [deep];

  it.each<[string, unknown, string]>([
    ['float', { details: { size: 1.5 } }, 'details.size'],
    ['NaN', { n: Number.NaN }, 'n'],
    ['Infinity', [Number.POSITIVE_INFINITY], '[0]'],
    ['2^53', { n: 2 ** 53 }, 'n'],
    ['-(2^53)', { n: -(2 ** 53) }, 'n'],
    ['1e21', { n: 1e21 }, 'n'],
    ['undefined member', { a: { b: undefined } }, 'a.b'],
    ['undefined root', undefined, '(root)'],
    ['function', { f: () => 1 }, 'f'],
    ['bigint', { items: [1n] }, 'items[0]'],
    ['symbol value', { s: Symbol('s') }, 's'],
    ['symbol key', { [Symbol('k')]: 1 }, '(root)'],
    ['Date', { details: { when: new Date(0) } }, 'details.when'],
    ['Map', { m: new Map() }, 'm'],
    ['class instance', { t: new Thing() }, 't'],
    ['Buffer', { b: Buffer.from('x') }, 'b'],
    ['non-ASCII key', { details: { é: 1 } }, 'details["é"]'],
    ['hole in a sparse array', { items: sparse }, 'items[1]'],
    ['cycle', cyclic, 'self.back'],
    ['nesting deeper than 256', deep, '[0]'.repeat(256)],
  ])('%s', (_name, value, path) => {
    expect(codeOf(() => canonicalize(value))).toBe('CANONICAL_UNSUPPORTED');
    expect(pathOf(() => canonicalize(value))).toBe(path);
  });

  it('puts the path in the message too', () => {
    expect(() => canonicalize({ details: { size: 0.5 } })).toThrow(/details\.size/);
  });
});

describe('parseCanonical', () => {
  it('round-trips canonical bytes', () => {
    const value = { b: [1, 'two', null, true, { c: -3 }], a: 'é\u2028\n', e: {}, d: [] };
    const encoded = canonicalBytes(value);
    expect(parseCanonical(encoded)).toEqual(value);
    expect(parseCanonical(new Uint8Array(encoded))).toEqual(value);
    expect(parseCanonical(bytes('"x"'))).toBe('x');
    expect(parseCanonical(bytes('-9007199254740991'))).toBe(-Number.MAX_SAFE_INTEGER);
  });

  it('reads a view into a larger buffer correctly', () => {
    const big = Buffer.from('xx{"a":1}yy');
    expect(parseCanonical(big.subarray(2, 9))).toEqual({ a: 1 });
  });

  it.each<[string, Uint8Array]>([
    ['invalid UTF-8 byte', Buffer.from([0x22, 0xff, 0x22])],
    ['overlong encoding', Buffer.from([0x22, 0xc0, 0xaf, 0x22])],
    ['UTF-8-encoded surrogate', Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22])],
    ['truncated sequence', Buffer.from([0x22, 0xe2, 0x82, 0x22])],
    ['byte order mark', Buffer.from([0xef, 0xbb, 0xbf, 0x31])],
    ['empty input', bytes('')],
    ['not JSON', bytes('{a:1}')],
    ['trailing comma', bytes('[1,]')],
    ['raw control character in a string', bytes('"a\tb"')],
    ['float', bytes('{"a":1.5}')],
    ['huge exponent', bytes('1e400')],
    ['unsafe integer', bytes('9007199254740993')],
    ['non-ASCII key', bytes('{"é":1}')],
  ])('CANONICAL_INVALID: %s', (_name, input) => {
    expect(codeOf(() => parseCanonical(input))).toBe('CANONICAL_INVALID');
  });

  it.each<[string, string]>([
    ['whitespace after a colon', '{"a": 1}'],
    ['leading whitespace', ' {"a":1}'],
    ['trailing newline', '{"a":1}\n'],
    ['reordered keys', '{"b":1,"a":2}'],
    ['1.0', '{"a":1.0}'],
    ['exponent form', '100e0'],
    ['-0', '-0'],
    ['escaped letter', '"\\u0041"'],
    ['escaped solidus', '"\\/"'],
    ['uppercase escape', '"\\u001F"'],
    ['escaped non-ASCII', '"\\u00e9"'],
    ['duplicate keys, different values', '{"a":1,"a":2}'],
    ['duplicate keys, same value', '{"a":1,"a":1}'],
    ['duplicate keys, nested', '{"x":{"a":1,"b":2,"a":1}}'],
  ])('CANONICAL_NOT_CANONICAL: %s', (_name, input) => {
    expect(codeOf(() => parseCanonical(bytes(input)))).toBe('CANONICAL_NOT_CANONICAL');
  });
});
