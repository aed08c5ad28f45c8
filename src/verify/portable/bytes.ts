// Byte helpers without Buffer, so that this folder runs in a browser as it is.

const HEX_RE = /^(?:[0-9a-f]{2})*$/;
const B64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Lowercase hex of `bytes`. */
export function hexOf(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/** Lowercase hex to bytes; undefined for anything else (uppercase, odd length, stray characters). */
export function bytesOfHex(hex: string): Uint8Array | undefined {
  if (!HEX_RE.test(hex)) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Padded RFC 4648 §4 base64 of `bytes`. */
export function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** Strict RFC 4648 §4 base64: padded, canonical trailing bits; undefined otherwise. */
export function bytesOfBase64(s: string): Uint8Array | undefined {
  if (!B64_RE.test(s)) return undefined;
  const binary = atob(s);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return base64Of(out) === s ? out : undefined;
}

export function utf8(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
