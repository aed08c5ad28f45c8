/** Where the item page's "back" link goes: the evidence list the item was opened from (sessionStorage). */
export const EVIDENCE_RETURN_KEY = 'custody.evidenceReturn';

export function evidenceReturn(): string {
  const v = window.sessionStorage.getItem(EVIDENCE_RETURN_KEY);
  return v !== null && /^\/evidence(\?|$)/.test(v) ? v : '/evidence';
}
