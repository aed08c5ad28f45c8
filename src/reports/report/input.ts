// What the report is made from: plain data gathered through the services (gather.service.ts) at
// one checkpoint, each part exactly as the cited command prints it with --json, in the same order,
// so that a footnote's pointer into that output finds the value the report prints.
import type { CameraSummary } from '../../analysis/indicators/index.js';
import type { UnitChange } from '../../catalogue/units/attribution.service.js';
import type { CatalogueCounts } from '../../catalogue/units/counts.service.js';
import type { Codebook } from '../../examination/codebook/index.js';
import type { StatisticsReport } from '../../examination/statistics/index.js';

/** The subject a photograph shows (`custody subject show ID --json`), and that subject's security branch. */
export interface SubjectLabel {
  readonly id: string;
  /** The number as read from the card (Arabic-Indic digits, marks), and as normalised; null when none. */
  readonly numberRaw: string | null;
  readonly number: string | null;
  readonly unit: {
    readonly id: string;
    readonly code: number | string | null;
    readonly name_en: string;
    readonly name_ar: string | null;
  } | null;
}

/** One receipt of an object: its item, file name and the subject it is linked to (null: none). */
export interface FileLabel {
  readonly item: string;
  readonly name: string;
  readonly subject: SubjectLabel | null;
}

export interface ReportInput {
  readonly archive: { readonly id: string; readonly origin: string };
  /** The signed checkpoint the report is drawn at (`custody checkpoint --at N --json`). */
  readonly checkpoint: {
    readonly size: number;
    readonly root: string;
    readonly note: string;
    /** The note's signature verifies with the archive key and its root is the ledger's (isSignedCheckpoint). */
    readonly signed: boolean;
    /** Time of the checkpoint's last ledger entry: indicators are judged as of it. */
    readonly lastEntryTime: string;
  };
  /** `custody deliveries --at N --json`, in its order. */
  readonly deliveries: readonly {
    readonly id: string;
    readonly source: string;
    readonly opened_at: string;
    readonly closed: boolean;
    readonly items: number;
  }[];
  /** `custody items --at N --json | /length`. */
  readonly itemCount: number;
  /** Objects received as more than one item (`custody show SHA --at N --json | /items/length`). */
  readonly duplicates: readonly { readonly sha256: string; readonly items: number }[];
  /** `custody authenticity --summary --at N --json`. */
  readonly authenticity: {
    readonly disclaimer: string;
    readonly cameras: readonly CameraSummary[];
    readonly perCameraPerDay: readonly {
      readonly camera: string;
      readonly day: string;
      readonly images: number;
    }[];
    /** The summary's anomalies, in its order, each with `custody authenticity SHA --at N --json`. */
    readonly flagged: readonly {
      readonly sha256: string;
      readonly items: readonly string[];
      /** The same items with their file names and linked subjects (absent: ids only). */
      readonly files?: readonly FileLabel[];
      readonly indicators: readonly { readonly code: string; readonly explanation: string }[];
    }[];
  };
  /** `custody clusters --at N --json`, in its order. */
  readonly clusters: readonly {
    readonly id: string;
    readonly objects: number;
    readonly items: number;
    readonly max_distance: number;
  }[];
  /**
   * Whether the near-duplicate search's grey-descriptor step ran, as `custody similar EXAMPLE --at
   * N --json | /grey_step` gives it for `example`, an object that needed the step (null: none
   * did). When it did not run, the clusters may lack crops cut unevenly and also turned or flipped.
   */
  readonly greyStep: {
    readonly ran: boolean;
    readonly needing: number;
    readonly limit: number;
    readonly example: string | null;
  };
  /** `custody unit counts --at N --json`: subjects by unit, by month, by both. */
  readonly subjects: CatalogueCounts;
  /** `custody verify --json`, run while the report was made (verify always checks everything). */
  readonly verify: {
    readonly ok: boolean;
    readonly ledgerSize: number;
    readonly objectsHashed: number;
    readonly bytesHashed: number;
    readonly checkpointsVerified: number;
    readonly checkpointsStored: number;
    readonly problems: readonly { readonly code: string; readonly message: string }[];
  };
  /** One per sampling plan in the archive (`custody stats`); empty when there is none. */
  readonly statistics: readonly StatisticsReport[];
  /**
   * By plan name: the subjects whose unit changed after the plan's frame was fixed
   * (`custody stats PLAN --at N --json | /unit_attribution/changed_after_frame`).
   */
  readonly unitChanges: Readonly<Record<string, readonly UnitChange[]>>;
  /**
   * By plan name, for stratified plans: how many were drawn from each stratum
   * (`custody log --from M --to M+1 --json | /entry/details/strata/K/n`, M the manifest entry).
   */
  readonly strataDrawn?: Readonly<Record<string, readonly { readonly name: string; readonly n: number }[]>>;
  readonly codebook: Codebook;
  /** Thumbnails of exhibits: none, blurred (--include-images) or unblurred (--unblurred-images too). Absent: none. */
  readonly images?: 'none' | 'blurred' | 'unblurred';
  /** --exhibits, in the order given. */
  readonly exhibits: readonly {
    readonly item: string;
    readonly name: string;
    readonly sha256: string;
    readonly seq: number;
    /** `custody prove inclusion SEQ --size N --json | /proof`. */
    readonly proof: readonly string[];
    /** data: URI of a 256 px thumbnail (blurred unless `images` is 'unblurred'); null unless --include-images. */
    readonly thumbnail: string | null;
    /** --include-images, but the object is withdrawn: why no thumbnail is shown (else absent). */
    readonly thumbnailWithheld?: string;
    /** The subject the exhibit shows, with number and unit; null when it is linked to none. */
    readonly subject?: SubjectLabel | null;
  }[];
}
