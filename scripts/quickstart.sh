#!/usr/bin/env bash
# From rules to play, offline: install ggp into ./.venv, replay a real language model's
# synthesis of Leduc poker (hidden information, with its inference function) and of
# generalized tic-tac-toe (perfect information) from the answers recorded in
# examples/recorded/, check both models, and play them in the arena against ground-truth
# search and a random player (reports and plots in runs/quickstart/).
#
# Live instead of replayed: name a model, e.g.
#   GGP_LLM_BACKEND=openai GGP_LLM_MODEL=gpt-4o-mini bash scripts/quickstart.sh
# (any backend of docs/llm.md; the exchange backend also needs GGP_LLM_EXCHANGE_DIR).
# GGP=path/to/ggp uses an installed ggp and skips the install.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/system_packages.sh
ensure_packages bwrap:bubblewrap  # the synthesized models run in the sandbox
if [ -z "${GGP:-}" ]; then
    PYTHON="${PYTHON:-python3}"
    [ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
    echo "== installing ggp into .venv"
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[openspiel,plots]'
    GGP=.venv/bin/ggp
fi
OUT=runs/quickstart
mkdir -p "$OUT"

synthesize() {  # GAME [ggp synth run options]: a live synthesis, or the recorded one replayed
    local game=$1 run="$OUT/$1"
    shift
    if [ -n "${GGP_LLM_BACKEND:-}" ]; then
        echo "== synthesizing $game with $GGP_LLM_BACKEND ${GGP_LLM_MODEL:-} (live)"
        if [ -f "$run/metadata.json" ]; then
            $GGP synth resume "$run"
        else
            $GGP synth run "$game" "$@" --out "$run"
        fi
    else
        echo "== replaying a real model's synthesis of $game (examples/recorded/$game)"
        rm -rf "$run"
        $GGP synth replay "examples/recorded/$game" --out "$run"
    fi
}

synthesize leduc_poker --inference --budget 10
synthesize generalized_tic_tac_toe --budget 6 --test-games 30 --test-players random

echo "== checking the synthesized models against the protocol"
$GGP check "$OUT/leduc_poker/cwm.py" --games 20
$GGP check "$OUT/generalized_tic_tac_toe/cwm.py" --games 20

# the models were just (re)made: results of an earlier run's models must not be resumed
rm -rf "$OUT/arena-leduc_poker" "$OUT/arena-generalized_tic_tac_toe"
echo "== arena: CWM-ISMCTS on the synthesized Leduc model vs GT-ISMCTS and Random"
$GGP arena -g leduc_poker -a "cwm_ismcts:run=$OUT/leduc_poker:sims=200:rollouts=1" \
    -o "gt_ismcts:sims=200:rollouts=1" -o random -n 10 --out "$OUT/arena-leduc_poker"
echo "== arena: CWM-MCTS on the synthesized tic-tac-toe model vs GT-MCTS and Random"
$GGP arena -g generalized_tic_tac_toe \
    -a "cwm_mcts:run=$OUT/generalized_tic_tac_toe:sims=50:rollouts=1" \
    -o "gt_mcts:sims=50:rollouts=1" -o random -n 5 --out "$OUT/arena-generalized_tic_tac_toe"
echo "Models: $OUT/leduc_poker/cwm.py, $OUT/generalized_tic_tac_toe/cwm.py"
echo "Reports: $OUT/arena-*/report.md (plots beside them; README.md says how to read them)"
echo "Browse the matches: bash scripts/web.sh --open $OUT/arena-leduc_poker -g $OUT"
