import { describe, expect, it } from 'vitest';
import { COMPOUND_RULES, tokens } from './tokens.js';

describe('tokens: one test per compound rule', () => {
  it.each(COMPOUND_RULES.map((row) => [row.rule, row] as const))('%s', (_, row) => {
    for (const [input, expected] of row.examples) expect(tokens(input)).toEqual(expected);
  });
});

describe('tokens', () => {
  it('keeps a connector, a prefix or an article that has nothing to join as a part of its own', () => {
    expect(tokens('Ben')).toEqual(['ben']);
    expect(tokens('Ahmad Abu')).toEqual(['ahmad', 'abu']);
    expect(tokens('Ahmad Al')).toEqual(['ahmad', 'al']);
  });

  it('splits at punctuation but keeps an apostrophe inside a part', () => {
    expect(tokens("Ma'moun, Mhd.")).toEqual(["ma'moun", 'mhd']);
    expect(tokens('')).toEqual([]);
  });
});
