#!/usr/bin/env bash
# Install ggp with its test extras into ./.venv and run the whole test suite.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh -x tests/core`).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
# The browser tests (tests/web) drive Debian's chromium; install it when missing and we are
# root with apt-get (CI), else they skip with the reason.
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } \
    || echo "warning: could not install chromium; the browser tests will be skipped" >&2
fi
set +e
.venv/bin/python -m pytest "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "error: pytest collected no tests; treating that as a failure" >&2
  exit 1
fi
exit "$status"
