/**
 * The roles of issue 12 and what each may do: THE permission matrix. The README's table
 * ("Accounts and roles") is checked against this one by permissions.test.ts.
 */
export const ROLES = [
  'administrator',
  'investigator',
  'examiner',
  'adjudicator',
  'analyst',
  'lawyer',
  'family liaison',
  'source custodian',
  'auditor',
] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  'evidence.read',
  'evidence.ingest',
  'catalogue.write',
  'sample.manage',
  'examination.submit',
  'examination.adjudicate',
  'statistics.read',
  'export.create',
  'report.create',
  'ledger.read',
  'verify.run',
  'identification.manage',
  'source.read-identity',
  'accounts.manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const PERMISSION_MATRIX: Readonly<Record<Role, readonly Permission[]>> = {
  administrator: ['evidence.read', 'ledger.read', 'verify.run', 'accounts.manage'],
  investigator: ['evidence.read', 'evidence.ingest', 'catalogue.write', 'sample.manage', 'statistics.read', 'export.create', 'report.create', 'ledger.read', 'verify.run'],
  examiner: ['evidence.read', 'examination.submit'],
  adjudicator: ['evidence.read', 'examination.adjudicate'],
  analyst: ['evidence.read', 'statistics.read', 'report.create', 'ledger.read', 'verify.run'],
  lawyer: ['evidence.read', 'statistics.read', 'export.create', 'report.create'],
  'family liaison': ['identification.manage'],
  'source custodian': ['source.read-identity'],
  auditor: ['ledger.read', 'verify.run'],
};

export function isRole(s: string): s is Role {
  return (ROLES as readonly string[]).includes(s);
}

export function can(role: Role, permission: Permission): boolean {
  return PERMISSION_MATRIX[role].includes(permission);
}
