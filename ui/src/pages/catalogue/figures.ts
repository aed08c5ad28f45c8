// Pure helpers of the catalogue and statistics pages: names in the page's language, the unit
// tree, and Krippendorff's reading of an agreement coefficient.
import type { UnitName, UnitsView } from '../../api';

/**
 * Krippendorff's thresholds (Content Analysis, 2004, §11.3.4), as the report states them: rely on
 * a coding with α ≥ 0.800; with 0.667 ≤ α < 0.800 draw tentative conclusions only; below 0.667
 * draw none. `null`: not computable.
 */
export type AlphaBand = 'reliable' | 'tentative' | 'no-conclusion' | 'not-computable';

export function alphaBand(alpha: number | null): AlphaBand {
  if (alpha === null || !Number.isFinite(alpha)) return 'not-computable';
  return alpha >= 0.8 ? 'reliable' : alpha >= 0.667 ? 'tentative' : 'no-conclusion';
}

/** A proportion as a percentage in the page's language, with `digits` decimals. */
export function percent(x: number, lng: string, digits = 1): string {
  return new Intl.NumberFormat(lng, {
    style: 'percent',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(x);
}

/** A coefficient (α, κ) to three decimals, in the page's language. */
export function coefficient(x: number, lng: string): string {
  return new Intl.NumberFormat(lng, { minimumFractionDigits: 3, maximumFractionDigits: 3 }).format(x);
}

/** The unit's name in the page's language (Arabic falls back to English, and back). */
export function unitName(u: Pick<UnitName, 'name_en' | 'name_ar'>, lng: string): string {
  return lng === 'ar' ? (u.name_ar ?? u.name_en) : u.name_en || (u.name_ar ?? '');
}

/** The other language's name, where there is one that differs. */
export function otherName(u: Pick<UnitName, 'name_en' | 'name_ar'>, lng: string): string | null {
  const other = lng === 'ar' ? u.name_en : u.name_ar;
  return other === null || other === '' || other === unitName(u, lng) ? null : other;
}

export type UnitRow = UnitsView['units'][number];
export interface UnitNode {
  unit: UnitRow;
  children: UnitNode[];
}

/**
 * The units as a tree by `parent_code`: roots are units without a parent, or whose parent is not
 * among them (it is then shown at the top rather than lost). Siblings sorted by code, then name.
 * A cycle (which the catalogue refuses on import) cannot loop here: each unit is placed once.
 */
export function unitTree(units: readonly UnitRow[]): UnitNode[] {
  const key = (c: number | string | null): string => (c === null ? '' : String(c).toLowerCase());
  const byCode = new Map(units.filter((u) => u.code !== null).map((u) => [key(u.code), u]));
  const children = new Map<string, UnitRow[]>();
  const roots: UnitRow[] = [];
  for (const u of units) {
    const parent = u.parent_code === null ? undefined : byCode.get(key(u.parent_code));
    if (parent === undefined || parent.id === u.id) roots.push(u);
    else children.set(parent.id, [...(children.get(parent.id) ?? []), u]);
  }
  const order = (a: UnitRow, b: UnitRow): number =>
    String(a.code ?? '').localeCompare(String(b.code ?? ''), 'en', { numeric: true }) ||
    a.name_en.localeCompare(b.name_en);
  const placed = new Set<string>();
  const build = (u: UnitRow): UnitNode => {
    placed.add(u.id);
    return {
      unit: u,
      children: (children.get(u.id) ?? [])
        .filter((c) => !placed.has(c.id))
        .sort(order)
        .map(build),
    };
  };
  const tree = roots.sort(order).map(build);
  // Units only reachable through a cycle are shown at the top too.
  for (const u of units) if (!placed.has(u.id)) tree.push(build(u));
  return tree;
}
