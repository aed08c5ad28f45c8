import { describe, expect, it } from 'vitest';
import { hasCode } from '../../core/index.js';
import { parseSelection } from './selection.js';

describe('parseSelection', () => {
  it('parses every term and a union, upper-casing ids', () => {
    expect(parseSelection('all')).toEqual([{ kind: 'all' }]);
    expect(
      parseSelection('items:01ab, 01CD+delivery:01xy+subjects:01s1,01s2+sample:01p+source:Cedar-2'),
    ).toEqual([
      { kind: 'items', ids: ['01AB', '01CD'] },
      { kind: 'delivery', id: '01XY' },
      { kind: 'subjects', ids: ['01S1', '01S2'] },
      { kind: 'sample', id: '01p' },
      { kind: 'source', codename: 'Cedar-2' },
    ]);
  });

  it('keeps a codename as written, spaces and commas included', () => {
    expect(parseSelection('source:North, team 2')).toEqual([
      { kind: 'source', codename: 'North, team 2' },
    ]);
  });

  it.each([
    ['', 'empty'],
    ['everything', 'not a term'],
    ['items:', 'empty id'],
    ['items:01A,,01B', 'empty id in a list'],
    ['items:../x', 'path characters'],
    ['delivery:01A,01B', 'one delivery only'],
    ['sample:01A,01B', 'one sample only'],
    ['place:Homs', 'unknown kind'],
    ['all+', 'dangling union'],
    ['source:', 'empty codename'],
    ['source:A\nB', 'control character'],
  ])('refuses %j (%s) with EXPORT_SELECT_INVALID', (query) => {
    let thrown: unknown;
    try {
      parseSelection(query);
    } catch (e) {
      thrown = e;
    }
    expect(hasCode(thrown, 'EXPORT_SELECT_INVALID'), String(thrown)).toBe(true);
  });
});
