"""Check 7, people's signatures and the reveal rule (issue 12).

Each examiner and adjudicator signs with an Ed25519 key of their own. What they sign is a fixed
first line naming the act, then the RFC 8785 canonical JSON of its fields:

    custody key enrol v1\\n   {"account","key_id","public_key"}            (self-signed, account.key.enrol)
    custody submit v1\\n      {"case","commitment","key_id","plan","sealed_sha256"}      (examination.submit)
    custody adjudicate v1\\n  {"case","decisions_sha256","final_sha256","key_id","plan"}  (examination.adjudicate)

"case" is the case code of the plan's assignment entry (the case id for plans assigned before
codes); sealed_sha256 is SHA-256 of the sealed string; decisions_sha256 and final_sha256 are SHA-256
of the canonical JSON of the entry's decisions and final answer. A key is valid for the entries
after its enrolment and before its revocation (account.key.revoke) or replacement (an enrolment
whose "replaces" names it). Each signature is checked by openssl (pkeyutl -rawin), one run each.

A reveal is a system act that no person signs: every assigned examiner of the case must have
submitted before it (EXPORT_REVEAL_EARLY otherwise).
"""
import base64
import hashlib
import os
import subprocess
import tempfile
import unicodedata

from .bag import PEM_PREFIX, jcs
from .signature import openssl_version

LEDGER = "custody/ledger.jsonl"


