import { describe, expect, it } from 'vitest';
import { canonicalize, type JsonValue } from '../../../core/index.js';
import { commit } from '../../../examination/commitment/index.js';
import { codebookDigest, DEFAULT_CODEBOOK, type ExaminationAnswer } from '../../../examination/codebook/index.js';
import { drawSimpleRandom, frameDigest } from '../../../examination/sampling/index.js';
import type { LedgerEntry } from '../../../ledger/index.js';
import { checkCommitments, deriveExaminations, deriveOutcomes } from './derive-examinations.js';
import { deriveItems } from './derive-items.js';
import { exportedSamples, manifestMembers, redrawSample } from './derive-samples.js';
import { deriveSubjects } from './derive-subjects.js';
import { replayEntries } from './replay.js';

const SHA = (n: number) => n.toString(16).padStart(64, '0');
const T = '2026-01-01T00:00:00.000Z';
type Details = { [k: string]: JsonValue };

/** A tiny ledger, shaped as the commands write it: one delivery of 4 photographs, 4 subjects, a sample of 2 examined by two. */
function ledger(opts: { tamperSalt?: boolean } = {}): { entries: LedgerEntry[]; members: string[]; sample: string } {
  const entries: LedgerEntry[] = [];
  const add = (type: LedgerEntry['type'], details: Details, items: string[] = [], objects: string[] = []) =>
    entries.push({ seq: entries.length, time: T, actor: 'tester', type, items, objects, details });
  add('creation', { origin: 'test' });
  add('ingestion start', { delivery: 'D1', source: 'KITE', received_by: null, medium: null, note: null, roots: [] });
  for (let i = 0; i < 4; i++)
    add('ingestion', { delivery: 'D1', parent: null, member_index: null, path: `/p/${i}.jpg`, path_raw_hex: null, path_encoding: 'utf-8', relative_path: `${i}.jpg`, name: `${i}.jpg`, size: 10 + i, mtime: null, media_type: 'image/jpeg', flags: [] }, [`I${i}`], [SHA(i + 1)]);
  add('ingestion end', { delivery: 'D1' });
  for (let i = 0; i < 4; i++) add('cataloguing', { action: 'subject.create', reason: 'card', subject: { id: `S${i}`, unit_id: i < 2 ? 'U1' : 'U2', sex: 'male' }, items: [`I${i}`] });
  const frame = ['S0', 'S1', 'S2', 'S3'];
  const plan = { id: 'P', name: 'main', unit: 'subjects', method: 'simple', stratify: null, size: 2, population: 4, codebook: { version: DEFAULT_CODEBOOK.version, digest: codebookDigest(DEFAULT_CODEBOOK), definition: DEFAULT_CODEBOOK as unknown as JsonValue } };
  add('examination', { action: 'sample.frame', sample: plan, frame_digest: frameDigest(frame), frame_size: 4, merged: [], frame });
  add('examination', { action: 'sample.seed', sample: 'P', seed: 'the seed' });
  const draw = drawSimpleRandom(frame, 2, 'the seed');
  add('examination', { action: 'sample.manifest', sample: 'P', method: 'simple', frame_digest: draw.frameDigest, seed: 'the seed', members: [...draw.members], manifest_digest: draw.manifestDigest });
  add('examination', { action: 'examination.assign', sample: 'P', cases: draw.members.map((c) => ({ case: c, examiners: ['a', 'b'] })) });
  const answer = (v: string): ExaminationAnswer =>
    ({ sex: 'male', age_band: '30-39', findings: Object.fromEntries(DEFAULT_CODEBOOK.findings.map((f) => [f.code, { value: f.code === 'emaciation' ? v : 'absent' }])) }) as unknown as ExaminationAnswer;
  for (const c of draw.members) {
    const given = [{ examiner: 'a', answer: answer('present') }, { examiner: 'b', answer: answer('present') }].map((x) => ({ ...x, ...commit(x.answer) }));
    for (const g of given) add('examination', { action: 'examination.submit', sample: 'P', case: c, examiner: g.examiner, commitment: g.commitment, sealed: 'ciphertext' });
    add('examination', { action: 'examination.reveal', sample: 'P', case: c, answers: given.map((g, i) => ({ examiner: g.examiner, answer: g.answer as unknown as JsonValue, salt: opts.tamperSalt === true && i === 0 ? SHA(7) : g.salt })) });
  }
  return { entries: JSON.parse(canonicalize(entries)) as LedgerEntry[], members: [...draw.members], sample: 'P' };
}

