#!/usr/bin/env python3
"""Verify a Custody export bag with nothing but Python 3.8+ (standard library) and openssl 3.

  python3 verify_bag.py [BAG_DIR] [--key FILE] [--receipt FILE] [--explain 'PATH#POINTER']

BAG_DIR defaults to the directory this file is in. The checks (VERIFY.md explains each in words):
  1-2  BagIt: every file listed, every SHA-256 right (RFC 8493)
  3    the checkpoint: signed by the archive's key (Ed25519, via openssl), named by bag-info.txt
  4    the inclusion proof of every evidence file's ingestion entry (RFC 9162)
  5    every evidence file is the object its ingestion entry recorded
  6    every line of custody/ledger.jsonl is proven against the signed checkpoint
  7    every table is re-derived from the ledger entries; the sample redrawn; every reveal opened;
       the statistics recomputed
  8    (--receipt) the detached receipt shows the selection is complete
Exit status: 0 verified (warnings allowed), 1 findings, 2 usage. Nothing is written in the bag.

References: BagIt, RFC 8493; Merkle tree and inclusion proofs, RFC 9162 section 2.1;
signed notes, https://c2sp.org/signed-note; checkpoints, https://c2sp.org/tlog-checkpoint.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # custody_verify/ beside this file
sys.dont_write_bytecode = True  # no __pycache__ inside the bag

from custody_verify import bag as bagmod  # noqa: E402
from custody_verify import ledger as ledgermod  # noqa: E402
from custody_verify import process, signature  # noqa: E402

try:
    from custody_verify import receipt
except ImportError:  # pragma: no cover (a bag from before the receipt check)
    receipt = None


def parse_args(argv):
    p = argparse.ArgumentParser(prog="verify_bag.py", description=__doc__.split("\n\n")[0],
                                epilog="See VERIFY.md beside this file for what each check proves and what it does not.")
    p.add_argument("bag", nargs="?", default=os.path.dirname(os.path.abspath(__file__)),
                   help="the bag directory (default: the directory of this script)")
    p.add_argument("--key", metavar="FILE", help="the archive's verifier key obtained independently of this bag "
                   "(a verifier-key line or an Ed25519 PEM public key): pins the key")
    p.add_argument("--receipt", metavar="FILE", help="the detached completeness receipt written beside the bag (check 8)")
    p.add_argument("--explain", metavar="PATH#POINTER", help="one value, e.g. 'data/tables/items.json#/0/size': "
                   "the bag's value, the value derived from the ledger, and the entries it rests on")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object instead of text")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if not os.path.isfile(os.path.join(args.bag, "bagit.txt")):
        print("verify_bag.py: %s is not a bag (no bagit.txt); give the bag directory" % args.bag, file=sys.stderr)
        return 2
    pinned = None
    if args.key is not None:
        try:
            with open(args.key, encoding="utf-8") as f:
                pinned = f.read()
        except OSError as e:
            print("verify_bag.py: cannot read the key file: %s" % e, file=sys.stderr)
            return 2
    report = bagmod.Report(quiet=args.explain is not None or args.json)
    bag = bagmod.Bag(args.bag)
    try:
        bagmod.check_bagit(bag, report)
        cp = bagmod.check_checkpoint_files(bag, report)
        if cp is not None:
            signature.verify_signature(bag, report, cp, pinned)
        proven_items = bagmod.check_item_proofs(bag, report, cp)
        rows = bagmod.check_evidence_files(bag, report, proven_items)
        ledger = ledgermod.check_ledger(bag, report, cp)
        derivation, derived, not_covered = process.check_process(bag, report, ledger)
        if args.receipt is not None:
            report.step(8, "completeness (the detached receipt)")
            if receipt is None:
                report.add("EXPORT_RECEIPT_INVALID", "this verifier has no receipt check (custody_verify/receipt.py is missing)", args.receipt)
            else:
                for f in receipt.check_receipt(bag.root, args.receipt, pinned):
                    if f["code"] != "EXPORT_KEY_NOT_PINNED":  # said once already, under check 3
                        report.add(f["code"], f["message"], f.get("path"), severity=f.get("severity", "error"))
    except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError) as e:
        report.add("EXPORT_LAYOUT_INVALID", "the bag cannot be read as LAYOUT.md describes: %s: %s" % (type(e).__name__, e))
        report.finish()
        return as_json(report, [], None) if args.json else verdict(report, [], [], None)
    report.finish()
    if args.explain is not None:
        from custody_verify.explain import explain
        return explain(bag, args.explain, derivation, derived, ledger)
    if args.json:
        return as_json(report, not_covered, ledger)
    return verdict(report, rows, not_covered, ledger)


def as_json(report, not_covered, ledger):
    """--json: {valid, full_ledger, steps:[{step, ok, detail}], findings:[{code, severity, message, path, details}], notCovered}."""
    import json
    valid = not report.errors()
    out = {"valid": valid, "full_ledger": None if ledger is None else ledger.full,
           "steps": [{"step": s["step"], "ok": s["ok"], "detail": s["detail"]} for s in report.steps],
           "findings": [{k: f[k] for k in ("code", "severity", "message", "path", "details", "step")} for f in report.findings],
           "notCovered": not_covered}
    print(json.dumps(out, ensure_ascii=False, indent=2, default=str))
    return 0 if valid else 1


def verdict(report, rows, not_covered, ledger):
    """One verdict line per claim (evidence files, process), as `custody verify-export` prints them."""
    evidence = failing(report, (1, 2, 3, 4, 5))
    process_errors = failing(report, (6, 7))
    receipt_errors = failing(report, (8,))
    print()
    for s in report.steps:
        print("  step %s %-4s %s" % (s["step"], "ok" if s["ok"] else "FAIL", s["title"]))
    print()
    if not evidence and rows is not None:
        print("Checks 1-5 passed for %d items." % len(rows))
    print("Evidence files: %s" % ("VERIFIED" if not evidence else "NOT VERIFIED (%s)" % ", ".join(sorted({f["code"] for f in evidence}))))
    if ledger is None:
        print("Process: NOT VERIFIED")
    elif process_errors:
        print("Process: NOT VERIFIED (%s)" % ", ".join(sorted({f["code"] for f in process_errors})))
    elif ledger.full:
        print("Process: VERIFIED (full ledger)")
    else:
        print("Process: NOT VERIFIED AS COMPLETE (EXPORT_PROCESS_INCOMPLETE): what is shown is proven authentic, but without "
              "the full ledger a later adjudication, unlink or withdrawal could be missing")
    if any(s["step"] == 8 for s in report.steps):
        print("Completeness: %s" % ("VERIFIED" if not receipt_errors else "NOT VERIFIED (%s)" % ", ".join(sorted({f["code"] for f in receipt_errors}))))
    if any(f["code"] == "EXPORT_KEY_NOT_PINNED" for f in report.findings):
        print("Key: taken from the bag itself, NOT pinned: give --key FILE with the key obtained independently (VERIFY.md).")
    if not_covered:
        print("Not covered by the signature (manifests only): %d file(s) or field(s), listed under check 7." % len(not_covered))
    errors = report.errors()
    if errors:
        print("NOT VERIFIED: %d problem(s)." % len(errors))
        return 1
    return 0


def failing(report, steps):
    """The error findings raised while the given steps ran."""
    return [f for f in report.findings if f["severity"] == "error" and f.get("step") in steps]


if __name__ == "__main__":
    sys.exit(main())
