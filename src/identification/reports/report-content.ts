// What a missing-person report says, checked field by field. Pure. Everything here is family
// data: it is sealed as one whole (report-seal.ts) and never written to the ledger or the index in
// clear. Only the reporting organisation (`org`) travels outside the seal.
import { isCalendarDate, type JsonValue } from '../../core/index.js';
import { SEXES, type Sex } from '../../catalogue/subjects/index.js';
import type { UnitRegistry } from '../../catalogue/units/index.js';
import { fieldsOf, parseIdentificationRecord, type FieldIssue, type IdentificationRecord } from '../codebook/record.js';

export type EventKind = 'arrest' | 'last_seen';

export interface ReportContact {
  name: string | null;
  relation: string | null;
  phone: string | null;
  email: string | null;
  address: string | null;
}

export interface ReportConsent {
  /** Organisations beyond the reporting one that may see the report. */
  orgs: string[];
  /** Whether photographs may be shown to this family at all; 'no' unless the family said yes. */
  photographs: 'yes' | 'no';
  /** Through whom (a family liaison), when photographs may be shown. */
  liaison: string | null;
}

/** The sealed content of one report. */
export interface ReportContent {
  reference: string | null;
  name_ar: string | null;
  name_latin: string | null;
  father_name: string | null;
  grandfather_name: string | null;
  family_name: string | null;
  mother_name: string | null;
  sex: Sex | null;
  /** 'YYYY' or 'YYYY-MM-DD'. */
  birth: string | null;
  origin: string | null;
  event: EventKind | null;
  /** 'YYYY', 'YYYY-MM' or 'YYYY-MM-DD'. */
  event_date: string | null;
  event_place: string | null;
  /** The arresting body or branch: as the family named it, and the registry's unit when it resolves. */
  unit: { as_reported: string; id: string | null } | null;
  am: IdentificationRecord;
  contact: ReportContact | null;
  consent: ReportConsent;
}

export const NAME_COLUMNS = ['name_ar', 'name_latin', 'father_name', 'grandfather_name', 'family_name', 'mother_name'] as const;
const TEXT_COLUMNS = ['reference', ...NAME_COLUMNS, 'origin', 'event_place'] as const;
const CONTACT_COLUMNS = ['contact_name', 'contact_relation', 'contact_phone', 'contact_email', 'contact_address'] as const;
export const AM_COLUMNS = fieldsOf('am').map((f) => f.code);

/** The columns of an import (CSV header or JSON keys), in the order a template lists them. */
export const REPORT_COLUMNS: readonly string[] = [
  'org',
  ...TEXT_COLUMNS.slice(0, 7),
  'sex',
  'birth',
  'origin',
  'event',
  'event_date',
  'event_place',
  'unit',
  ...AM_COLUMNS,
  ...CONTACT_COLUMNS,
  'consent_orgs',
  'consent_photographs',
  'consent_liaison',
];

const ORG_RE = /^[\p{L}\p{N}][\p{L}\p{N} ._&()-]{0,63}$/u;
const MAX_TEXT = 500;
const UNPRINTABLE = /[\p{Cc}\p{Cs}]/u;

/** An organisation's name as recorded (outside the seal): 1–64 letters, digits, spaces, . _ & ( ) -. */
export function checkOrg(org: string): string | null {
  const o = org.trim().normalize('NFC');
  return ORG_RE.test(o) ? o : null;
}

/**
 * One report from its columns (strings from a CSV, or JSON values). Returns the content and its
 * organisation, or the problems, each naming its column.
 */
