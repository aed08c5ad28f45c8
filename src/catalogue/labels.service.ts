// Names for people beside the ids: a photograph's file name and delivery, the subject it shows
// (number) and that subject's unit (English and Arabic). Loaded once per command from the index.
import type { IndexReads, LinkReads } from './ports.js';
import type { ItemsTable, SubjectsTable } from '../db/index.js';
import { codeOf, UnitRegistry } from './units/registry.js';

export interface ItemLabel {
  item: string;
  file: string;
  path: string;
  delivery: string;
  subject: string | null;
  number: string | null;
  unit: UnitName | null;
}

export interface UnitName {
  id: string;
  code: number | string | null;
  name_en: string;
  name_ar: string | null;
}

/** What loading the labels reads. */
export type LabelsPorts = IndexReads<'listItems' | 'listSubjects' | 'listUnits'> &
  LinkReads<'allSubjectItems'>;

export class CatalogueLabels {
  private constructor(
    private readonly items: ReadonlyMap<string, ItemsTable>,
    private readonly itemsBySha: ReadonlyMap<string, ItemsTable[]>,
    private readonly subjects: ReadonlyMap<string, SubjectsTable>,
    private readonly subjectOfItem: ReadonlyMap<string, string>,
    private readonly units: UnitRegistry,
  ) {}

  static async load(archive: LabelsPorts): Promise<CatalogueLabels> {
    const items = await archive.index.listItems();
    const bySha = new Map<string, ItemsTable[]>();
    for (const i of items) bySha.set(i.sha256, [...(bySha.get(i.sha256) ?? []), i]);
    return new CatalogueLabels(
      new Map(items.map((i) => [i.id, i])),
      bySha,
      new Map((await archive.index.listSubjects()).map((s) => [s.id, s])),
      new Map((await archive.examinations.allSubjectItems()).map((l) => [l.item_id, l.subject_id])),
      new UnitRegistry(await archive.index.listUnits()),
    );
  }

  item(id: string): ItemLabel | null {
    const i = this.items.get(id);
    if (i === undefined) return null;
    const subject = this.subjectOfItem.get(id) ?? null;
    const s = subject === null ? undefined : this.subjects.get(subject);
    return {
      item: id,
      file: i.name,
      path: i.relative_path,
      delivery: i.delivery_id,
      subject,
      number: s?.number_normalised ?? null,
      unit: this.unit(s?.unit_id ?? null),
    };
  }

  /** Every receipt of these bytes. */
  object(sha256: string): ItemLabel[] {
    return (this.itemsBySha.get(sha256) ?? [])
      .map((i) => this.item(i.id))
      .filter((l): l is ItemLabel => l !== null);
  }

  subject(id: string): { subject: string; number: string | null; unit: UnitName | null } {
    const s = this.subjects.get(id);
    return {
      subject: id,
      number: s?.number_normalised ?? null,
      unit: this.unit(s?.unit_id ?? null),
    };
  }

  unit(id: string | null): UnitName | null {
    const u = id === null ? undefined : this.units.byId.get(id);
    return u === undefined
      ? null
      : { id: u.id, code: codeOf(u), name_en: u.name_en, name_ar: u.name_ar };
  }
}

/** "Air Force Intelligence / المخابرات الجوية (AFI)". */
export function unitText(u: UnitName | null): string {
  if (u === null) return 'no unit';
  return `${u.name_en}${u.name_ar === null ? '' : ` / ${u.name_ar}`}${u.code === null ? '' : ` (${u.code})`}`;
}

/** "photos/a.jpg in D1, subject 12/AFI (Air Force Intelligence / …)" for one photograph. */
export function itemText(l: ItemLabel | null, id: string): string {
  if (l === null) return id;
  const who = l.subject === null ? '' : `, subject ${l.number ?? l.subject} (${unitText(l.unit)})`;
  return `${l.path} in ${l.delivery}${who}`;
}

/** "subject 12/AFI (Air Force Intelligence / …)". */
export function subjectText(s: {
  subject: string;
  number: string | null;
  unit: UnitName | null;
}): string {
  return `subject ${s.number ?? s.subject}${s.number === null ? '' : ` [${s.subject}]`} (${unitText(s.unit)})`;
}
