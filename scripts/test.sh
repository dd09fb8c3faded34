#!/usr/bin/env bash
# Install ggp with its test extras into ./.venv, check the code (the layer contract, ruff,
# mypy: configured in pyproject.toml, docs/architecture.md) and run the whole test suite.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh -x tests/core`).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
# bubblewrap is the sandbox for untrusted code (docs/sandbox.md; its attack suite skips,
# saying why, where bwrap cannot run); chromium drives the browser tests (tests/web).
source scripts/system_packages.sh
ensure_packages bwrap:bubblewrap chromium:chromium
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
# The static checks come first and stop the script when one fails (a few seconds each with
# their caches, under a minute without).
.venv/bin/lint-imports --no-logo
.venv/bin/ruff check .
.venv/bin/mypy
# Two test processes (pytest-xdist): the suite is mostly single-threaded Python and CI
# has 2 cores. GGP_TEST_WORKERS=0 runs it in this process; `-n N` among the arguments wins.
set +e
.venv/bin/python -m pytest -n "${GGP_TEST_WORKERS:-2}" "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "error: pytest collected no tests; treating that as a failure" >&2
  exit 1
fi
exit "$status"
