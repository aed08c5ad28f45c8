import { describe, expect, it } from 'vitest';
import { FLOOR_WEIGHT, clusterPairs, type ClusterOptions, type WeightedPair } from './cluster.js';
import { LINKAGE_DEFAULTS } from './link.js';

/** Report id → organisation: the letter before the digits (a1 → org a). */
const orgOf = (id: string): string => id.replace(/\d+$/u, '');

const consensus = (over: Partial<ClusterOptions> = {}): ClusterOptions => ({
  threshold: 0.05,
  clustering: 'consensus',
  sameOrganisationBits: 4,
  ...over,
});
const connected: ClusterOptions = { ...consensus(), clustering: 'connected' };

/** log2 odds of a probability: the weight of a pair at p. */
const at = (p: number): number => Math.log2(p / (1 - p));
const pair = (a: string, b: string, weight: number): WeightedPair => ({ a, b, weight });

describe('clusterPairs', () => {
  it('the defaults: consensus clusters at 0.05, 4 bits per organisation shared', () => {
    expect(LINKAGE_DEFAULTS.clustering).toBe('consensus');
    expect(LINKAGE_DEFAULTS.threshold).toBe(0.05);
    expect(LINKAGE_DEFAULTS.sameOrganisationBits).toBe(4);
  });

  it('connected: the transitive closure of the pairs at the threshold, nothing below', () => {
    const pairs = [pair('a1', 'b1', 9), pair('b1', 'c1', at(0.05)), pair('c1', 'a2', at(0.049))];
    expect(clusterPairs(pairs, orgOf, connected)).toEqual([['a1', 'b1', 'c1']]);
  });

  it('consensus: A~C and B~C strong join A and B, their own pair weak (evidence through a third report)', () => {
    // a1–b1 alone is below the threshold; with c1 between them the three clear it together.
    const pairs = [pair('a1', 'c1', 12), pair('b1', 'c1', 11), pair('a1', 'b1', at(0.02))];
    expect(clusterPairs(pairs, orgOf, consensus())).toEqual([['a1', 'b1', 'c1']]);
  });

  it('consensus: B does not join A~C through C when B and A disagree (a chain the closure would make)', () => {
    // c1–b1 is at the threshold, but b1 is far from a1: the closure joins all three, consensus not.
    const pairs = [pair('a1', 'c1', 12), pair('b1', 'c1', at(0.1)), pair('a1', 'b1', -30)];
    expect(clusterPairs(pairs, orgOf, connected)).toEqual([['a1', 'b1', 'c1']]);
    expect(clusterPairs(pairs, orgOf, consensus())).toEqual([['a1', 'c1']]);
  });

  it('consensus: a pair blocking did not propose counts as FLOOR_WEIGHT, as one below it does', () => {
    const scored = [pair('a1', 'c1', 12), pair('b1', 'c1', 4), pair('a1', 'b1', -50)];
    const unscored = [pair('a1', 'c1', 12), pair('b1', 'c1', 4)];
    const floor = [...unscored, pair('a1', 'b1', FLOOR_WEIGHT)];
    const expected = clusterPairs(floor, orgOf, consensus());
    expect(expected).toEqual([['a1', 'b1', 'c1']]);
    expect(clusterPairs(scored, orgOf, consensus())).toEqual(expected);
    expect(clusterPairs(unscored, orgOf, consensus())).toEqual(expected);
  });

  it('consensus: a pair blocking did not propose is scored when a merge needs it (scoreUnseen)', () => {
    // a1 and b1 both agree with c1; a1–b1 was never a candidate (a typo in the one key they share).
    // Counted as FLOOR_WEIGHT it keeps b1 out; weighed as the pair it is, it joins.
    const pairs = [pair('a1', 'c1', 12), pair('b1', 'c1', 0)];
    expect(clusterPairs(pairs, orgOf, consensus())).toEqual([['a1', 'c1']]);
    const asked: string[] = [];
    const score = (x: string, y: string): number => {
      asked.push([x, y].sort().join('~'));
      return 2;
    };
    expect(clusterPairs(pairs, orgOf, consensus(), score)).toEqual([['a1', 'b1', 'c1']]);
    expect(asked).toEqual(['a1~b1']);
    // A pair unseen that disagrees counts no lower than FLOOR_WEIGHT, as a candidate below it does;
    // one that cannot be scored (undefined) counts as FLOOR_WEIGHT.
    expect(clusterPairs(pairs, orgOf, consensus(), () => -60)).toEqual([['a1', 'c1']]);
    expect(clusterPairs(pairs, orgOf, consensus(), () => undefined)).toEqual([['a1', 'c1']]);
    // Scored pairs are not asked for again.
    asked.length = 0;
    clusterPairs([...pairs, pair('a1', 'b1', -5)], orgOf, consensus(), score);
    expect(asked).toEqual([]);
  });

  it('one-to-one (sameOrganisationBits Infinity): namesakes from one organisation are not both linked to one report; the better-weighted wins', () => {
    // b1 and b2, two men of one name reported to organisation b; a1 is one of them.
    const pairs = [pair('a1', 'b1', 6), pair('a1', 'b2', 7), pair('b1', 'b2', 5)];
    const strict = consensus({ sameOrganisationBits: Infinity });
    expect(clusterPairs(pairs, orgOf, strict)).toEqual([['a1', 'b2']]);
    // Without the constraint all three are one cluster (b1~b2 agree as namesakes do).
    expect(clusterPairs(pairs, orgOf, consensus({ sameOrganisationBits: 0 }))).toEqual([
      ['a1', 'b1', 'b2'],
    ]);
  });

  it('one-to-one: a tie between two namesakes is decided by report id, whatever the input order', () => {
    const pairs = [pair('a1', 'b2', 6), pair('a1', 'b1', 6), pair('b1', 'b2', 5)];
    const strict = consensus({ sameOrganisationBits: Infinity });
    expect(clusterPairs(pairs, orgOf, strict)).toEqual([['a1', 'b1']]);
    expect(clusterPairs([...pairs].reverse(), orgOf, strict)).toEqual([['a1', 'b1']]);
  });

  it('the default soft constraint: 4 bits per organisation shared keep a weakly supported namesake out', () => {
    // Joining b2 to {a1, b1}: (a1–b2 − bar) + (b1–b2 − bar) = 2.5 bits, less than the 4 bits of
    // organisation b held twice; without the cost it joins.
    const bar = at(0.05);
    const pairs = [pair('a1', 'b1', 9), pair('a1', 'b2', bar + 3), pair('b1', 'b2', bar - 0.5)];
    expect(clusterPairs(pairs, orgOf, consensus())).toEqual([['a1', 'b1']]);
    expect(clusterPairs(pairs, orgOf, consensus({ sameOrganisationBits: 0 }))).toEqual([
      ['a1', 'b1', 'b2'],
    ]);
    // A person reported twice to one organisation, the two reports agreeing: joined all the same.
    const twice = [pair('a1', 'b1', 9), pair('a1', 'b2', 8), pair('b1', 'b2', 10)];
    expect(clusterPairs(twice, orgOf, consensus())).toEqual([['a1', 'b1', 'b2']]);
  });

  it('clusters are sorted, each sorted, whatever the order of the pairs', () => {
    const pairs = [
      pair('c2', 'a2', 9),
      pair('b1', 'a1', 9),
      pair('c1', 'a1', 8),
      pair('c1', 'b1', 8),
    ];
    const out = [
      ['a1', 'b1', 'c1'],
      ['a2', 'c2'],
    ];
    expect(clusterPairs(pairs, orgOf, consensus())).toEqual(out);
    expect(clusterPairs([...pairs].reverse(), orgOf, consensus())).toEqual(out);
    expect(clusterPairs(pairs, orgOf, connected)).toEqual(out);
  });
});
