import type { Kysely, Migration } from 'kysely';
import { kysely } from './kysely.adapter.js';

const { sql } = kysely;

/**
 * Schema migrations, dialect-neutral (SQLite and PostgreSQL). Sizes are bigint: evidence files
 * can exceed 2 GiB. PostgreSQL's int8 is parsed back to a JS number (safe below 2^53).
 */
export const MIGRATIONS: Record<string, Migration> = {
  '0001-archive-index': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('meta')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('ledger_entries')
        .addColumn('seq', 'bigint', (c) => c.primaryKey())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('time', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('leaf_hash', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('received_by', 'text')
        .addColumn('medium', 'text')
        .addColumn('note', 'text')
        .addColumn('roots_json', 'text', (c) => c.notNull())
        .addColumn('manifest_sha256', 'text')
        .addColumn('opened_seq', 'bigint', (c) => c.notNull())
        .addColumn('opened_at', 'text', (c) => c.notNull())
        .addColumn('opened_by', 'text', (c) => c.notNull())
        .addColumn('closed_seq', 'bigint')
        .addColumn('report_json', 'text')
        .execute();
      await db.schema
        .createTable('objects')
        .addColumn('sha256', 'text', (c) => c.primaryKey())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('media_type', 'text', (c) => c.notNull())
        .addColumn('first_seq', 'bigint', (c) => c.notNull())
        .addColumn('withdrawn_seq', 'bigint')
        .addColumn('purged_seq', 'bigint')
        .execute();
      await db.schema
        .createTable('items')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('seq', 'bigint', (c) => c.notNull().unique())
        .addColumn('delivery_id', 'text', (c) => c.notNull())
        .addColumn('parent_id', 'text')
        .addColumn('member_index', 'bigint')
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('path_raw_hex', 'text')
        .addColumn('path_encoding', 'text', (c) => c.notNull())
        .addColumn('relative_path', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('mtime', 'text')
        .addColumn('media_type', 'text', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('flags_json', 'text', (c) => c.notNull())
        .addColumn('origin_key', 'text', (c) => c.notNull())
        .addColumn('received_at', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .execute();
      // The idempotence key of intake: (delivery, original path, SHA-256).
      await db.schema
        .createIndex('items_idempotence')
        .on('items')
        .columns(['delivery_id', 'origin_key', 'sha256'])
        .unique()
        .execute();
      await db.schema.createIndex('items_sha256').on('items').column('sha256').execute();
      await db.schema.createIndex('items_parent').on('items').column('parent_id').execute();
      await db.schema
        .createTable('withdrawals')
        .addColumn('seq', 'bigint', (c) => c.primaryKey())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('authority', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('time', 'text', (c) => c.notNull())
        .execute();
      await sql`select 1`.execute(db);
    },
  },
  '0002-image-analysis': {
    async up(db: Kysely<unknown>): Promise<void> {
      let t = db.schema
        .createTable('analyses')
        .addColumn('sha256', 'text', (c) => c.primaryKey())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('analyzer', 'text', (c) => c.notNull());
      for (const col of [
        'make',
        'model',
        'body_serial',
        'software',
        'xmp_creator_tool',
        'date_time_original',
        'create_date',
        'modify_date',
        'offset_time_original',
        'sub_sec_time_original',
        'quant_digest',
        'pdq',
        'thumbnail_pdq',
        'gps_latitude',
        'gps_longitude',
        'c2pa_state',
      ]) {
        t = t.addColumn(col, 'text');
      }
      for (const col of ['orientation', 'width', 'height', 'jpeg_quality', 'pdq_quality'])
        t = t.addColumn(col, 'bigint');
      t = t.addColumn('exif_present', 'bigint', (c) => c.notNull());
      for (const col of [
        'xmp_history_json',
        'pdq_dihedral_json',
        'crops_json',
        'c2pa_codes_json',
        'warnings_json',
      ])
        t = t.addColumn(col, 'text', (c) => c.notNull());
      await t.execute();
      await db.schema
        .createIndex('analyses_camera')
        .on('analyses')
        .columns(['make', 'model'])
        .execute();
      await db.schema
        .createTable('decisions')
        .addColumn('seq', 'bigint', (c) => c.primaryKey())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('objects_json', 'text', (c) => c.notNull())
        .addColumn('decision', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('time', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('media_type', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'bigint', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('jobs_state').on('jobs').columns(['state', 'id']).execute();
    },
  },
  '0003-catalogue-units': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('units')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('code', 'bigint', (c) => c.unique())
        .addColumn('name_en', 'text', (c) => c.notNull())
        .addColumn('name_ar', 'text')
        .addColumn('aliases_json', 'text', (c) => c.notNull())
        .addColumn('parent_id', 'text')
        .addColumn('created_seq', 'bigint', (c) => c.notNull())
        .addColumn('updated_seq', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '0004-catalogue-subjects': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('numbering_schemes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('config_json', 'text', (c) => c.notNull())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .execute();
      let t = db.schema.createTable('subjects').addColumn('id', 'text', (c) => c.primaryKey());
      for (const col of [
        'number_raw',
        'scheme_id',
        'number_normalised',
        'unit_id',
        'sex',
        'age_band',
        'date_of_death',
        'date_of_photography',
        'notes',
        'merged_into',
      ])
        t = t.addColumn(col, 'text');
      t = t
        .addColumn('fields_json', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull());
      t = t
        .addColumn('created_seq', 'bigint', (c) => c.notNull())
        .addColumn('updated_seq', 'bigint', (c) => c.notNull());
      await t.execute();
      await db.schema
        .createIndex('subjects_number')
        .on('subjects')
        .columns(['scheme_id', 'number_normalised'])
        .execute();
      await db.schema
        .createTable('subject_items')
        .addColumn('item_id', 'text', (c) => c.primaryKey())
        .addColumn('subject_id', 'text', (c) => c.notNull())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('subject_items_subject')
        .on('subject_items')
        .column('subject_id')
        .execute();
      await db.schema
        .createTable('subject_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('subject_id', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('time', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('subject_events_subject')
        .on('subject_events')
        .columns(['subject_id', 'seq'])
        .execute();
    },
  },
  '0005-catalogue-sources': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('sources')
        .addColumn('codename', 'text', (c) => c.primaryKey())
        .addColumn('identity_json', 'text')
        .addColumn('registered_seq', 'bigint', (c) => c.notNull())
        .addColumn('updated_seq', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('source_roles')
        .addColumn('actor', 'text', (c) => c.primaryKey())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('source_reads')
        .addColumn('seq', 'bigint', (c) => c.primaryKey())
        .addColumn('codename', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('time', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0006-examination': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('samples')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('unit_kind', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('stratify', 'text')
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('population', 'bigint')
        .addColumn('frame_digest', 'text', (c) => c.notNull())
        .addColumn('frame_size', 'bigint', (c) => c.notNull())
        .addColumn('strata_json', 'text', (c) => c.notNull())
        .addColumn('codebook_json', 'text', (c) => c.notNull())
        .addColumn('codebook_version', 'text', (c) => c.notNull())
        .addColumn('codebook_digest', 'text', (c) => c.notNull())
        .addColumn('frame_seq', 'bigint', (c) => c.notNull())
        .addColumn('seed', 'text')
        .addColumn('seed_seq', 'bigint')
        .addColumn('manifest_digest', 'text')
        .addColumn('manifest_seq', 'bigint')
        .execute();
      await db.schema
        .createTable('sample_members')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('sample_id', 'text', (c) => c.notNull())
        .addColumn('member_id', 'text', (c) => c.notNull())
        .addColumn('position', 'bigint', (c) => c.notNull())
        .addColumn('stratum', 'text')
        .execute();
      await db.schema
        .createIndex('sample_members_sample')
        .on('sample_members')
        .columns(['sample_id', 'position'])
        .execute();
      for (const table of ['exam_assignments', 'exam_submissions'] as const) {
        let t = db.schema
          .createTable(table)
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('sample_id', 'text', (c) => c.notNull())
          .addColumn('case_id', 'text', (c) => c.notNull())
          .addColumn('examiner', 'text', (c) => c.notNull());
        t =
          table === 'exam_assignments'
            ? t.addColumn('seq', 'bigint', (c) => c.notNull())
            : t
                .addColumn('commitment', 'text', (c) => c.notNull())
                .addColumn('sealed', 'text', (c) => c.notNull())
                .addColumn('submit_seq', 'bigint', (c) => c.notNull())
                .addColumn('answer_json', 'text')
                .addColumn('salt', 'text')
                .addColumn('reveal_seq', 'bigint');
        await t.execute();
        await db.schema
          .createIndex(`${table}_case`)
          .on(table)
          .columns(['sample_id', 'case_id'])
          .execute();
      }
      await db.schema
        .createTable('exam_adjudications')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('sample_id', 'text', (c) => c.notNull())
        .addColumn('case_id', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('decisions_json', 'text', (c) => c.notNull())
        .addColumn('final_json', 'text', (c) => c.notNull())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '0007-catalogue-unit-codes': {
    // Text unit codes ("AFI") beside numeric ones, and retirement (units are never deleted).
    // Rows of earlier archives keep null in both, which is what replaying their entries gives.
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('units').addColumn('code_text', 'text').execute();
      await db.schema.alterTable('units').addColumn('retired_seq', 'bigint').execute();
      await db.schema
        .createIndex('units_code_text')
        .on('units')
        .column('code_text')
        .unique()
        .execute();
      // Subject import names photographs by their path in the delivery.
      await db.schema
        .createIndex('items_relative_path')
        .on('items')
        .column('relative_path')
        .execute();
    },
  },
  '0008-accounts': {
    // Staff accounts (issue 12). account_passwords is not projected from the ledger.
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('org', 'text')
        .addColumn('name_sealed', 'text', (c) => c.notNull())
        .addColumn('created_seq', 'bigint', (c) => c.notNull())
        .addColumn('updated_seq', 'bigint', (c) => c.notNull())
        .addColumn('disabled_seq', 'bigint')
        .addColumn('disabled_reason', 'text')
        .execute();
      await db.schema
        .createTable('account_passwords')
        .addColumn('account_id', 'text', (c) => c.primaryKey())
        .addColumn('hash', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0009-identification': {
    // Missing-person reports (sealed), reads of their contact, subjects' post-mortem records (issue 15).
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('missing_reports')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('org', 'text', (c) => c.notNull())
        .addColumn('sealed_json', 'text', (c) => c.notNull())
        .addColumn('digest', 'text', (c) => c.notNull())
        .addColumn('codebook_version', 'text', (c) => c.notNull())
        .addColumn('codebook_digest', 'text', (c) => c.notNull())
        .addColumn('recorded_seq', 'bigint', (c) => c.notNull())
        .addColumn('recorded_at', 'text', (c) => c.notNull())
        .addColumn('recorded_by', 'text', (c) => c.notNull())
        .addColumn('erased_seq', 'bigint')
        .addColumn('erased_reason', 'text')
        .execute();
      await db.schema
        .createTable('missing_report_reads')
        .addColumn('seq', 'bigint', (c) => c.primaryKey())
        .addColumn('report_id', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('time', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('subject_pm')
        .addColumn('subject_id', 'text', (c) => c.primaryKey())
        .addColumn('pm_json', 'text', (c) => c.notNull())
        .addColumn('codebook_version', 'text', (c) => c.notNull())
        .addColumn('codebook_digest', 'text', (c) => c.notNull())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '0010-examination-plan-keys': {
    // Issue 12 (i12k, sealing, blinded cases, per-person keys): each plan's wrapped key and, once the plan is
    // closed, its published case-code key; each assignment's opaque case code. Rows of earlier
    // plans keep null (their answers stay sealed under the archive's derived key).
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('samples').addColumn('plan_key_json', 'text').execute();
      await db.schema.alterTable('samples').addColumn('case_code_key', 'text').execute();
      await db.schema.alterTable('samples').addColumn('closed_seq', 'bigint').execute();
      await db.schema.alterTable('exam_assignments').addColumn('code', 'text').execute();
      await db.schema
        .createIndex('exam_assignments_code')
        .on('exam_assignments')
        .columns(['sample_id', 'code'])
        .execute();
      // Examiners' and adjudicators' own Ed25519 keys: enrolled, replaced, revoked (ledger entries).
      await db.schema
        .createTable('person_keys')
        .addColumn('key_id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('enrol_seq', 'bigint', (c) => c.notNull())
        .addColumn('ended_seq', 'bigint')
        .addColumn('ended_reason', 'text')
        .execute();
      await db.schema
        .createIndex('person_keys_account')
        .on('person_keys')
        .column('account_id')
        .execute();
    },
  },
  '0011-server-reads': {
    // The team server's read routes (issue 12): the audited views (one row per 'dissemination'
    // entry of a 'view.*' action, projected from the ledger, so a restart does not re-record an
    // hour already recorded), and indexes for the item list's filters and sort orders.
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('views')
        .addColumn('seq', 'bigint', (c) => c.primaryKey())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('item_id', 'text')
        .addColumn('sha256', 'text')
        .addColumn('hour', 'text', (c) => c.notNull())
        .addColumn('time', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('views_key')
        .on('views')
        .columns(['actor', 'item_id', 'hour', 'action'])
        .execute();
      await db.schema.createIndex('views_item').on('views').columns(['item_id', 'seq']).execute();
      await db.schema
        .createIndex('items_delivery_seq')
        .on('items')
        .columns(['delivery_id', 'seq'])
        .execute();
      await db.schema
        .createIndex('items_received')
        .on('items')
        .columns(['received_at', 'id'])
        .execute();
      await db.schema.createIndex('items_name').on('items').columns(['name', 'id']).execute();
      await db.schema
        .createIndex('analyses_taken')
        .on('analyses')
        .column('date_time_original')
        .execute();
      await db.schema.createIndex('analyses_model').on('analyses').column('model').execute();
      // A camera's items in date order: the item list's camera filter sorted by date taken.
      await db.schema
        .createIndex('analyses_camera_taken')
        .on('analyses')
        .columns(['make', 'model', 'date_time_original'])
        .execute();
      await db.schema.createIndex('subjects_unit').on('subjects').column('unit_id').execute();
      await db.schema
        .createIndex('sample_members_member')
        .on('sample_members')
        .column('member_id')
        .execute();
      await db.schema
        .createIndex('exam_submissions_case_only')
        .on('exam_submissions')
        .column('case_id')
        .execute();
    },
  },
  '0012-missing-link-reviews': {
    // Issue 15, "Review": each reviewer's decision on a proposed report↔report link
    // (`missing.link-review`): report ids, the decision and the reason; no family data.
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('missing_link_reviews')
        .addColumn('seq', 'bigint', (c) => c.primaryKey())
        .addColumn('report_a', 'text', (c) => c.notNull())
        .addColumn('report_b', 'text', (c) => c.notNull())
        .addColumn('decision', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('time', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0013-missing-subject-events': {
    // Issue 15, "Review" and "Consented viewing": report↔subject decisions, evidence levels and
    // family viewings (`missing.subject-review`, `missing.subject-level`, `missing.viewing`);
    // reasons, references and attendees only sealed under the report's key.
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('missing_subject_events')
        .addColumn('seq', 'bigint', (c) => c.primaryKey())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('report_id', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'text', (c) => c.notNull())
        .addColumn('value', 'text')
        .addColumn('facts_json', 'text', (c) => c.notNull())
        .addColumn('sealed_json', 'text', (c) => c.notNull())
        .addColumn('digest', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('time', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('missing_subject_events_report').on('missing_subject_events').columns(['report_id', 'seq']).execute();
    },
  },
  '0014-missing-link-review-sealed': {
    // Issue 15: the reason of a report↔report decision sealed under both reports' keys (the entry's
    // `sealed` and `digest`); `reason` stays '' for those, and holds the clear reason of the
    // entries written before.
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('missing_link_reviews').addColumn('sealed_json', 'text').execute();
      await db.schema.alterTable('missing_link_reviews').addColumn('digest', 'text').execute();
    },
  },
  '0015-analysis-inputs-mark': {
    // Issue 14, "Scale": the near-duplicate and indicator caches are keyed on the last entry that
    // changed what they read (schema.ts, MarksTable), not on the whole ledger's size. An index made
    // before this mark takes it from the rows those entries left: each such entry writes its seq
    // into one of these columns (an ingestion start opened_seq, an ingestion items.seq, an
    // ingestion end closed_seq, a withdrawal withdrawals.seq, a deletion purged_seq, an analysis
    // analyses.seq, later ones overwriting earlier), so their largest value is the replayed mark.
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('marks')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .execute();
      await sql`insert into marks (name, seq)
        select 'analysis_inputs', m from (
          select max(x) as m from (
            select max(opened_seq) as x from deliveries
            union all select max(closed_seq) from deliveries
            union all select max(seq) from items
            union all select max(seq) from withdrawals
            union all select max(purged_seq) from objects
            union all select max(seq) from analyses
          ) seqs
        ) latest where m is not null`.execute(db);
    },
  },
  '0016-missing-read-erase-sealed': {
    // Issue 15: the reason of a contact read sealed under the report's key (`sealed_json`,
    // `digest`; `reason` stays '' for those and holds the clear reason of older entries), and an
    // erasure's category from a closed list (`erased_category`; `erased_reason` only for older entries).
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('missing_report_reads').addColumn('sealed_json', 'text').execute();
      await db.schema.alterTable('missing_report_reads').addColumn('digest', 'text').execute();
      await db.schema.alterTable('missing_reports').addColumn('erased_category', 'text').execute();
    },
  },
  '0017-examination-sealed-case-ids': {
    // Issue 12, blinded cases: an assignment entry of version 2 names each case by its code with
    // its id sealed (exam_assignments.sealed_case; the rows are keyed by code); the close entry
    // publishes the case-id key and the links it opens (exam_case_links). Before the close only
    // the examination KEK links a code to its case: no table holds that.
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('samples').addColumn('case_id_key', 'text').execute();
      await db.schema.alterTable('exam_assignments').addColumn('sealed_case', 'text').execute();
      await db.schema
        .createTable('exam_case_links')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('sample_id', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('member_id', 'text', (c) => c.notNull())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('exam_case_links_sample').on('exam_case_links').column('sample_id').execute();
    },
  },
};
