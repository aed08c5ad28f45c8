"""The bag on disk, the list of findings, and checks 1-5 (LAYOUT.md, "Checks, in order").

Every finding has the stable code that `custody verify-export` uses for the same problem, so the
two verifiers can be compared line by line.
"""
import base64
import hashlib
import json
import os
import re

SAFE_PATH = re.compile(r"^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$")  # LAYOUT.md: names need no escaping
PEM_PREFIX = bytes.fromhex("302a300506032b6570032100")  # SPKI header of an Ed25519 public key


def jcs(value):
    """RFC 8785 canonical JSON as the ledger writes it (integers only, keys sorted, no spaces)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")


class Report:
    """Findings and steps, printed as they come."""

    def __init__(self, quiet=False):
        self.findings = []  # dicts: code, severity, message, path, details
        self.steps = []  # dicts: step, title, ok, detail
        self.quiet = quiet
        self._open = None

    def step(self, number, title):
        self._close()
        self._open = {"step": number, "title": title, "ok": True, "detail": "", "start": len(self.findings)}
        self.say("Check %s: %s" % (number, title))

    def _close(self):
        if self._open is not None:
            errors = [f for f in self.findings[self._open.pop("start"):] if f["severity"] == "error"]
            self._open["ok"] = self._open["ok"] and not errors
            self.steps.append(self._open)
            self._open = None

    def finish(self):
        self._close()

    def detail(self, text):
        if self._open is not None:
            self._open["detail"] = (self._open["detail"] + " " + text).strip()
        self.say("  " + text)

    def add(self, code, message, path=None, severity="error", **details):
        step = self._open["step"] if self._open is not None else None
        self.findings.append({"code": code, "severity": severity, "message": message, "path": path, "details": details, "step": step})
        self.say("  %s %s: %s" % ("FAIL" if severity == "error" else "WARN", code, message))

    def errors(self):
        return [f for f in self.findings if f["severity"] == "error"]

    def say(self, text):
        if not self.quiet:
            print(text)


class Bag:
    """Read-only access to the bag directory. Nothing is ever written inside it."""

    def __init__(self, root):
        self.root = os.path.abspath(root)
        self.files = self._all_files()
        self._json = {}
        self._sha256 = {}

    def _all_files(self):
        out = []
        for top, _dirs, names in os.walk(self.root):
            for name in names:
                out.append(os.path.relpath(os.path.join(top, name), self.root).replace(os.sep, "/"))
        return sorted(out)

    def has(self, path):
        return os.path.isfile(os.path.join(self.root, path))

    def read(self, path):
        with open(os.path.join(self.root, path), "rb") as f:
            return f.read()

    def text(self, path):
        return self.read(path).decode("utf-8")

    def json(self, path, default=None):
        """The parsed JSON file, or `default` when it is absent (None: absence is an error for the caller)."""
        if path not in self._json:
            if not self.has(path):
                return default
            self._json[path] = json.loads(self.read(path))
        return self._json[path]

    def sha256(self, path):
        """The file's SHA-256, read once (checks 2 and 5 both need it)."""
        if path not in self._sha256:
            h = hashlib.sha256()
            with open(os.path.join(self.root, path), "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    h.update(block)
            self._sha256[path] = h.hexdigest()
        return self._sha256[path]

    def bag_info(self):
        info = {}
        for line in self.text("bag-info.txt").splitlines():
            if line[:1] in (" ", "\t"):
                continue  # a continuation line; the values we check are one line each
            label, _, value = line.partition(":")
            info.setdefault(label.strip(), value.strip())
        return info


def read_manifest(bag, report, name):
    """'<64 hex>  <path>' per line (RFC 8493 section 2.1.3)."""
    entries = {}
    if not bag.has(name):
        report.add("BAGIT_MANIFEST_MISSING", "%s is missing" % name, name)
        return entries
    for number, line in enumerate(bag.text(name).splitlines(), 1):
        m = re.match(r"^([0-9a-f]{64})[ \t]+(.+)$", line)
        if not m or not SAFE_PATH.match(m.group(2)) or ".." in m.group(2).split("/"):
            report.add("BAGIT_MANIFEST_INVALID", "%s line %d is not '<sha256>  <safe path>'" % (name, number), name, line=number)
        elif m.group(2) in entries:
            report.add("BAGIT_MANIFEST_DUPLICATE", "%s lists %s twice" % (name, m.group(2)), name)
        else:
            entries[m.group(2)] = m.group(1)
    return entries


def check_bagit(bag, report):
    """Checks 1 and 2: BagIt completeness, then the SHA-256 of every payload and tag file."""
    report.step(1, "BagIt completeness (RFC 8493 section 3)")
    if not bag.has("bagit.txt") or bag.read("bagit.txt") != b"BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n":
        report.add("BAGIT_DECLARATION_INVALID", "bagit.txt is not the BagIt 1.0 declaration", "bagit.txt")
    payload = read_manifest(bag, report, "manifest-sha256.txt")
    tags = read_manifest(bag, report, "tagmanifest-sha256.txt")
    on_disk_payload = [p for p in bag.files if p.startswith("data/")]
    on_disk_tags = [p for p in bag.files if not p.startswith("data/") and p != "tagmanifest-sha256.txt"]
    for path in sorted(set(on_disk_payload) - set(payload)):
        report.add("BAGIT_FILE_UNLISTED", "%s is in data/ but not in manifest-sha256.txt" % path, path)
    for path in sorted(set(on_disk_tags) - set(tags)):
        report.add("BAGIT_FILE_UNLISTED", "%s is not in tagmanifest-sha256.txt" % path, path)
    for path in sorted((set(payload) | set(tags)) - set(bag.files)):
        report.add("BAGIT_FILE_MISSING", "%s is listed in a manifest but missing" % path, path)
    octets = sum(os.path.getsize(os.path.join(bag.root, p)) for p in on_disk_payload)
    if bag.bag_info().get("Payload-Oxum") != "%d.%d" % (octets, len(on_disk_payload)):
        report.add("BAGIT_OXUM_MISMATCH", "Payload-Oxum is not %d.%d" % (octets, len(on_disk_payload)), "bag-info.txt")

    report.step(2, "SHA-256 of every payload and tag file")
    for manifest in (payload, tags):
        for path, digest in sorted(manifest.items()):
            if path in bag.files and bag.sha256(path) != digest:
                report.add("BAGIT_DIGEST_MISMATCH", "%s does not match its manifest digest" % path, path)


class Checkpoint:
    """The signed checkpoint of custody/checkpoint.txt and the key of custody/verifier-key.txt."""

    def __init__(self, bag):
        note = bag.text("custody/checkpoint.txt")
        body, _, self.signatures = note.rpartition("\n\n")
        self.body = body + "\n"  # the signed text keeps its final newline (signed-note format)
        self.origin, size, root_b64 = self.body.split("\n")[:3]
        self.size = int(size)
        self.root = base64.b64decode(root_b64, validate=True)
        self.key_line = bag.text("custody/verifier-key.txt").strip()
        self.name, self.key_id, key_b64 = self.key_line.split("+", 2)
        self.key = base64.b64decode(key_b64, validate=True)  # 0x01 || 32 bytes of Ed25519 key


def check_checkpoint_files(bag, report):
    """Check 3, first half: the .body, .sig and .pem files are those inside checkpoint.txt and
    verifier-key.txt, and bag-info.txt names the signed checkpoint. Returns the Checkpoint."""
    report.step(3, "the signed checkpoint")
    try:
        cp = Checkpoint(bag)
    except (OSError, ValueError) as e:
        report.add("EXPORT_CHECKPOINT_MISMATCH", "custody/checkpoint.txt or custody/verifier-key.txt cannot be read: %s" % e, "custody/checkpoint.txt")
        return None
    if len(cp.key) != 33 or cp.key[0] != 1:
        report.add("EXPORT_KEY_INVALID", "custody/verifier-key.txt is not an Ed25519 verifier key", "custody/verifier-key.txt")
    if hashlib.sha256(cp.name.encode() + b"\n" + cp.key).hexdigest()[:8] != cp.key_id:
        report.add("EXPORT_KEY_INVALID", "custody/verifier-key.txt: the key ID does not match the key", "custody/verifier-key.txt")
    pem = "".join(l for l in bag.text("custody/verifier-key.pem").splitlines() if "-----" not in l)
    if base64.b64decode(pem) != PEM_PREFIX + cp.key[1:]:
        report.add("EXPORT_KEY_MISMATCH", "custody/verifier-key.pem is not the key in custody/verifier-key.txt", "custody/verifier-key.pem")
    signature = None
    for line in cp.signatures.splitlines():
        parts = line.split(" ")
        if len(parts) == 3 and parts[0] == "\u2014" and parts[1] == cp.name:
            raw = base64.b64decode(parts[2], validate=True)
            if raw[:4].hex() == cp.key_id:
                signature = raw[4:]
    if bag.read("custody/checkpoint.body") != cp.body.encode("utf-8"):
        report.add("EXPORT_CHECKPOINT_MISMATCH", "custody/checkpoint.body is not the text of custody/checkpoint.txt", "custody/checkpoint.body")
    if signature is None or bag.read("custody/checkpoint.sig") != signature:
        report.add("EXPORT_CHECKPOINT_MISMATCH", "custody/checkpoint.sig is not the signature by %s in custody/checkpoint.txt" % cp.name, "custody/checkpoint.sig")
    info = bag.bag_info()
    expected = {"Custody-Origin": cp.origin, "Custody-Tree-Size": str(cp.size), "Custody-Root": cp.root.hex()}
    for label, value in expected.items():
        if info.get(label) != value:
            report.add("EXPORT_CHECKPOINT_MISMATCH", "bag-info.txt %s is not %s (the checkpoint's)" % (label, value), "bag-info.txt")
    report.detail("checkpoint: origin %s, tree size %d, root %s" % (cp.origin, cp.size, cp.root.hex()))
    return cp


def leaf_hash(entry_bytes):
    return hashlib.sha256(b"\x00" + entry_bytes).digest()


def node(left, right):
    return hashlib.sha256(b"\x01" + left + right).digest()


def verify_inclusion(index, tree_size, leaf, proof, expected_root):
    """RFC 9162 section 2.1.3.2, step by step."""
    if index >= tree_size:
        return False
    fn, sn, r = index, tree_size - 1, leaf
    for p in proof:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            r = node(p, r)
            while fn % 2 == 0 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r == expected_root


def check_item_proofs(bag, report, cp):
    """Check 4: every custody/proofs/<item>.json leads from its entry to the signed root.
    Returns {item_id: (seq, entry bytes)} for the proofs that hold."""
    report.step(4, "inclusion proofs (RFC 9162 section 2.1.3.2)")
    proven = {}
    for path in [p for p in bag.files if re.match(r"^custody/proofs/[^/]+\.json$", p)]:
        try:
            proof = bag.json(path)
            item_id, seq = proof["item_id"], proof["seq"]
            entry_bytes = bag.read("custody/entries/%d.json" % seq)
            hashes = [bytes.fromhex(h) for h in proof["proof"]]
        except (OSError, ValueError, KeyError, TypeError) as e:
            report.add("EXPORT_PROOF_INVALID", "%s cannot be read: %s" % (path, e), path)
            continue
        leaf = leaf_hash(entry_bytes)
        if path != "custody/proofs/%s.json" % item_id or proof.get("entry") != "entries/%d.json" % seq:
            report.add("EXPORT_PROOF_INVALID", "%s names another item or entry" % path, path)
        elif leaf.hex() != proof.get("leaf_hash") or cp is None or proof.get("tree_size") != cp.size:
            report.add("EXPORT_PROOF_INVALID", "%s: leaf hash or tree size does not match" % path, path)
        elif not verify_inclusion(seq, cp.size, leaf, hashes, cp.root):
            report.add("EXPORT_PROOF_INVALID", "%s: the proof does not lead to the checkpoint root" % path, path)
        else:
            proven[item_id] = (seq, entry_bytes)
    return proven


def check_evidence_files(bag, report, proven):
    """Check 5: each evidence file is the object its (proven) ingestion entry recorded."""
    report.step(5, "every evidence file is the object its ingestion entry recorded")
    rows = bag.json("data/tables/items.json", [])
    withheld = {w["item_id"]: w for w in bag.json("custody/withheld.json", [])}
    claimed = set()
    for row in rows:
        item_id = row["item_id"]
        claimed.add(row["bag_path"])
        path = "data/tables/items.json"
        if item_id not in proven:
            report.add("EXPORT_PROOF_MISSING", "item %s has no valid proof" % item_id, path)
            continue
        seq, entry_bytes = proven[item_id]
        entry = json.loads(entry_bytes)
        if entry.get("type") != "ingestion" or entry.get("items") != [item_id] or seq != row["ingestion_seq"]:
            report.add("EXPORT_ENTRY_MISMATCH", "item %s: its entry is not the ingestion of this item" % item_id, path)
        elif entry.get("objects") != [row["sha256"]]:
            report.add("EXPORT_ENTRY_MISMATCH", "item %s: the table's sha256 is not the entry's object" % item_id, path)
        elif row["withheld"] is not None:
            if withheld.get(item_id, {}).get("substitute", 0) != row["bag_path"]:
                report.add("EXPORT_ENTRY_MISMATCH", "item %s is withheld but custody/withheld.json does not say so" % item_id, path)
        elif not row["bag_path"].startswith("data/items/%s-" % item_id) or row["bag_path"] not in bag.files:
            report.add("EXPORT_ENTRY_MISMATCH", "item %s: %s is not its file" % (item_id, row["bag_path"]), path)
        elif bag.sha256(row["bag_path"]) != row["sha256"]:
            report.add("EXPORT_ENTRY_MISMATCH", "item %s: %s is not the ingested object" % (item_id, row["bag_path"]), row["bag_path"])
    for path in bag.files:
        if path.startswith(("data/items/", "data/previews/")) and path not in claimed:
            report.add("EXPORT_ENTRY_MISMATCH", "%s is not the file of any exported item" % path, path)
    if len(rows) != bag.json("custody/export.json", {}).get("items"):
        report.add("EXPORT_LAYOUT_INVALID", "data/tables/items.json and custody/export.json disagree on the number of items", "custody/export.json")
    return rows
