import type { ItemMetadata } from './types';

// EXIF in readable groups: the fields the analysis extracted (camera, dates, image, location,
// software), and the full ExifTool dump grouped by its family-0 group ("EXIF:Make" → EXIF).

export type ExifGroup = 'camera' | 'dates' | 'image' | 'location' | 'software';
export type ExifField = Exclude<keyof ItemMetadata, 'thumbnail_pdq'>;

export const EXIF_GROUPS: readonly { group: ExifGroup; fields: readonly ExifField[] }[] = [
  { group: 'camera', fields: ['make', 'model', 'body_serial_number'] },
  {
    group: 'dates',
    fields: [
      'date_time_original',
      'offset_time_original',
      'sub_sec_time_original',
      'create_date',
      'modify_date',
    ],
  },
  { group: 'image', fields: ['width', 'height', 'orientation', 'jpeg_quality', 'quant_digest'] },
  { group: 'location', fields: ['gps_latitude', 'gps_longitude'] },
  { group: 'software', fields: ['software', 'xmp_creator_tool', 'xmp_history_software'] },
];

/** The groups with at least one value, each with its fields that have one, shown as text. */
export function groupMetadata(
  m: ItemMetadata,
): { group: ExifGroup; rows: { field: ExifField; value: string }[] }[] {
  const out = [];
  for (const { group, fields } of EXIF_GROUPS) {
    const rows = [];
    for (const field of fields) {
      const v = m[field];
      if (v === null || v === undefined) continue;
      if (Array.isArray(v)) {
        if (v.length > 0) rows.push({ field, value: v.join(', ') });
      } else if (v !== '') rows.push({ field, value: String(v) });
    }
    if (rows.length > 0) out.push({ group, rows });
  }
  return out;
}

/**
 * The full ExifTool dump (`-G`: keys "Group:Tag") by group, in ExifTool's order of first
 * appearance, tags in their order; keys without a group go under "Other". Values as text
 * (objects and arrays as JSON), long ones cut with their length stated.
 */
export function groupDump(
  dump: Record<string, unknown>,
  maxValue = 400,
): { group: string; tags: { tag: string; value: string }[] }[] {
  const groups = new Map<string, { tag: string; value: string }[]>();
  for (const [key, raw] of Object.entries(dump)) {
    const colon = key.indexOf(':');
    const group = colon > 0 ? key.slice(0, colon) : 'Other';
    const tag = colon > 0 ? key.slice(colon + 1) : key;
    let value = typeof raw === 'string' ? raw : JSON.stringify(raw) ?? String(raw);
    if (value.length > maxValue) value = `${value.slice(0, maxValue)}… (${value.length})`;
    const list = groups.get(group);
    if (list === undefined) groups.set(group, [{ tag, value }]);
    else list.push({ tag, value });
  }
  return [...groups].map(([group, tags]) => ({ group, tags }));
}
