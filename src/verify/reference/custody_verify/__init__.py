"""custody_verify: the checks of verify_bag.py, one module per part. Python 3.8+ standard library only.

  bag.py        the bag on disk, findings, checks 1-5 (BagIt, manifests, checkpoint, proofs, files)
  signature.py  the Ed25519 checkpoint signature, checked by openssl (3.0 or later)
  ledger.py     check 6: every line of custody/ledger.jsonl is proven (Merkle tree, RFC 9162)
  sampling.py   the sample redrawn from frame and seed (src/examination/sampling/PROCEDURE.md)
  tables.py     check 7: every table re-derived from the ledger entries and compared cell by cell
  stats.py      the statistics recomputed from the final answers
  explain.py    --explain: one cell of a table, in the bag and as derived
  receipt.py    --receipt: the detached completeness receipt (check 8)
"""
