import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createEd25519Signer,
  createEd25519Verifier,
  formatCheckpoint,
  formatVerifierKey,
  parseCheckpoint,
  parseVerifierKey,
  type Checkpoint,
} from './checkpoint.js';
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

const ROOT = Buffer.alloc(32, 7);
const ROOT_B64 = ROOT.toString('base64'); // 'BwcH…Bwc='
const body = (size: string, root = ROOT_B64, origin = 'example.com/log'): string =>
  `${origin}\n${size}\n${root}\n`;

describe('parseCheckpoint is strict (c2sp.org/tlog-checkpoint, "Note text")', () => {
  it('parses the three mandatory lines and any extension lines', () => {
    expect(parseCheckpoint(body('42'))).toEqual({
      origin: 'example.com/log',
      size: 42,
      root: ROOT,
      extensions: [],
    });
    const cp = parseCheckpoint(`${body('0')}ext one\next two\n`);
    expect(cp.extensions).toEqual(['ext one', 'ext two']);
    expect(parseCheckpoint(body(String(Number.MAX_SAFE_INTEGER))).size).toBe(2 ** 53 - 1);
    expect(parseCheckpoint(body('1', ROOT_B64, 'origin with spaces+plus')).origin).toBe(
      'origin with spaces+plus',
    );
  });

  it.each<[string, string]>([
    ['leading zero', body('01')],
    ['plus sign', body('+1')],
    ['minus sign', body('-1')],
    ['leading space', body(' 1')],
    ['trailing space', body('1 ')],
    ['exponent', body('1e3')],
    ['hex', body('0x10')],
    ['empty size', body('')],
    ['above 2^53-1', body('9007199254740992')],
    ['31-byte root', body('1', Buffer.alloc(31).toString('base64'))],
    ['33-byte root', body('1', Buffer.alloc(33).toString('base64'))],
    ['unpadded root', body('1', ROOT_B64.replace(/=+$/, ''))],
    ['base64url root', body('1', Buffer.alloc(32, 0xfb).toString('base64url'))],
    ['non-canonical trailing bits', body('1', `${ROOT_B64.slice(0, -2)}d=`)],
    ['root with whitespace', body('1', ` ${ROOT_B64}`)],
    ['empty origin', body('1', ROOT_B64, '')],
    ['only two lines', 'example.com/log\n1\n'],
    ['no final newline', body('1').slice(0, -1)],
    ['empty extension line', `${body('1')}\n`],
    ['blank line then extension', `${body('1')}\next\n`],
    ['CRLF', body('1').replaceAll('\n', '\r\n')],
    ['control character', body('1', ROOT_B64, 'exa\x00mple')],
    ['lone surrogate', body('1', ROOT_B64, 'exa\ud800mple')],
  ])('CHECKPOINT_MALFORMED: %s', (_name, text) => {
    expect(codeOf(() => parseCheckpoint(text))).toBe('CHECKPOINT_MALFORMED');
  });
});

describe('formatCheckpoint', () => {
  const good: Checkpoint = { origin: 'example.com/log', size: 5, root: ROOT, extensions: [] };

  it('writes origin, decimal size, padded base64 root, extensions, each with "\\n"', () => {
    expect(formatCheckpoint(good)).toBe(body('5'));
    expect(formatCheckpoint({ ...good, size: 0, extensions: ['a b'] })).toBe(`${body('0')}a b\n`);
    expect(parseCheckpoint(formatCheckpoint(good))).toEqual(good);
  });

  it.each<[string, Partial<Checkpoint>]>([
    ['empty origin', { origin: '' }],
    ['newline in origin', { origin: 'a\nb' }],
    ['control character in origin', { origin: 'a\tb' }],
    ['negative size', { size: -1 }],
    ['fractional size', { size: 1.5 }],
    ['unsafe size', { size: 2 ** 53 }],
    ['31-byte root', { root: Buffer.alloc(31) }],
    ['empty extension', { extensions: [''] }],
    ['extension with a newline', { extensions: ['a\nb'] }],
  ])('CHECKPOINT_MALFORMED: %s', (_name, change) => {
    expect(codeOf(() => formatCheckpoint({ ...good, ...change }))).toBe('CHECKPOINT_MALFORMED');
  });
});

