"""Check 6: every line of custody/ledger.jsonl is proven against the signed checkpoint.

Two ways, as LAYOUT.md describes:
- full ledger (custody/export.json "full_ledger": true): the lines, plus the leaf hashes of the
  withheld entries (custody/withheld-entries.json), are the whole tree 0 ... tree_size-1, and
  together recompute the signed root (RFC 9162 section 2.1.1). One changed byte anywhere and
  the root differs; an entry added or removed and the count or the root differs.
- otherwise each line has an inclusion proof (custody/ledger-proofs.jsonl, same order; or an
  item's proof in custody/proofs/). That shows each line is authentic, but NOT that nothing was
  left out (EXPORT_PROCESS_INCOMPLETE).
"""
import json

from .bag import leaf_hash, node, verify_inclusion

LEDGER = "custody/ledger.jsonl"


def merkle_root(leaves):
    """MTH of RFC 9162 section 2.1.1 over leaf hashes (the leaves are already hashed)."""
    if not leaves:
        return bytes.fromhex("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")  # SHA-256("")
    level = list(leaves)
    # Bottom-up: pairing left to right and carrying an odd last node up gives the same tree as the
    # recursive definition (split at the largest power of two smaller than n).
    while len(level) > 1:
        nxt = [node(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2 == 1:
            nxt.append(level[-1])
        level = nxt
    return level[0]


class ProvenLedger:
    """What check 7 works from: the parsed lines, which seqs are proven, and the withheld entries."""

    def __init__(self):
        self.entries = []  # parsed entries, in file order (seq order)
        self.lines = {}  # seq -> exact line bytes
        self.proven = set()
        self.full = False
        self.withheld = {}  # seq -> {"type", "action"} as stated (not verifiable)

    def by_seq(self, seq):
        for e in self.entries:
            if e.get("seq") == seq:
                return e
        return None


def read_lines(bag, report):
    """The lines of custody/ledger.jsonl, each parsed; malformed lines are EXPORT_LAYOUT_INVALID."""
    out = []
    if not bag.has(LEDGER):
        report.add("EXPORT_LAYOUT_INVALID", "custody/ledger.jsonl is missing", LEDGER)
        return out
    raw = bag.read(LEDGER)
    lines = raw.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    else:
        report.add("EXPORT_LAYOUT_INVALID", "custody/ledger.jsonl does not end with a newline", LEDGER, line=len(lines))
    last = -1
    for number, line in enumerate(lines, 1):
        try:
            entry = json.loads(line.decode("utf-8"))
            seq = entry["seq"]
            if not isinstance(entry, dict) or type(seq) is not int or seq <= last:
                raise ValueError("no seq, or not in seq order")
        except (ValueError, KeyError, TypeError) as e:
            report.add("EXPORT_LAYOUT_INVALID", "custody/ledger.jsonl line %d is not a ledger entry: %s" % (number, e), LEDGER, line=number)
            continue
        last = seq
        out.append((seq, line, entry))
    return out


def check_ledger(bag, report, cp):
    """Check 6. Returns a ProvenLedger."""
    report.step(6, "every ledger line is proven")
    ledger = ProvenLedger()
    lines = read_lines(bag, report)
    for seq, line, entry in lines:
        ledger.entries.append(entry)
        ledger.lines[seq] = line
    withheld = bag.json("custody/withheld-entries.json", [])
    for w in withheld:
        action = w.get("action")
        ledger.withheld[w.get("seq")] = {"type": w.get("type"), "action": action if isinstance(action, str) else None}
    if cp is None:
        return ledger
    export = bag.json("custody/export.json", {})

    # Lines whose bytes a proof in the bag vouches for (or refutes), whatever the mode.
    item_entries = {}
    for path in bag.files:
        if path.startswith("custody/proofs/") and path.endswith(".json"):
            try:
                p = bag.json(path)
                item_entries[p["seq"]] = (p, bag.read("custody/entries/%d.json" % p["seq"]))
            except (OSError, ValueError, KeyError, TypeError):
                continue  # check 4 reported it
    by_line = {}
    if bag.has("custody/ledger-proofs.jsonl"):
        for number, text in enumerate(bag.text("custody/ledger-proofs.jsonl").splitlines(), 1):
            try:
                p = json.loads(text)
                by_line[p["seq"]] = p
            except (ValueError, KeyError, TypeError):
                report.add("EXPORT_LAYOUT_INVALID", "custody/ledger-proofs.jsonl line %d is not a proof" % number, "custody/ledger-proofs.jsonl", line=number)

    def line_proof(seq, line):
        """True: a shipped proof proves the line; False: a shipped proof refutes it; None: no proof."""
        leaf = leaf_hash(line)
        if seq in item_entries:
            p, entry_bytes = item_entries[seq]
            if entry_bytes != line:
                return False
            if verify_inclusion(seq, cp.size, leaf, [bytes.fromhex(h) for h in p.get("proof", [])], cp.root):
                return True
        if seq in by_line:
            p = by_line[seq]
            try:
                hashes = [bytes.fromhex(h) for h in p["proof"]]
            except (KeyError, TypeError, ValueError):
                return False
            return p.get("leaf_hash") == leaf.hex() and verify_inclusion(seq, cp.size, leaf, hashes, cp.root)
        return None

    leaves = {seq: leaf_hash(line) for seq, line, _e in lines}
    for w in withheld:
        try:
            leaves.setdefault(w["seq"], bytes.fromhex(w["leaf_hash"]))
        except (KeyError, TypeError, ValueError):
            pass  # an older bag without leaf hashes: the root cannot be recomputed
    complete = sorted(leaves) == list(range(cp.size))
    # A full ledger as export.json says; a bag from before that field counts as full when its
    # lines cover the whole tree (the root decides either way).
    full = export.get("full_ledger") is True or ("full_ledger" not in export and complete)
    ledger.full = full
    if full:
        if complete and merkle_root([leaves[i] for i in range(cp.size)]) == cp.root:
            ledger.proven = set(ledger.lines)
            report.detail("the %d lines and %d withheld leaf hashes recompute the signed root: the ledger is complete up to "
                          "tree size %d" % (len(lines), len(withheld), cp.size))
        else:
            why = "they do not cover entries 0 to %d exactly" % (cp.size - 1) if not complete else "the root differs"
            report.add("EXPORT_ENTRY_UNPROVEN", "the set of lines of custody/ledger.jsonl (with the withheld entries) does not "
                       "recompute the signed root (%s): an entry was changed, added or removed" % why, LEDGER)
            for seq, line, _e in lines:
                verdict = line_proof(seq, line)
                if verdict is True:
                    ledger.proven.add(seq)
                elif verdict is False:
                    report.add("EXPORT_ENTRY_UNPROVEN", "ledger line seq %d is not the entry its proof shows" % seq, LEDGER, seq=seq)
        return ledger

    for seq, line, _e in lines:
        if line_proof(seq, line) is True:
            ledger.proven.add(seq)
        else:
            report.add("EXPORT_ENTRY_UNPROVEN", "ledger line seq %d has no inclusion proof that leads to the signed root" % seq, LEDGER, seq=seq)
    report.add("EXPORT_PROCESS_INCOMPLETE", "the bag does not carry the full ledger: each line shown is proven authentic, but not "
               "that nothing was left out (a later adjudication, unlink or withdrawal could be missing)", LEDGER, severity="warning")
    return ledger
