"""Check 3, second half: the Ed25519 signature of the checkpoint.

Python's standard library has no Ed25519, so the signature is checked by the `openssl` program
(3.0 or later, which has `pkeyutl -rawin`), run once per signature:

    openssl pkeyutl -verify -pubin -inkey KEY.pem -rawin -in custody/checkpoint.body -sigfile custody/checkpoint.sig

When openssl 3 is not installed, the signature is NOT checked and the verdict says NOT VERIFIED.
"""
import base64
import os
import re
import shutil
import subprocess
import tempfile

from .bag import PEM_PREFIX


def openssl_version():
    """(major, text) of the openssl on PATH, or (None, why not)."""
    exe = shutil.which("openssl")
    if exe is None:
        return None, "openssl is not installed"
    try:
        out = subprocess.run([exe, "version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=30).stdout.decode("utf-8", "replace").strip()
    except (OSError, subprocess.SubprocessError) as e:
        return None, "openssl cannot be run: %s" % e
    m = re.match(r"^OpenSSL (\d+)\.", out)
    if m is None:
        return None, "%s is not OpenSSL" % out
    return int(m.group(1)), out


def parse_pinned_key(text):
    """The 32 raw key bytes of a pinned key: a verifier-key line (name+id+base64) or a PEM."""
    if "-----BEGIN" in text:
        der = base64.b64decode("".join(l for l in text.splitlines() if "-----" not in l))
        if len(der) != 44 or not der.startswith(PEM_PREFIX):
            raise ValueError("the PEM file is not an Ed25519 public key")
        return der[len(PEM_PREFIX):], None
    line = text.strip()
    parts = line.split("+", 2)
    if len(parts) != 3:
        raise ValueError("not a verifier key line (name+keyid+base64) nor a PEM public key")
    key = base64.b64decode(parts[2], validate=True)
    if len(key) != 33 or key[0] != 1:
        raise ValueError("the verifier key is not an Ed25519 key")
    return key[1:], line


def verify_signature(bag, report, cp, pinned_text=None):
    """Checks the checkpoint signature with the pinned key, or with the bag's own key (and says so)."""
    key = cp.key[1:]
    if pinned_text is None:
        report.add("EXPORT_KEY_NOT_PINNED", "no pinned key (--key): the verifier key was taken from the bag itself; pin it from an "
                   "independent channel, or a forged bag signed with its own key passes", "custody/verifier-key.txt", severity="warning")
    else:
        try:
            key, line = parse_pinned_key(pinned_text)
        except ValueError as e:
            report.add("EXPORT_KEY_INVALID", "the pinned key: %s" % e)
            return False
        if key != cp.key[1:] or (line is not None and line != cp.key_line):
            report.add("EXPORT_KEY_MISMATCH", "custody/verifier-key.txt is NOT the pinned key: this bag was signed by someone else",
                       "custody/verifier-key.txt")
        report.detail("key pinned (--key)")
    major, version = openssl_version()
    if major is None or major < 3:
        report.add("EXPORT_SIGNATURE_UNCHECKED", "the checkpoint signature was NOT checked: %s (openssl 3.0 or later is needed; "
                   "Python's standard library has no Ed25519)" % version, "custody/checkpoint.sig")
        return False
    pem = "-----BEGIN PUBLIC KEY-----\n%s\n-----END PUBLIC KEY-----\n" % base64.b64encode(PEM_PREFIX + key).decode()
    with tempfile.TemporaryDirectory() as tmp:  # outside the bag: nothing is written inside it
        key_file = os.path.join(tmp, "key.pem")
        with open(key_file, "w") as f:
            f.write(pem)
        run = subprocess.run(["openssl", "pkeyutl", "-verify", "-pubin", "-inkey", key_file, "-rawin",
                              "-in", os.path.join(bag.root, "custody/checkpoint.body"),
                              "-sigfile", os.path.join(bag.root, "custody/checkpoint.sig")],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    if run.returncode != 0:
        report.add("EXPORT_CHECKPOINT_SIGNATURE_INVALID", "the checkpoint signature does not verify with the %s key"
                   % ("pinned" if pinned_text is not None else "bag's"), "custody/checkpoint.sig")
        return False
    report.detail("signature verified by %s" % version)
    return True
