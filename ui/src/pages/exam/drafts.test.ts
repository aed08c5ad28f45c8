import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearDraft, discardClosedDrafts, draftKey, expireDrafts, loadDraft, saveDraft } from './drafts';

/** A Storage in memory, as the browser's localStorage. */
function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    key: (i: number) => [...m.keys()][i] ?? null,
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
    clear: () => m.clear(),
  };
}

const form = { sex: 'male', age_band: null, findings: { burns: { value: 'absent' } }, notes: '' };

describe("an examiner's draft, kept in the browser", () => {
  const g = globalThis as unknown as { window?: { localStorage: Storage } };
  beforeEach(() => {
    g.window = { localStorage: memoryStorage() };
  });
  afterEach(() => {
    delete g.window;
  });

  it('is kept per account, plan and case, and cleared on submission', () => {
    const mine = draftKey('ACC1', 'PLAN1', 'k-000000000001');
    expect(draftKey('ACC2', 'PLAN1', 'k-000000000001')).not.toBe(mine);
    expect(draftKey('ACC1', 'PLAN1', 'k-000000000002')).not.toBe(mine);
    saveDraft(mine, form, [2, 1]);
    expect(loadDraft(mine)).toMatchObject({ form, opened: [2, 1] });
    expect(loadDraft(draftKey('ACC2', 'PLAN1', 'k-000000000001'))).toBeNull();
    clearDraft(mine);
    expect(loadDraft(mine)).toBeNull();
  });

  it('is deleted after the retention (14 days), with anything unreadable; other keys are left alone', () => {
    const store = g.window!.localStorage;
    const old = draftKey('ACC1', 'PLAN1', 'k-000000000001');
    const fresh = draftKey('ACC1', 'PLAN1', 'k-000000000002');
    store.setItem(old, JSON.stringify({ saved_at: '2026-01-01T00:00:00Z', form, opened: [] }));
    store.setItem(fresh, JSON.stringify({ saved_at: '2026-01-14T00:00:00Z', form, opened: [] }));
    store.setItem(draftKey('ACC1', 'PLAN1', 'k-000000000003'), 'not json');
    store.setItem('custody.language', 'ar');
    expireDrafts(Date.parse('2026-01-16T00:00:00Z'));
    expect(loadDraft(old)).toBeNull();
    expect(loadDraft(fresh)).not.toBeNull();
    expect(store.length).toBe(2);
    expect(store.getItem('custody.language')).toBe('ar');
  });

  it("discards an account's drafts of cases no longer its to answer, and no other account's", () => {
    const open = draftKey('ACC1', 'PLAN1', 'k-000000000001');
    const submitted = draftKey('ACC1', 'PLAN1', 'k-000000000002');
    const otherPlan = draftKey('ACC1', 'PLAN2', 'k-000000000003');
    const someoneElse = draftKey('ACC2', 'PLAN1', 'k-000000000002');
    for (const k of [open, submitted, otherPlan, someoneElse]) saveDraft(k, form, []);
    discardClosedDrafts('ACC1', new Set(['PLAN1.k-000000000001']));
    expect(loadDraft(open)).not.toBeNull();
    expect(loadDraft(submitted)).toBeNull();
    expect(loadDraft(otherPlan)).toBeNull();
    expect(loadDraft(someoneElse)).not.toBeNull();
  });
});
