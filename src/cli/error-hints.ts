// The CLI's wording of an error: the flag it is about and the command that fixes it. Services
// name a request field and a remedy (`details.hint`, core/errors.ts); only this file knows that the
// field `at` is the flag `--at`, or that the remedy `verify` is `custody verify`.
import type { CustodyError, RequestField, Remedy } from '../core/index.js';

/** The flag of each request field. */
export const FLAG_OF: Readonly<Record<RequestField, string>> = {
  at: '--at',
  out: '--out',
  bag: '--bag',
  select: '--select',
  exhibits: '--exhibits',
  includeImages: '--include-images',
  blurImages: '--blur-images',
  sinceCheckpoint: '--since-checkpoint',
  reason: '--reason',
  category: '--category',
  source: '--source',
  name: '--name',
  over: '--over',
  method: '--method',
  by: '--by',
  population: '--population',
  beacon: '--beacon',
  round: '--round',
  value: '--value',
  unit: '--unit',
  actor: '--actor or CUSTODY_ACTOR',
  maxImagePixels: '--max-image-pixels or CUSTODY_IMAGE_MAX_PIXELS',
  decision: '--accept or --reject',
  level: '--level',
  viewing: '--viewing',
  reference: '--reference KIND:TEXT',
  attendee: '--attendee',
  photograph: '--shown',
  notes: '--notes',
};

type Details = Readonly<Record<string, unknown>>;
const word = (d: Details, key: string, otherwise: string): string => {
  const v = d[key];
  return typeof v === 'string' || typeof v === 'number' ? String(v) : otherwise;
};

/** Each remedy as the CLI says it, with the words that join it to the message before it. */
export const REMEDY_TEXT: Readonly<Record<Remedy, (d: Details) => string>> = {
  verify: () => ': run `custody verify`',
  'verify-trusted-checkpoint': () => ': run `custody verify --trusted-checkpoint`',
  rebuild: () => ': run `custody rebuild`',
  analyze: () => ': run `custody analyze`',
  'list-checkpoints': () => ' (`custody checkpoint` lists the signed ones)',
  'show-checkpoint': () => ' (`custody checkpoint --at N`)',
  'list-plans': () => ' (see `custody sample list`)',
  'list-sources': () => ' (custody source list)',
  'init-archive': (d) => ` (create one with \`custody init --archive ${word(d, 'dir', 'DIR')}\`)`,
  'init-sources': () => ': run `custody source init` first: it sets the sources key and names its first custodian',
  'set-aside-tail': () => ': set them aside first (`custody tail --set-aside`)',
  'adopt-tail': () =>
    ". After an interrupted run, `custody checkpoint --sign` adopts them if the run's batch intent announces them; entries Custody did not write are refused there and shown by `custody tail`",
  'catch-up-index': () => ': any write command or `custody rebuild` catches it up',
  'inspect-tail': () => ' `custody tail` shows them; `custody tail --set-aside --reason TEXT` moves them aside, recorded in the ledger',
  'publish-checkpoint': (d) => `: run \`custody checkpoint --publish ${word(d, 'folder', 'DIR')}\` after \`sample frame\`, then take the beacon value`,
  'seed-plan': (d) => `: \`custody sample seed ${word(d, 'plan', 'PLAN')} --beacon NAME --round N --value HEX\` first`,
  census: (d) => `: to examine every one, take a census (--census, or --size ${word(d, 'frameSize', 'N')})`,
  'new-source': () => ', or pass --new-source to register it with this delivery',
  'valid-only': () => ', or import only the valid rows with --valid-only',
  'add-scheme': () => ' (declare it with `custody scheme add`)',
  'suggest-again': () => ' (run `custody subject suggest` again: the archive may have changed)',
  'merge-subjects': () => ': merge with `custody subject merge`',
  'withdraw-containers': () => ': withdraw them (`custody withdraw <sha256>`), then purge again',
  'rewrap-key': () => '; to encrypt a key that was made without a passphrase, run `custody key rewrap --new-passphrase-file FILE` without a passphrase',
  'give-passphrase': () => ': give its passphrase with --key-passphrase-file FILE, --key-passphrase-fd N, CUSTODY_KEY_PASSPHRASE_FILE or CUSTODY_KEY_PASSPHRASE',
  'give-report-passphrase': () => ': give the report passphrase with CUSTODY_REPORT_PASSPHRASE_FILE or CUSTODY_REPORT_PASSPHRASE (the custodian holds it; custody key rewrap --report changes it)',
};

/**
 * The remedy of each finding (of `custody verify`) or refusal (of `custody purge`) that has one:
 * these are reports, not errors, so their code names the remedy here rather than in details.
 */
export const FINDING_REMEDY: Readonly<Partial<Record<string, Remedy[]>>> = {
  INDEX_MISSING: ['rebuild'],
  INDEX_CORRUPT: ['rebuild'],
  DB_LEDGER_LAG: ['catch-up-index'],
  LEDGER_TAIL_UNAUTHENTICATED: ['adopt-tail'],
  PURGE_CONTAINER_NOT_WITHDRAWN: ['withdraw-containers'],
};

/** A finding's message as the CLI prints it, with the remedy of its code. */
export function cliFindingMessage(code: string, message: string): string {
  return message + (FINDING_REMEDY[code] ?? []).map((r) => REMEDY_TEXT[r]({})).join('');
}

const isField = (v: unknown): v is RequestField => typeof v === 'string' && Object.hasOwn(FLAG_OF, v);
const isRemedy = (v: unknown): v is Remedy => typeof v === 'string' && Object.hasOwn(REMEDY_TEXT, v);

/**
 * An error's message as the CLI prints it: `--flag VALUE: message` when the error names a field
 * and its value, `message (--flag)` when it names the field only, then each remedy. An error
 * without a hint prints its message as it is.
 */
export function cliMessage(e: CustodyError): string {
  const d = e.details;
  const h = (typeof d.hint === 'object' && d.hint !== null ? d.hint : {}) as Record<string, unknown>;
  let text = e.message;
  if (isField(h.field)) {
    const v = h.value;
    text = typeof v === 'string' || typeof v === 'number' ? `${FLAG_OF[h.field]} ${v}: ${text}` : `${text} (${FLAG_OF[h.field]})`;
  }
  if (Array.isArray(h.remedy)) {
    const texts = h.remedy.filter(isRemedy).map((r) => REMEDY_TEXT[r](d));
    // A second command joins the first: "run `custody verify`, then `custody rebuild`".
    text += texts.map((t, i) => (i === 0 ? t : `, then ${t.replace(/^[:;,(\s]*(run )?/, '').replace(/\)$/, '')}`)).join('');
  }
  return text;
}