export function parseReportFields(
  input: Readonly<Record<string, unknown>>,
  ctx: { org: string | null; units: UnitRegistry },
): { content: ReportContent; org: string } | { issues: FieldIssue[] } {
  const issues: FieldIssue[] = [];
  const text = (c: string, max = MAX_TEXT): string | null => {
    const v = input[c];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string') {
      issues.push({ column: c, reason: 'expected text' });
      return null;
    }
    const s = v.trim().normalize('NFC');
    if (s === '') return null;
    if (UNPRINTABLE.test(s)) issues.push({ column: c, reason: 'control characters are not accepted' });
    else if ([...s].length > max) issues.push({ column: c, reason: `at most ${max} characters` });
    return s;
  };
  const rowOrg = text('org');
  const orgText = rowOrg ?? ctx.org;
  const org = orgText === null ? null : checkOrg(orgText);
  if (orgText === null) issues.push({ column: 'org', reason: 'the reporting organisation is missing (a column, or one for the whole file)' });
  else if (org === null) issues.push({ column: 'org', reason: 'an organisation is 1–64 letters, digits, spaces or . _ & ( ) -' });
  const names = Object.fromEntries(TEXT_COLUMNS.map((c) => [c, text(c)])) as Record<(typeof TEXT_COLUMNS)[number], string | null>;
  if (names.name_ar === null && names.name_latin === null)
    issues.push({ column: 'name_ar', reason: 'a report names the person: in Arabic script (name_ar), in Latin letters (name_latin), or both' });
  const sexText = text('sex')?.toLowerCase() ?? null;
  if (sexText !== null && !(SEXES as readonly string[]).includes(sexText)) issues.push({ column: 'sex', reason: `expected one of ${SEXES.join(', ')}` });
  const birth = text('birth');
  if (birth !== null && !(/^\d{4}$/.test(birth) || isCalendarDate(birth))) issues.push({ column: 'birth', reason: 'expected a year (1970) or a date (1970-03-21)' });
  const eventText = text('event')?.toLowerCase().replace('-', '_') ?? null;
  if (eventText !== null && eventText !== 'arrest' && eventText !== 'last_seen') issues.push({ column: 'event', reason: 'expected arrest or last_seen' });
  const eventDate = text('event_date');
  if (eventDate !== null && !(/^\d{4}(-(0[1-9]|1[0-2]))?$/.test(eventDate) || isCalendarDate(eventDate)))
    issues.push({ column: 'event_date', reason: 'expected a year, a month (2013-05) or a date (2013-05-21)' });
  const unitText = text('unit');
  const resolved = unitText === null ? null : ctx.units.resolve(unitText);
  const am = parseIdentificationRecord('am', Object.fromEntries(AM_COLUMNS.filter((c) => input[c] !== undefined).map((c) => [c, input[c]])));
  issues.push(...am.issues);
  const contactValues = CONTACT_COLUMNS.map((c) => text(c));
  const consentOrgs = listOf(input.consent_orgs, 'consent_orgs', issues).map((o) => {
    const ok = checkOrg(o);
    if (ok === null) issues.push({ column: 'consent_orgs', reason: `${JSON.stringify(o)} is not an organisation name` });
    return ok ?? o;
  });
  const photos = text('consent_photographs')?.toLowerCase() ?? 'no';
  if (photos !== 'yes' && photos !== 'no') issues.push({ column: 'consent_photographs', reason: 'expected yes or no' });
  const liaison = text('consent_liaison');
  if (photos === 'yes' && liaison === null) issues.push({ column: 'consent_liaison', reason: 'photographs may be shown only through a named liaison' });
  if (issues.length > 0 || org === null) return { issues };
  const [name, relation, phone, email, address] = contactValues;
  return {
    org,
    content: {
      ...names,
      sex: sexText as Sex | null,
      birth,
      event: eventText as EventKind | null,
      event_date: eventDate,
      unit: unitText === null ? null : { as_reported: unitText, id: resolved?.status === 'found' ? resolved.unit.id : null },
      am: am.record,
      contact: contactValues.every((v) => v === null)
        ? null
        : { name: name ?? null, relation: relation ?? null, phone: phone ?? null, email: email ?? null, address: address ?? null },
      consent: { orgs: [...new Set(consentOrgs)], photographs: photos as 'yes' | 'no', liaison },
    },
  };
}

function listOf(v: unknown, column: string, issues: FieldIssue[]): string[] {
  if (v === undefined || v === null || v === '') return [];
  if (typeof v === 'string') return v.split(';').map((s) => s.trim()).filter((s) => s !== '');
  if (Array.isArray(v) && v.every((x): x is string => typeof x === 'string')) return v.map((s) => s.trim()).filter((s) => s !== '');
  issues.push({ column, reason: 'expected a list of names separated by ";"' });
  return [];
}

/** The content without its contact: what `missing show` prints unless the contact is asked for. */
export function withoutContact(c: ReportContent): Omit<ReportContent, 'contact'> & { contact: 'sealed' | null } {
  return { ...c, contact: c.contact === null ? null : 'sealed' };
}

export function contentJson(c: ReportContent): JsonValue {
  return c as unknown as JsonValue;
}
