#!/usr/bin/env python3
"""Reference verifier for a Custody export bag. Python 3 standard library only.

Usage: python3 verify_bag.py [BAG_DIR]        (default: the directory this file is in)

Does checks 1, 2, 4 and 5 of VERIFY.md and prepares check 3: it confirms that
custody/checkpoint.body and custody/checkpoint.sig are exactly the text and the Ed25519
signature inside custody/checkpoint.txt, and that custody/verifier-key.pem is the key in
custody/verifier-key.txt. The signature itself is checked with openssl (the standard library
has no Ed25519); VERIFY.md gives the command. Exit status 0 only if every check passed.

References: BagIt, RFC 8493; Merkle tree and inclusion proofs, RFC 9162 section 2.1;
signed notes, https://c2sp.org/signed-note; checkpoints, https://c2sp.org/tlog-checkpoint.
"""
import base64
import hashlib
import json
import os
import re
import sys

BAG = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(__file__))
SAFE_PATH = re.compile(r"^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$")  # LAYOUT.md: names need no escaping
failures = []


def fail(message):
    failures.append(message)
    print("  FAIL " + message)


def read(path):
    with open(os.path.join(BAG, path), "rb") as f:
        return f.read()


def sha256_file(path):
    h = hashlib.sha256()
    with open(os.path.join(BAG, path), "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def all_files():
    out = []
    for root, _dirs, files in os.walk(BAG):
        for name in files:
            out.append(os.path.relpath(os.path.join(root, name), BAG).replace(os.sep, "/"))
    return sorted(out)


def read_manifest(name):
    """'<64 hex>  <path>' per line (RFC 8493 section 2.1.3)."""
    entries = {}
    for number, line in enumerate(read(name).decode("utf-8").splitlines(), 1):
        m = re.match(r"^([0-9a-f]{64})[ \t]+(.+)$", line)
        if not m or not SAFE_PATH.match(m.group(2)) or ".." in m.group(2).split("/"):
            fail("%s line %d is not '<sha256>  <safe path>'" % (name, number))
        elif m.group(2) in entries:
            fail("%s lists %s twice" % (name, m.group(2)))
        else:
            entries[m.group(2)] = m.group(1)
    return entries


def bag_info():
    info = {}
    for line in read("bag-info.txt").decode("utf-8").splitlines():
        if line[:1] in (" ", "\t"):
            continue  # a continuation line; the values we check are one line each
        label, _, value = line.partition(":")
        info.setdefault(label.strip(), value.strip())
    return info


print("Check 1: BagIt completeness (RFC 8493 section 3)")
if read("bagit.txt") != b"BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n":
    fail("bagit.txt is not the BagIt 1.0 declaration")
files = all_files()
payload = read_manifest("manifest-sha256.txt")
tags = read_manifest("tagmanifest-sha256.txt")
on_disk_payload = [p for p in files if p.startswith("data/")]
on_disk_tags = [p for p in files if not p.startswith("data/") and p != "tagmanifest-sha256.txt"]
for path in sorted(set(on_disk_payload) - set(payload)):
    fail("%s is in data/ but not in manifest-sha256.txt" % path)
for path in sorted(set(on_disk_tags) - set(tags)):
    fail("%s is not in tagmanifest-sha256.txt" % path)
for path in sorted((set(payload) - set(files)) | (set(tags) - set(files))):
    fail("%s is listed in a manifest but missing" % path)
octets = sum(os.path.getsize(os.path.join(BAG, p)) for p in on_disk_payload)
if bag_info().get("Payload-Oxum") != "%d.%d" % (octets, len(on_disk_payload)):
    fail("Payload-Oxum is not %d.%d" % (octets, len(on_disk_payload)))

print("Check 2: SHA-256 of every payload and tag file")
for manifest in (payload, tags):
    for path, digest in sorted(manifest.items()):
        if path in files and sha256_file(path) != digest:
            fail("%s does not match its manifest digest" % path)

print("Check 3 (preparation): checkpoint body, signature and key files")
note = read("custody/checkpoint.txt").decode("utf-8")
body, _, signatures = note.rpartition("\n\n")
body += "\n"  # the signed text keeps its final newline (signed-note format)
origin, size, root_b64 = body.split("\n")[:3]
vkey = read("custody/verifier-key.txt").decode("utf-8").strip()
name, key_id, key_b64 = vkey.split("+", 2)
key = base64.b64decode(key_b64, validate=True)
if len(key) != 33 or key[0] != 1:
    fail("custody/verifier-key.txt is not an Ed25519 verifier key")
if hashlib.sha256(name.encode() + b"\n" + key).hexdigest()[:8] != key_id:
    fail("custody/verifier-key.txt: the key ID does not match the key")
pem = "".join(l for l in read("custody/verifier-key.pem").decode("ascii").splitlines() if "-----" not in l)
if base64.b64decode(pem) != bytes.fromhex("302a300506032b6570032100") + key[1:]:
    fail("custody/verifier-key.pem is not the key in custody/verifier-key.txt")
signature = None
for line in signatures.splitlines():
    parts = line.split(" ")
    if len(parts) == 3 and parts[0] == "\u2014" and parts[1] == name:
        raw = base64.b64decode(parts[2], validate=True)
        if raw[:4].hex() == key_id:
            signature = raw[4:]
if read("custody/checkpoint.body") != body.encode("utf-8"):
    fail("custody/checkpoint.body is not the text of custody/checkpoint.txt")
if signature is None or read("custody/checkpoint.sig") != signature:
    fail("custody/checkpoint.sig is not the signature by %s in custody/checkpoint.txt" % name)
root = base64.b64decode(root_b64, validate=True)
info = bag_info()
expected = {"Custody-Origin": origin, "Custody-Tree-Size": size, "Custody-Root": root.hex()}
for label, value in expected.items():
    if info.get(label) != value:
        fail("bag-info.txt %s is not %s (the checkpoint's)" % (label, value))
print("  checkpoint: origin %s, tree size %s, root %s" % (origin, size, root.hex()))
print("  signed by:  %s" % vkey)
print("  now check the signature: openssl pkeyutl -verify -pubin -inkey custody/verifier-key.pem"
      " -rawin -in custody/checkpoint.body -sigfile custody/checkpoint.sig")


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


print("Check 4: inclusion proofs (RFC 9162 section 2.1.3.2)")
entries = {}
for path in [p for p in files if re.match(r"^custody/proofs/[^/]+\.json$", p)]:
    proof = json.loads(read(path))
    item_id, seq = proof["item_id"], proof["seq"]
    entry_bytes = read("custody/entries/%d.json" % seq)
    leaf = hashlib.sha256(b"\x00" + entry_bytes).digest()
    if path != "custody/proofs/%s.json" % item_id or proof["entry"] != "entries/%d.json" % seq:
        fail("%s names another item or entry" % path)
    elif leaf.hex() != proof["leaf_hash"] or proof["tree_size"] != int(size):
        fail("%s: leaf hash or tree size does not match" % path)
    elif not verify_inclusion(seq, int(size), leaf, [bytes.fromhex(h) for h in proof["proof"]], root):
        fail("%s: the proof does not lead to the checkpoint root" % path)
    else:
        entries[item_id] = json.loads(entry_bytes)

print("Check 5: every evidence file is the object its ingestion entry recorded")
rows = json.loads(read("data/tables/items.json"))
withheld = {w["item_id"]: w for w in json.loads(read("custody/withheld.json"))}
claimed = set()
for row in rows:
    item_id, entry = row["item_id"], entries.get(row["item_id"])
    claimed.add(row["bag_path"])
    if entry is None:
        fail("item %s has no valid proof" % item_id)
    elif entry["type"] != "ingestion" or entry["items"] != [item_id] or entry["seq"] != row["ingestion_seq"]:
        fail("item %s: its entry is not the ingestion of this item" % item_id)
    elif entry["objects"] != [row["sha256"]]:
        fail("item %s: the table's sha256 is not the entry's object" % item_id)
    elif row["withheld"] is not None:
        if withheld.get(item_id, {}).get("substitute", 0) != row["bag_path"]:
            fail("item %s is withheld but custody/withheld.json does not say so" % item_id)
    elif not row["bag_path"].startswith("data/items/%s-" % item_id) or row["bag_path"] not in files:
        fail("item %s: %s is not its file" % (item_id, row["bag_path"]))
    elif sha256_file(row["bag_path"]) != row["sha256"]:
        fail("item %s: %s is not the ingested object" % (item_id, row["bag_path"]))
for path in files:
    if path.startswith(("data/items/", "data/previews/")) and path not in claimed:
        fail("%s is not the file of any exported item" % path)
if len(rows) != json.loads(read("custody/export.json"))["items"]:
    fail("data/tables/items.json and custody/export.json disagree on the number of items")

if failures:
    print("NOT VERIFIED: %d problem(s)." % len(failures))
    sys.exit(1)
print("Checks 1, 2, 4 and 5 passed for %d items. Check 3 is the openssl command above," % len(rows))
print("with a key or checkpoint you obtained independently of this bag (see VERIFY.md).")
