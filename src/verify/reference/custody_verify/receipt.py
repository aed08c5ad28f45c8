"""Check 8, completeness: the detached receipt that `custody export` writes beside a bag.

The export's own 'dissemination' entry names every exported item and the digest of the bag's
tag manifest, so it cannot travel inside the bag. The receipt carries it, with:
  - an inclusion proof (RFC 9162 section 2.1.3.2) of the entry at a signed checkpoint, and
  - a consistency proof (RFC 9162 section 2.1.4.2) from the bag's own checkpoint to that one,
so that the entry is shown to be in the same log the bag comes from. Then the entry's item list
must equal the bag's items.json (and withheld.json), and, for a selection of deliveries, the
number of items their 'ingestion end' entries record.

Signatures are checked by openssl (`openssl pkeyutl -verify -pubin -rawin`), one call per
signature line of the key: the Python standard library has no Ed25519.

    findings = check_receipt("bag", "bag.receipt.json", open("key.txt").read())
    # [] when the receipt holds; else dicts {"code", "severity", "message", "path"}
"""

import base64
import hashlib
import json
import os
import subprocess
import tempfile

from .bag import leaf_hash, node, verify_inclusion  # RFC 9162, shared with checks 4 and 6

INVALID = "EXPORT_RECEIPT_INVALID"
INCOMPLETE = "EXPORT_SELECTION_INCOMPLETE"
NOT_PINNED = "EXPORT_KEY_NOT_PINNED"
SPKI_ED25519 = bytes.fromhex("302a300506032b6570032100")  # DER prefix of an Ed25519 public key


class Invalid(Exception):
    """The receipt cannot be trusted; the message says why."""


def finding(code, message, path=None, severity="error"):
    return {"code": code, "severity": severity, "message": message, "path": path}


def check_receipt(bag_dir, receipt_path, key=None):
    """Checks the receipt at receipt_path against the bag directory bag_dir.

    key: the pinned key (a verifier key line or an Ed25519 PEM public key; its text, or the path
    of a file holding it), or None to use the bag's custody/verifier-key.txt (a warning then).
    Returns a list of findings; no error finding means the bag holds all that the export recorded.
    """
    return describe(bag_dir, receipt_path, key)[0]


def describe(bag_dir, receipt_path, key=None):
    """(findings, detail): detail is one line for a person, or None when the receipt is invalid."""
    findings = []
    try:
        return findings, _check(bag_dir, receipt_path, key, findings)
    except Invalid as e:
        findings.append(finding(INVALID, str(e)))
        return findings, None


def _read(bag_dir, path):
    try:
        with open(os.path.join(bag_dir, path), "rb") as f:
            return f.read()
    except OSError:
        return None


