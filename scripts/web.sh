#!/usr/bin/env bash
# Install ggp with the web extra into ./.venv and start the web page (ggp web): play any game
# against any agents, and view recorded matches. Arguments go to `ggp web` (e.g. --port 9000).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
source scripts/system_packages.sh
ensure_packages bwrap:bubblewrap  # CWMs and file agents run in the sandbox
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[web,plots]'
exec .venv/bin/ggp web "$@"
