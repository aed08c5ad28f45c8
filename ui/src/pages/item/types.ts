// The server's item responses the item page reads (src/http/routes/items.routes.ts,
// evidence.routes.ts, ledger.routes.ts; also at /api/openapi.json).

/** `metadata` of GET /api/items/:id (src/archive/item-views.ts, analysisView). */
export interface ItemMetadata {
  make: string | null;
  model: string | null;
  body_serial_number: string | null;
  software: string | null;
  xmp_creator_tool: string | null;
  xmp_history_software: string[];
  date_time_original: string | null;
  create_date: string | null;
  modify_date: string | null;
  offset_time_original: string | null;
  sub_sec_time_original: string | null;
  orientation: number | null;
  width: number | null;
  height: number | null;
  gps_latitude: number | null;
  gps_longitude: number | null;
  jpeg_quality: number | null;
  quant_digest: string | null;
  thumbnail_pdq: string | null;
}

export interface CropBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface NearDuplicate {
  sha256: string;
  items: string[];
  media_type: string | null;
  distance: number;
  kind: 'pdq' | 'pdq-dihedral' | 'crop' | 'overlap';
  /** A verified crop: which object is the larger view, and the box of it the other shows. */
  crop: { original: string; box: CropBox; transform: string } | null;
  /** Two views that overlap, neither containing the other: the shared part's box in each. */
  overlap?: { self: CropBox; other: CropBox; transform: string } | null;
}

export interface TrailEntry {
  seq: number;
  time: string;
  actor: string;
  type: string;
  action: string | null;
}

/** GET /api/items/:id. */
export interface ItemDetail {
  id: string;
  sha256: string;
  size: number;
  media_type: string;
  withdrawn: boolean;
  item: {
    id: string;
    name: string;
    path: string;
    relative_path: string;
    delivery: string;
    source?: string;
    received_at: string;
    media_type: string;
    size: number;
  } | null;
  analysed: boolean;
  metadata: ItemMetadata | null;
  c2pa: { state: string; codes: string[] } | null;
  indicators: { code: string; explanation: string }[] | null;
  indicators_disclaimer: string;
  near_duplicates: NearDuplicate[];
  /** Whether the grey-descriptor step of the near-duplicate search ran (as `custody similar --json`). */
  grey_step: {
    ran: boolean;
    objects_needing_it: number;
    limit: number;
    needed_by_this_object: boolean;
  };
  subject: string | null;
  trail: TrailEntry[];
}

/** GET /api/checkpoints. */
export interface CheckpointsView {
  ledger_size: number;
  verifier_key: string;
  latest: { tree_size: number; root_hex: string; root_base64: string; note: string } | null;
}

/** GET /api/proofs/:seq. */
export interface InclusionProofView {
  type: 'inclusion';
  index: number;
  tree_size: number;
  leaf_hash: string;
  root: string;
  proof: string[];
  /** The entry's canonical bytes, base64. */
  canonical: string;
  checkpoint: string | null;
}