describe('the derivations of check 7, from ledger entries alone', () => {
  it('items: each row as its ingestion entry and delivery give it; an item the ledger does not know gives no row', () => {
    const index = replayEntries(ledger().entries);
    const rows = deriveItems(index, [{ item_id: 'I2', bag_path: 'data/items/I2-2.jpg', withheld: null }, { item_id: 'planted' }]);
    expect(rows).toEqual([
      { item_id: 'I2', bag_path: 'data/items/I2-2.jpg', sha256: SHA(3), size: 12, media_type: 'image/jpeg', original_path: '/p/2.jpg', original_path_raw_hex: null, delivery_id: 'D1', source_codename: 'KITE', ingestion_seq: 4, withheld: null },
    ]);
  });

  it('subjects: the subjects the exported items show, by id, each with its exported items', () => {
    const index = replayEntries(ledger().entries);
    expect(deriveSubjects(index, ['I3', 'I1']).map((s) => [s.subject_id, s.unit_id, s.items])).toEqual([
      ['S1', 'U1', ['I1']],
      ['S3', 'U2', ['I3']],
    ]);
  });

  it('samples: the plans touching the exported items, redrawn from frame and seed to the manifest\'s members in order', () => {
    const { entries, members } = ledger();
    const index = replayEntries(entries);
    const item = `I${members[0]?.slice(1) ?? ''}`;
    const [plan] = exportedSamples(index, [item]);
    expect(plan?.id).toBe('P');
    expect(exportedSamples(index, ['nothing'])).toEqual([]);
    const redraw = redrawSample(index, plan!);
    expect(redraw.members).toEqual(members);
    expect(redraw.manifestDigest).toBe(plan?.manifest_digest);
    expect(manifestMembers(index, plan!)).toEqual(members);
  });

  it('a changed seed draws other members', () => {
    const { entries, members } = ledger();
    const seed = entries.find((e) => e.details.action === 'sample.seed')!;
    seed.details.seed = 'another seed';
    const index = replayEntries(entries);
    const redraw = redrawSample(index, index.samples.get('P')!);
    expect(redraw.members).not.toEqual(members);
    expect(redraw.manifestDigest).not.toBe(index.samples.get('P')?.manifest_digest);
  });

  it('examinations: every revealed answer and the unanimous final answer; reveals that open their commitments', () => {
    const { entries, members } = ledger();
    const index = replayEntries(entries);
    const plan = index.samples.get('P')!;
    const { columns, rows } = deriveExaminations(index, [{ sample: plan, outcomes: deriveOutcomes(index, plan) }]);
    expect(columns.slice(0, 9)).toEqual(['sample', 'case', 'examiner', 'commitment', 'submit_seq', 'reveal_seq', 'sex', 'age_band', 'emaciation']);
    expect(rows.map((r) => `${String(r.case)}/${String(r.examiner)}:${String(r.emaciation)}`)).toEqual(
      [...members].sort().flatMap((c) => [`${c}/a:present`, `${c}/b:present`, `${c}/(unanimous):present`]),
    );
    expect(checkCommitments(index)).toEqual([]);
  });

  it('a reveal whose salt does not open the commitment is named with its sample, case, examiner and both entries', () => {
    const index = replayEntries(ledger({ tamperSalt: true }).entries);
    const broken = checkCommitments(index);
    expect(broken).toHaveLength(2);
    for (const b of broken) {
      expect(b).toMatchObject({ sample: 'P', examiner: 'a' });
      expect(b.submit_seq).toBeLessThan(b.reveal_seq);
    }
  });

  it('an entry that does not project is skipped and counted, the rest still derive', () => {
    const { entries } = ledger();
    entries.push({ seq: entries.length, time: T, actor: 'x', type: 'cataloguing', items: [], objects: [], details: { action: 'unit.update', unit: { id: 'never-registered' } } });
    const index = replayEntries(entries);
    expect(index.skipped.map((s) => s.seq)).toEqual([entries.length - 1]);
    expect(index.items.size).toBe(4);
  });
});
