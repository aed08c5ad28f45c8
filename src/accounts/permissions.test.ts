import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { can, PERMISSION_MATRIX, PERMISSIONS, ROLES } from './permissions.js';

/** The README's matrix, between its markers: role → permissions. */
function readmeMatrix(): Record<string, string[]> {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf('<!-- permission-matrix:start -->');
  const end = readme.indexOf('<!-- permission-matrix:end -->');
  expect(start).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  const out: Record<string, string[]> = {};
  for (const line of readme.slice(start, end).split('\n').slice(3)) {
    if (!line.startsWith('|')) continue;
    const [, role = '', perms = ''] = line.split('|').map((c) => c.trim());
    out[role] = perms === '' ? [] : perms.split(',').map((p) => p.trim().replace(/^`|`$/g, ''));
  }
  return out;
}

describe('the permission matrix', () => {
  it('has exactly the roles of issue 12', () => {
    expect([...ROLES]).toEqual(['administrator', 'investigator', 'examiner', 'adjudicator', 'analyst', 'lawyer', 'family liaison', 'source custodian', 'auditor']);
    expect(Object.keys(PERMISSION_MATRIX).sort()).toEqual([...ROLES].sort());
  });

  it('the README table equals the code table', () => {
    const code = Object.fromEntries(ROLES.map((r) => [r, [...PERMISSION_MATRIX[r]].sort()]));
    const readme = Object.fromEntries(Object.entries(readmeMatrix()).map(([r, p]) => [r, [...p].sort()]));
    expect(readme).toEqual(code);
  });

  it('names only known permissions, and can() answers from the table', () => {
    for (const r of ROLES) for (const p of PERMISSION_MATRIX[r]) expect(PERMISSIONS).toContain(p);
    expect(can('auditor', 'ledger.read')).toBe(true);
    expect(can('auditor', 'evidence.ingest')).toBe(false);
    expect(can('examiner', 'examination.adjudicate')).toBe(false);
    expect(can('source custodian', 'source.read-identity')).toBe(true);
    expect(can('administrator', 'examination.submit')).toBe(false);
    expect(can('lawyer', 'export.create')).toBe(true);
  });
});