def _check(bag_dir, receipt_path, key, findings):
    try:
        with open(receipt_path, "rb") as f:
            receipt = json.loads(f.read().decode("utf-8"))
    except (OSError, ValueError) as e:
        raise Invalid("the receipt cannot be read as UTF-8 JSON: %s" % e)
    _shape(receipt)
    bag = _bag_checkpoint(bag_dir)
    name_key = _key(bag_dir, key, findings)

    entry_bytes = receipt["entry"].encode("utf-8")
    try:
        entry = json.loads(entry_bytes)
    except ValueError:
        raise Invalid("the receipt's entry is not JSON")
    if not isinstance(entry, dict) or entry.get("type") != "dissemination" or entry.get("seq") != receipt["seq"]:
        raise Invalid("the receipt's entry is not the dissemination entry %s" % receipt["seq"])
    if not _is_canonical(entry, entry_bytes):
        raise Invalid("the receipt's entry is not canonical JSON (RFC 8785)")
    if not (_strings(entry.get("items")) and _strings(entry.get("objects")) and isinstance(entry.get("details"), dict)):
        raise Invalid("the receipt's entry lacks items, objects or details")
    leaf = leaf_hash(entry_bytes)
    if leaf.hex() != receipt["leaf_hash"]:
        raise Invalid("the receipt's leaf_hash is not SHA-256(0x00 || entry): the entry was changed")

    signed = open_note(receipt["checkpoint"], name_key)
    if signed["origin"] != bag["origin"]:
        raise Invalid("the receipt's checkpoint is of %s, the bag's of %s" % (signed["origin"], bag["origin"]))
    seq = receipt["seq"]
    if seq < bag["size"] or seq >= signed["size"]:
        raise Invalid("the receipt's entry %d is not after the bag's checkpoint (%d) and within its own (%d)"
                      % (seq, bag["size"], signed["size"]))
    inclusion = [bytes.fromhex(h) for h in receipt["inclusion_proof"]]
    if not verify_inclusion(seq, signed["size"], leaf, inclusion, signed["root"]):
        raise Invalid("the receipt's inclusion proof does not recompute its checkpoint's root "
                      "(RFC 9162 section 2.1.3.2): the entry or the proof was changed")
    consistency = [bytes.fromhex(h) for h in receipt["consistency_proof"]]
    if not verify_consistency(bag["size"], signed["size"], bag["root"], signed["root"], consistency):
        raise Invalid("the receipt's consistency proof does not show the bag's checkpoint %d is a prefix "
                      "of the log at %d (RFC 9162 section 2.1.4.2)" % (bag["size"], signed["size"]))

    _same_export(bag_dir, bag, receipt, entry)
    # The same export (checkpoint and selection): a changed bag is a finding, and its items are still
    # compared, so that the finding says what is missing.
    tag = _read(bag_dir, "tagmanifest-sha256.txt")
    digest = None if tag is None else hashlib.sha256(tag).hexdigest()
    if digest is None or entry["details"].get("tagmanifest_sha256") != digest or receipt["bag"]["tagmanifest_sha256"] != digest:
        findings.append(finding(INVALID, "the export recorded the tag-manifest digest %s, this bag's is %s: the bag was"
                                " changed after the export" % (entry["details"].get("tagmanifest_sha256"), digest),
                                "tagmanifest-sha256.txt"))
    rows, withdrawn = _compare_selection(bag_dir, entry, findings)
    delivery = _check_deliveries(bag_dir, entry["details"].get("selection"), rows + withdrawn, findings)
    return ("entry %d (dissemination) is in the log at signed size %d, which extends the bag's checkpoint %d;"
            " it names the %d items of items.json and %d withdrawn%s"
            % (seq, signed["size"], bag["size"], rows, withdrawn, delivery))


def _strings(v):
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _hex64(v):
    return isinstance(v, str) and len(v) == 64 and all(c in "0123456789abcdef" for c in v)


