#!/usr/bin/env bash
# Install ggp into ./.venv and run the built-in demo.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
.venv/bin/ggp games
.venv/bin/ggp check tic_tac_toe
.venv/bin/ggp play tic_tac_toe --players random,random --seed 7
