#!/usr/bin/env bash
# Install ggp into ./.venv and run the built-in demo: the registered games, a conformance
# check, and two small tournaments (search agents against a random player).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[openspiel,plots]'
GGP=.venv/bin/ggp
$GGP games
$GGP check leduc_poker --games 20
$GGP arena -g tic_tac_toe -g connect_four -a mcts:sims=200 -o random -n 5 --out runs/quickstart-perfect
$GGP arena -g kuhn_poker -g leduc_poker -a ismcts:sims=200 -o random -n 10 --out runs/quickstart-hidden
echo "Reports: runs/quickstart-perfect/report.md and runs/quickstart-hidden/report.md (plots beside them)."