describe('verifier keys (golang.org/x/mod/sumdb/note format)', () => {
  // golang/mod note_test.go, TestNewVerifier: every substring and every one-character change fails.
  const vkey = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';

  it('accepts the published key', () => {
    expect(parseVerifierKey(vkey).name).toBe('PeterNeumann');
  });

  it('refuses every proper substring and every single-character change', () => {
    const refused = (k: string): boolean => codeOf(() => parseVerifierKey(k)) === 'KEY_MALFORMED';
    for (let i = 0; i <= vkey.length; i++) {
      for (let j = i + 1; j <= vkey.length; j++) {
        if (i !== 0 || j !== vkey.length)
          expect(refused(vkey.slice(i, j)), vkey.slice(i, j)).toBe(true);
      }
    }
    for (let i = 0; i < vkey.length; i++) {
      const changed =
        vkey.slice(0, i) + String.fromCharCode(vkey.charCodeAt(i) + 1) + vkey.slice(i + 1);
      expect(refused(changed), changed).toBe(true);
    }
  });

  it.each<[string, string]>([
    // The two extra bad keys of TestNewVerifier (their key IDs were adjusted to match).
    [
      'wrong key length',
      'PeterNeumann+cc469956+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TWBADKEY==',
    ],
    ['unknown algorithm', 'PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW'],
    ['uppercase key ID', 'PeterNeumann+C74F20A3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW'],
    ['empty name', '+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW'],
    ['no separators', 'PeterNeumann'],
  ])('KEY_MALFORMED: %s', (_name, key) => {
    expect(codeOf(() => parseVerifierKey(key))).toBe('KEY_MALFORMED');
  });

  it('round-trips a generated key and keeps a base64 "+" intact', () => {
    for (let i = 0; i < 20; i++) {
      const { publicKey } = generateKeyPairSync('ed25519');
      const formatted = formatVerifierKey('custody.example/ledger', publicKey);
      const parsed = parseVerifierKey(formatted);
      expect(
        parsed.keyId.equals(createEd25519Verifier('custody.example/ledger', publicKey).keyId),
      ).toBe(true);
    }
  });
});

describe('key names and key types', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');

  it.each(['', 'a b', 'a+b', 'a\tb', 'a\u00a0b', 'a\u2028b', 'a\u3000b', 'a\u0085b', 'a\ud800'])(
    'KEY_MALFORMED for the name %j',
    (name) => {
      expect(codeOf(() => createEd25519Signer(name, privateKey))).toBe('KEY_MALFORMED');
      expect(codeOf(() => createEd25519Verifier(name, publicKey))).toBe('KEY_MALFORMED');
      expect(codeOf(() => formatVerifierKey(name, publicKey))).toBe('KEY_MALFORMED');
    },
  );

  it('accepts URL-like and non-ASCII names', () => {
    expect(createEd25519Signer('example.com/log42', privateKey).name).toBe('example.com/log42');
    expect(createEd25519Signer('журнал/1', privateKey).keyId).toHaveLength(4);
  });

  it('KEY_MALFORMED for the wrong kind of key', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const x25519 = generateKeyPairSync('x25519');
    expect(codeOf(() => createEd25519Signer('a', publicKey))).toBe('KEY_MALFORMED');
    expect(codeOf(() => createEd25519Verifier('a', privateKey))).toBe('KEY_MALFORMED');
    expect(codeOf(() => createEd25519Signer('a', rsa.privateKey))).toBe('KEY_MALFORMED');
    expect(codeOf(() => createEd25519Verifier('a', x25519.publicKey))).toBe('KEY_MALFORMED');
  });

  it('verifier refuses signatures of the wrong length instead of throwing', () => {
    const v = createEd25519Verifier('a', publicKey);
    expect(v.verify(Buffer.from('x'), Buffer.alloc(63))).toBe(false);
    expect(v.verify(Buffer.from('x'), Buffer.alloc(64))).toBe(false);
  });
});