def _openssl_verify(tmp, n, public_key, message, signature):
    if len(public_key) != 32 or len(signature) != 64:
        return False
    paths = [os.path.join(tmp, "%d.%s" % (n, x)) for x in ("pem", "msg", "sig")]
    with open(paths[0], "w") as f:
        f.write("-----BEGIN PUBLIC KEY-----\n%s\n-----END PUBLIC KEY-----\n" % base64.b64encode(PEM_PREFIX + public_key).decode())
    with open(paths[1], "wb") as f:
        f.write(message)
    with open(paths[2], "wb") as f:
        f.write(signature)
    run = subprocess.run(["openssl", "pkeyutl", "-verify", "-pubin", "-inkey", paths[0], "-rawin", "-in", paths[1], "-sigfile", paths[2]],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    return run.returncode == 0


def _b64(v):
    try:
        return base64.b64decode(v if isinstance(v, str) else "", validate=True)
    except ValueError:
        return b""


def actor_key(name):
    """Custody's comparison key of a person's name (core/actor-name.ts actorKey)."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).strip().upper().lower())


def _s(d, k):
    v = d.get(k)
    return v if isinstance(v, str) else ""


def check_people(report, ledger):
    """Every person's signature in the ledger lines, with the key valid at the entry's seq."""
    entries = [e for e in ledger.entries if isinstance(e.get("details"), dict)]
    signed = [e for e in entries if e["details"].get("action") in ("account.key.enrol", "examination.submit", "examination.adjudicate")]
    if not signed:
        report.detail("no people's signatures in the ledger lines")
        return
    major, version = openssl_version()
    if major is None or major < 3:
        report.add("EXPORT_SIGNATURE_UNCHECKED", "people's signatures were NOT checked: %s (openssl 3.0 or later is needed)" % version, LEDGER)
        return
    keys = {}  # key id -> {"account", "public", "from", "to"}
    codes = {}  # (sample, case id) -> case code
    verified = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n, e in enumerate(entries):
            d, seq = e["details"], e.get("seq")
            a = d.get("action")
            if a == "account.key.enrol":
                fields = {"account": _s(d, "account"), "key_id": _s(d, "key_id"), "public_key": _s(d, "public_key")}
                public = _b64(fields["public_key"])
                message = b"custody key enrol v1\n" + jcs(fields)
                if hashlib.sha256(public).hexdigest()[:16] != fields["key_id"] or not _openssl_verify(tmp, n, public, message, _b64(d.get("signature"))):
                    report.add("EXPORT_PERSON_KEY_INVALID", "entry %d enrols key %s for %s without a valid self-signature by that key"
                               % (seq, fields["key_id"], fields["account"]), LEDGER, seq=seq, act="key enrol", person=fields["account"], key_id=fields["key_id"])
                    continue
                verified += 1
                old = keys.get(d.get("replaces")) if isinstance(d.get("replaces"), str) else None
                if old is not None and old["to"] is None:
                    old["to"] = seq
                keys[fields["key_id"]] = {"account": fields["account"], "public": public, "from": seq, "to": None}
            elif a == "account.key.revoke":
                k = keys.get(_s(d, "key_id"))
                if k is not None and k["to"] is None:
                    k["to"] = seq
            elif a == "examination.assign":
                for c in d.get("cases") or []:
                    if isinstance(c, dict) and isinstance(c.get("case"), str) and isinstance(c.get("code"), str):
                        codes[(_s(d, "sample"), c["case"])] = c["code"]
            elif a in ("examination.submit", "examination.adjudicate"):
                plan, case = _s(d, "sample"), _s(d, "case")
                fields = {"plan": plan, "case": codes.get((plan, case), case)}
                if a == "examination.submit":
                    act, person = "submit", _s(d, "examiner")
                    fields.update(commitment=_s(d, "commitment"), sealed_sha256=hashlib.sha256(_s(d, "sealed").encode("utf-8")).hexdigest())
                else:
                    act, person = "adjudicate", e.get("actor", "")
                    fields.update(decisions_sha256=hashlib.sha256(jcs(d.get("decisions"))).hexdigest(), final_sha256=hashlib.sha256(jcs(d.get("final"))).hexdigest())
                if _check_act(tmp, n, report, ledger, keys, e, act, person, fields):
                    verified += 1
    report.detail("%d people's signatures verify with the key valid at their entry" % verified)


def _check_act(tmp, n, report, ledger, keys, e, act, person, fields):
    seq, sig = e.get("seq"), e["details"].get("signature")
    same = lambda x, y: actor_key(x) == actor_key(y)  # noqa: E731
    valid = lambda k: k["from"] < seq and (k["to"] is None or seq < k["to"])  # noqa: E731
    what = "entry %d, %s by %s" % (seq, act, person)

    def bad(code, why, key_id):
        report.add(code, "%s: %s" % (what, why), LEDGER, seq=seq, act=act, person=person, key_id=key_id)
        return False

    if not isinstance(sig, dict):
        had = [i for i, k in keys.items() if same(k["account"], person) and valid(k)]
        return bad("EXPORT_SIGNATURE_MISSING", "%s had an enrolled signing key (%s) but it is not signed" % (person, had[0]), had[0]) if had else False
    key_id = sig.get("key_id") if isinstance(sig.get("key_id"), str) else ""
    k = keys.get(key_id)
    if k is None:
        withheld = [s for s, w in ledger.withheld.items() if s < seq and (w["action"] == "account.key.enrol" or (w["type"] == "cataloguing" and w["action"] is None))]
        if ledger.full and not withheld:
            return bad("EXPORT_SIGNATURE_INVALID", "signed by key %s, which the full ledger never enrols" % key_id, key_id)
        return bad("EXPORT_SIGNATURE_UNVERIFIABLE", "signed by key %s, whose enrolment this bag does not carry: the signature cannot be checked" % key_id, key_id)
    if not same(k["account"], person):
        return bad("EXPORT_SIGNATURE_INVALID", "key %s is %s's, not %s's" % (key_id, k["account"], person), key_id)
    if not valid(k):
        ended = "" if k["to"] is None else ", ended at %d" % k["to"]
        return bad("EXPORT_SIGNATURE_INVALID", "key %s was not valid at entry %d (enrolled at %d%s)" % (key_id, seq, k["from"], ended), key_id)
    message = ("custody %s v1\n" % act).encode("utf-8") + jcs(dict(fields, key_id=key_id))
    if not _openssl_verify(tmp, n, k["public"], message, _b64(sig.get("value"))):
        return bad("EXPORT_SIGNATURE_INVALID", "the signature does not verify", key_id)
    return True


def check_reveal_rule(report, ledger):
    """A reveal comes after every assigned examiner of its case has submitted."""
    assigned, submitted = {}, {}
    for e in ledger.entries:
        d = e.get("details") if isinstance(e.get("details"), dict) else {}
        a, sample = d.get("action"), _s(d, "sample")
        if a == "examination.assign":
            for c in d.get("cases") or []:
                if isinstance(c, dict):
                    # Version 2 names the case by its code (its id sealed), as its later entries do.
                    name = c.get("code") if d.get("version") == 2 else c.get("case")
                    assigned[(sample, name)] = [x for x in c.get("examiners") or [] if isinstance(x, str)]
        elif a == "examination.submit":
            submitted.setdefault((sample, _s(d, "case")), set()).add(actor_key(_s(d, "examiner")))
        elif a == "examination.reveal":
            key = (sample, _s(d, "case"))
            missing = [x for x in assigned.get(key, []) if actor_key(x) not in submitted.get(key, set())]
            if missing:
                report.add("EXPORT_REVEAL_EARLY", "plan %s, case %s: entry %d opens the case's answers before %s had submitted: the reveal broke the seal early"
                           % (key[0], key[1], e.get("seq"), ", ".join(missing)), LEDGER, sample=key[0], case=key[1], reveal_seq=e.get("seq"))
