#!/usr/bin/env bash
# Install ggp with its test extras into ./.venv and run the whole test suite.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh -x tests/core`).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
# The sandbox for untrusted code is built on bubblewrap (docs/sandbox.md); its attack suite
# (tests/sandbox) skips, saying why, where bwrap cannot run. A fresh CI machine runs this
# as root: install it there.
if ! command -v bwrap >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing bubblewrap (the sandbox for untrusted code)" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null
  else
    echo "warning: bubblewrap (bwrap) is missing: the sandbox attack suite will be skipped" \
      "and untrusted code refused; install the 'bubblewrap' package" >&2
  fi
fi
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
set +e
.venv/bin/python -m pytest "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "error: pytest collected no tests; treating that as a failure" >&2
  exit 1
fi
exit "$status"
