#!/usr/bin/env bash
# Install the Debian packages Custody's tests need. Idempotent: packages already
# installed are skipped, and apt-get update runs only when something is missing.
#
#   sudo scripts/install-system-deps.sh
#   sudo scripts/install-system-deps.sh --bench   # also the peers `npm run bench` compares with
#
# The tests start their own throwaway PostgreSQL cluster (test/support/postgres.ts);
# the package's own service is not used and need not be running.
set -euo pipefail

packages=(
  postgresql
  # PDF reports (print-to-PDF from the HTML) and browser tests: Debian's Chromium, driven by
  # playwright-core; never a downloaded browser. Noto covers Arabic script; DejaVu is the fallback.
  chromium
  # The browser tests drive Chromium's headless shell, the same engine from the same source
  # package, without the desktop browser (test/support/browser.ts says why).
  chromium-headless-shell
  fonts-noto-core
  fonts-dejavu-core
  # pdftotext / pdftoppm: the report tests read the PDF's text and look at its pages.
  poppler-utils
)
# Benchmarks only, never the tests or CI: findimagedupes, the peer of bench/findimagedupes.bench.ts.
if [ "${1:-}" = "--bench" ]; then
  packages+=(findimagedupes)
fi

missing=()
for pkg in "${packages[@]}"; do
  if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q '^install ok installed$'; then
    echo "install-system-deps: $pkg already installed"
  else
    missing+=("$pkg")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-system-deps: nothing to install"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-system-deps: missing ${missing[*]}; run this script as root (e.g. with sudo) to install them" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends "${missing[@]}"
echo "install-system-deps: installed ${missing[*]}"
