import { describe, expect, it } from 'vitest';
import { ar } from './ar';
import { en } from './en';

type Tree = { readonly [k: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === 'string') out.set(`${prefix}${k}`, v);
    else for (const [kk, vv] of flatten(v, `${prefix}${k}.`)) out.set(kk, vv);
  }
  return out;
}

const placeholders = (s: string): string[] =>
  [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1] ?? '').sort();

describe('the UI strings', () => {
  const [english, arabic] = [flatten(en), flatten(ar)];

  it('ships every English string in Arabic, none empty, with the same {{placeholders}}', () => {
    expect([...arabic.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, text] of english) {
      const translated = arabic.get(key) ?? '';
      expect(translated.trim(), key).not.toBe('');
      expect(placeholders(translated), key).toEqual(placeholders(text));
    }
  });

  it('has Arabic text in every Arabic string but the product name', () => {
    for (const [key, text] of arabic) {
      if (key === 'app.name') continue;
      expect(text, key).toMatch(/[\u0600-\u06ff]/);
    }
  });
});