def _count(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _shape(r):
    if not isinstance(r, dict) or r.get("format") != "custody-export-receipt" or r.get("version") != 1:
        raise Invalid('the receipt is not {"format":"custody-export-receipt","version":1}')
    b = r.get("bag")
    if not isinstance(b, dict) or not _count(b.get("tree_size")) or not all(
            isinstance(b.get(k), str) for k in ("root", "tagmanifest_sha256", "selection")):
        raise Invalid('the receipt\'s "bag" lacks tree_size, root, tagmanifest_sha256 or selection')
    if not (isinstance(r.get("entry"), str) and _count(r.get("seq")) and _hex64(r.get("leaf_hash"))
            and isinstance(r.get("checkpoint"), str)):
        raise Invalid("the receipt lacks entry, seq, leaf_hash (lowercase hex) or checkpoint")
    for k in ("inclusion_proof", "consistency_proof"):
        if not isinstance(r.get(k), list) or not all(_hex64(h) for h in r[k]):
            raise Invalid("the receipt's proofs must be lists of lowercase 64-digit hex")


def _is_canonical(value, raw):
    """RFC 8785 for the ledger's subset (integers, strings, ASCII keys): sorted keys, no spaces.
    A string holding a lone surrogate (escaped in the ledger) cannot be re-encoded here; the leaf hash
    over the exact bytes, which the inclusion proof authenticates, is what counts then."""
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8") == raw
    except UnicodeEncodeError:
        return True


# --- checkpoints (C2SP tlog-checkpoint inside a C2SP signed note) -------------------------------

def parse_checkpoint(text):
    lines = text.split("\n")
    if len(lines) < 4 or lines[-1] != "" or not lines[1].isdigit():
        raise Invalid("a checkpoint body is origin, size and root, one per line")
    root = base64.b64decode(lines[2], validate=True)
    if len(root) != 32:
        raise Invalid("a checkpoint root is 32 bytes")
    return {"origin": lines[0], "size": int(lines[1]), "root": root}


def _bag_checkpoint(bag_dir):
    note = _read(bag_dir, "custody/checkpoint.txt")
    if note is None:
        raise Invalid("the bag has no custody/checkpoint.txt to tie the receipt to")
    text = note.decode("utf-8")
    return parse_checkpoint(text[:text.rfind("\n\n") + 1])


def _key(bag_dir, key, findings):
    """(name or None, 32-byte Ed25519 public key)."""
    if key is None:
        raw = _read(bag_dir, "custody/verifier-key.txt")
        if raw is None:
            raise Invalid("no key given and the bag has no custody/verifier-key.txt")
        key = raw.decode("utf-8")
        findings.append(finding(NOT_PINNED, "the receipt's checkpoint was checked with the key in the bag itself;"
                                " pin it (--key) to know the archive signed it", severity="warning"))
    elif os.path.isfile(key):
        with open(key, "r", encoding="utf-8") as f:
            key = f.read()
    key = key.strip()
    if key.startswith("-----BEGIN"):
        der = base64.b64decode("".join(l for l in key.splitlines() if not l.startswith("-----")))
        if len(der) != 44 or not der.startswith(SPKI_ED25519):
            raise Invalid("the key is not an Ed25519 PEM public key")
        return None, der[12:]
    parts = key.split("+", 2)  # the base64 key may itself hold "+"
    if len(parts) != 3:
        raise Invalid("the key is not a verifier key line (name+keyid+key)")
    raw = base64.b64decode(parts[2])
    if len(raw) != 33 or raw[0] != 1:
        raise Invalid("the verifier key is not an Ed25519 key")
    return parts[0], raw[1:]


def open_note(note, name_key):
    """Verifies a signed note: every signature line of the key must verify, and at least one."""
    name, public = name_key
    split = note.rfind("\n\n")
    if split < 0 or not note.endswith("\n"):
        raise Invalid("the receipt's checkpoint is not a signed note")
    text = note[:split + 1]
    verified = 0
    for line in note[split + 2:-1].split("\n"):
        if not line.startswith("\u2014 ") or line.count(" ") != 2:
            raise Invalid("the receipt's checkpoint has a malformed signature line")
        _, signer, b64 = line.split(" ")
        blob = base64.b64decode(b64)
        if name is not None and signer != name:
            continue
        key_id = hashlib.sha256(signer.encode("utf-8") + b"\n\x01" + public).digest()[:4]
        if len(blob) != 68 or blob[:4] != key_id:
            continue
        if not openssl_verify(public, text.encode("utf-8"), blob[4:]):
            raise Invalid("the receipt's checkpoint carries a signature by the key that does not verify")
        verified += 1
    if verified == 0:
        raise Invalid("the receipt's checkpoint is not signed by the key")
    return parse_checkpoint(text)


def openssl_verify(public, message, signature):
    """Ed25519 (RFC 8032) via `openssl pkeyutl -verify -pubin -rawin`."""
    pem = "-----BEGIN PUBLIC KEY-----\n%s\n-----END PUBLIC KEY-----\n" % base64.b64encode(SPKI_ED25519 + public).decode()
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for name, data in (("key.pem", pem.encode()), ("body", message), ("sig", signature)):
            paths[name] = os.path.join(tmp, name)
            with open(paths[name], "wb") as f:
                f.write(data)
        r = subprocess.run(["openssl", "pkeyutl", "-verify", "-pubin", "-inkey", paths["key.pem"], "-rawin",
                            "-in", paths["body"], "-sigfile", paths["sig"]], capture_output=True)
        return r.returncode == 0


# --- Merkle proofs (RFC 9162) ---------------------------------------------------------------------

def verify_consistency(old_size, new_size, old_root, new_root, proof):
    """RFC 9162 section 2.1.4.2, step by step."""
    if old_size == 0 or old_size > new_size:
        return False
    if old_size == new_size:
        return proof == [] and old_root == new_root
    if not proof:
        return False
    if old_size & (old_size - 1) == 0:  # a power of two: the old root is the first node
        proof = [old_root] + proof
    fn, sn = old_size - 1, new_size - 1
    while fn % 2 == 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = proof[0]
    for c in proof[1:]:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            fr, sr = node(c, fr), node(c, sr)
            while fn % 2 == 0 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and fr == old_root and sr == new_root


# --- the entry against the bag ------------------------------------------------------------------

def _same_export(bag_dir, bag, receipt, entry):
    try:
        selection = json.loads(_read(bag_dir, "custody/export.json") or b"{}").get("selection")
    except (ValueError, AttributeError):
        selection = None
    d = entry["details"]
    mine = [("tree size", bag["size"], receipt["bag"]["tree_size"], d.get("tree_size")),
            ("root", bag["root"].hex(), receipt["bag"]["root"], d.get("root")),
            ("selection", selection if isinstance(selection, str) else None, receipt["bag"]["selection"],
             d.get("selection"))]
    for what, value, stated, recorded in mine:
        if value is None:
            raise Invalid("the bag's %s cannot be read, so the receipt cannot be tied to it" % what)
        if recorded != value:
            raise Invalid("the receipt's entry records the %s %s, this bag's is %s: it is the receipt of another"
                          " export" % (what, json.dumps(recorded), json.dumps(value)))
        if stated != value:
            raise Invalid("the receipt states the %s %s, this bag's is %s" % (what, json.dumps(stated), json.dumps(value)))


def _objects(bag_dir, path, findings):
    try:
        v = json.loads((_read(bag_dir, path) or b"").decode("utf-8"))
        if isinstance(v, list) and all(isinstance(x, dict) for x in v):
            return v
    except ValueError:
        pass
    findings.append(finding(INCOMPLETE, "%s is missing or not a JSON array of objects: the selection cannot be"
                            " compared with the receipt" % path, path))
    return []


def _few(ids):
    ids = list(ids)
    return ", ".join(ids) if len(ids) <= 5 else "%s and %d more" % (", ".join(ids[:5]), len(ids) - 5)


def _compare_selection(bag_dir, entry, findings):
    """The entry's items equal items.json's (as a set: rows may come in any order); the withdrawn, withheld and substituted items it
    lists equal custody/withheld.json's (export.service.ts writes both from the same lists)."""
    rows = _objects(bag_dir, "data/tables/items.json", findings)
    withheld = _objects(bag_dir, "custody/withheld.json", findings)
    ids = [str(r.get("item_id")) for r in rows]
    in_bag, listed = set(ids), set(entry["items"])
    items_path = "data/tables/items.json"
    missing = [i for i in entry["items"] if i not in in_bag]
    extra = [i for i in ids if i not in listed]
    if missing:
        findings.append(finding(INCOMPLETE, "the export recorded %d item(s) that %s lacks: %s"
                                % (len(missing), items_path, _few(missing)), items_path))
    if extra:
        findings.append(finding(INCOMPLETE, "%s has %d item(s) the export did not record: %s"
                                % (items_path, len(extra), _few(extra)), items_path))
    if not missing and not extra and len(ids) != len(entry["items"]):
        findings.append(finding(INCOMPLETE, "%s has %d rows for the %d items the export recorded"
                                % (items_path, len(ids), len(entry["items"])), items_path))
    d = entry["details"]
    if d.get("items") != len(entry["items"]):
        findings.append(finding(INCOMPLETE, "the entry counts %s items but lists %d" % (d.get("items"), len(entry["items"])), items_path))
    if sorted(set(str(r.get("sha256")) for r in rows)) != entry["objects"]:
        findings.append(finding(INCOMPLETE, "the digests in %s are not the objects the export recorded" % items_path, items_path))

    def kind_of(w):
        if isinstance(w.get("kind"), str):
            return w["kind"]
        if w.get("substitute") is not None:
            return "substituted"
        return "withheld" if str(w.get("item_id")) in in_bag else "withdrawn"

    recorded = [w for w in d.get("withheld") or [] if isinstance(w, dict)]
    for kind in ("withdrawn", "withheld", "substituted"):
        if kind == "substituted":
            from_entry = [str(s.get("item")) for s in d.get("substituted") or [] if isinstance(s, dict)]
        else:
            from_entry = [str(w.get("item_id")) for w in recorded if w.get("kind") == kind]
        from_bag = [str(w.get("item_id")) for w in withheld if kind_of(w) == kind]
        if sorted(from_entry) != sorted(from_bag):
            diff = [x for x in from_entry if x not in from_bag] + [x for x in from_bag if x not in from_entry]
            findings.append(finding(INCOMPLETE, "custody/withheld.json lists %d %s item(s), the export recorded %d: %s"
                                    % (len(from_bag), kind, len(from_entry), _few(diff)), "custody/withheld.json"))
    return len(rows), len([w for w in withheld if kind_of(w) == "withdrawn"])


def _check_deliveries(bag_dir, selection, held, findings):
    """A selection of deliveries only: the bag holds (rows plus withdrawn) as many items as their
    'ingestion end' entries record added (summary.items_added counts container members too), when every
    run over them in the bag's ledger ended."""
    terms = [t.strip() for t in (selection or "").split("+")]
    if not terms or not all(t.startswith("delivery:") and len(t) > len("delivery:") for t in terms):
        return ""
    runs = {t[len("delivery:"):].upper(): {"starts": 0, "ends": 0, "added": 0} for t in terms}
    for line in (_read(bag_dir, "custody/ledger.jsonl") or b"").decode("utf-8", "replace").split("\n"):
        try:
            e = json.loads(line) if line.strip() else None
        except ValueError:
            e = None  # check 6 reports malformed lines
        details = e.get("details") if isinstance(e, dict) else None
        delivery = details.get("delivery") if isinstance(details, dict) else None
        run = runs.get(delivery.upper()) if isinstance(delivery, str) else None
        if run is None:
            continue
        if e.get("type") == "ingestion start":
            run["starts"] += 1
        elif e.get("type") == "ingestion end":
            run["ends"] += 1
            summary = details.get("summary")
            added = summary.get("items_added") if isinstance(summary, dict) else None
            run["added"] = run["added"] + added if _count(added) and run["added"] is not None else None
    unchecked = [d for d, r in runs.items() if r["ends"] == 0 or r["starts"] > r["ends"] or r["added"] is None]
    if unchecked:
        return ("; the item count of delivery %s is not checked: the bag's ledger has no ended run over it"
                " (or a run that did not end)" % ", ".join(unchecked))
    expected = sum(r["added"] for r in runs.values())
    if held != expected:
        findings.append(finding(INCOMPLETE, "the ingestion end entries of %s record %d items added, the bag holds %d"
                                % (", ".join(runs), expected, held), "data/tables/items.json"))
        return ""
    return "; the %d items the deliveries' ingestion end entries record" % expected
