#!/usr/bin/env bash
# The steps of VERIFY.md as a plain script: sha256sum, openssl, then python3 verify_bag.py for the
# proofs, the ledger and the process (checks 4-7). Run it from anywhere:
#   bash verify.sh [PINNED_KEY_FILE]
# PINNED_KEY_FILE is the archive's verifier key obtained independently of this bag (a one-line
# verifier key, or an Ed25519 public key in PEM). Without it, the script can only say that the
# bag is consistent with the key it carries itself. Exits non-zero on any failure.
set -u
# Read the pinned key before moving into the bag, so a relative path (or <(…)) still works.
pinned=
if [ $# -ge 1 ]; then
  pinned=$(mktemp) || exit 2
  trap 'rm -f "$pinned"' EXIT
  cat -- "$1" > "$pinned" || { echo "cannot read the pinned key file $1"; exit 2; }
fi
cd "$(dirname "$0")" || exit 2
failed=0
step() { printf '\n== %s\n' "$1"; }
bad() { printf 'FAIL: %s\n' "$1"; failed=1; }

step "1-2. Payload and tag manifests (sha256sum -c), and no file left out of them"
sha256sum --check --quiet --strict manifest-sha256.txt || bad "a payload file is missing or altered"
sha256sum --check --quiet --strict tagmanifest-sha256.txt || bad "a tag file is missing or altered"
diff <(find data -type f | LC_ALL=C sort) <(cut -c67- manifest-sha256.txt | LC_ALL=C sort) \
  || bad "files in data/ and manifest-sha256.txt differ (lines marked < are not in the manifest)"
diff <(find . -type f ! -path './data/*' ! -name tagmanifest-sha256.txt | cut -c3- | LC_ALL=C sort) \
  <(cut -c67- tagmanifest-sha256.txt | LC_ALL=C sort) \
  || bad "tag files and tagmanifest-sha256.txt differ (lines marked < are not in the manifest)"

step "3. The checkpoint signature (Ed25519, openssl)"
key=custody/verifier-key.pem
if [ $# -ge 1 ]; then
  if grep -q -- '-----BEGIN' "$pinned"; then
    cmp -s <(tr -d ' \r\n' < "$pinned") <(tr -d ' \r\n' < custody/verifier-key.pem) \
      || bad "custody/verifier-key.pem is NOT the pinned key: this bag was signed by someone else"
    key=$pinned
  else
    [ "$(tr -d ' \r\n' < "$pinned")" = "$(tr -d ' \r\n' < custody/verifier-key.txt)" ] \
      || bad "custody/verifier-key.txt is NOT the pinned key: this bag was signed by someone else"
  fi
  echo "key pinned from $1"
else
  echo "WARNING: no pinned key given. The verifier key was taken from the bag itself; pin it from"
  echo "an independent channel (bash verify.sh KEY_FILE), or a forged bag with its own key passes."
fi
openssl pkeyutl -verify -pubin -inkey "$key" -rawin \
  -in custody/checkpoint.body -sigfile custody/checkpoint.sig || bad "the checkpoint signature does not verify"

step "1-7. Every check again, then the ledger lines and the process: tables, sample, commitments, reveal rule, people's signatures (openssl), statistics (python3)"
if [ $# -ge 1 ]; then
  python3 verify_bag.py . --key "$pinned" || bad "verify_bag.py found problems"
else
  python3 verify_bag.py . || bad "verify_bag.py found problems"
fi

echo
if [ "$failed" -ne 0 ]; then echo "NOT VERIFIED"; exit 1; fi
if [ $# -ge 1 ]; then echo "VERIFIED against the pinned key"; else echo "CONSISTENT, but the key was not pinned"; fi
