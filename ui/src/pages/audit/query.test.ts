import { describe, expect, it } from 'vitest';
import { formatAuditQuery, pageStart, parseAuditQuery, validTarget } from './query';

describe('the audit page URL', () => {
  it('round-trips tab, target, paging and view filters, and drops what is not an id or a time', () => {
    const q = parseAuditQuery(
      'tab=views&item=01hzzzzzzzzzzzzzzzzzzzzzzz&account=nope&since=2026-12-01&from=40&of_object=../etc&of_subject=01hzzzzzzzzzzzzzzzzzzzzzzy',
    );
    expect(q).toEqual({
      tab: 'views',
      item: '01HZZZZZZZZZZZZZZZZZZZZZZZ',
      since: '2026-12-01',
      from: 40,
      target: { kind: 'subject', id: '01HZZZZZZZZZZZZZZZZZZZZZZY' },
    });
    expect(parseAuditQuery(formatAuditQuery(q))).toEqual(q);
    expect(parseAuditQuery('tab=root')).toEqual({ tab: 'ledger' });
    expect(formatAuditQuery({ tab: 'ledger' })).toBe('');
  });

  it('accepts an object digest or an item or subject id of the kind chosen, and nothing else', () => {
    expect(validTarget('object', 'AB'.repeat(32))).toBe('ab'.repeat(32));
    expect(validTarget('object', '01HZZZZZZZZZZZZZZZZZZZZZZZ')).toBeNull();
    expect(validTarget('item', ' 01hzzzzzzzzzzzzzzzzzzzzzzz ')).toBe('01HZZZZZZZZZZZZZZZZZZZZZZZ');
    expect(validTarget('subject', "1' OR 1=1")).toBeNull();
  });

  it('starts the first page at the newest entries, and never past the end', () => {
    expect(pageStart(1000, 50, undefined)).toBe(950);
    expect(pageStart(20, 50, undefined)).toBe(0);
    expect(pageStart(1000, 50, 5000)).toBe(999);
    expect(pageStart(1000, 50, 100)).toBe(100);
  });
});
