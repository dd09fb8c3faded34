#!/usr/bin/env bash
# Seed 001's card-game table (Table 2): honest searchers against the clairvoyant baseline
# and Random, in agram, golf, ninety_eight, hearts and bottle_imp (the thesis' Ludii
# variant), with every seat permutation played equally often. See docs/cards_table.md.
#
# usage: experiments/cards/seed001_table.sh [GAME ...]     (default: all five games)
#
# settings (environment):
#   MOVE_SECONDS  time per move of every searcher (default 1, as in seed 001)
#   MATCHES       matches per field and game, a multiple of 24 (default 96, as in seed 001)
#   JOBS          parallel matches (default: all cores); BACKEND=ray to use Ray
#   OUT           results root (default runs/seed001-<MOVE_SECONDS>s); one directory per game
#   HONEST        the honest searchers, one field each (default "ismcts moismcts pimc";
#                 settings allowed, e.g. "ismcts:pool=20 moismcts:pool=20")
#
# Each game is one resumable `ggp arena` tournament: run the same command again after an
# interruption and only the missing matches are played; a larger MATCHES extends it.
# Per game and honest searcher H (ismcts, moismcts, pimc) one field is played:
#   4 players: H, clairvoyant, random, random      (24 seat permutations per round)
#   3 players (golf): H, clairvoyant, random        (6 seat permutations per round)
set -euo pipefail

MOVE_SECONDS=${MOVE_SECONDS:-1}
MATCHES=${MATCHES:-96}
JOBS=${JOBS:-}
BACKEND=${BACKEND:-local}
OUT=${OUT:-runs/seed001-${MOVE_SECONDS}s}
HONEST=${HONEST:-ismcts moismcts pimc}
GGP=${GGP:-ggp}
if (( MATCHES % 24 )); then
    echo "error: MATCHES must be a multiple of 24 (every seat permutation of 4 players)" >&2
    exit 2
fi
if (( $# )); then games=("$@"); else
    games=(agram golf ninety_eight hearts "bottle_imp(variant=ludii_thesis)")
fi

budget="sims=0:time=${MOVE_SECONDS}:rollouts=1"
clairvoyant="clairvoyant:${budget}"
for game in "${games[@]}"; do
    case "$game" in golf*) players=3 ;; *) players=4 ;; esac  # ggp games lists them
    fields=()
    for honest in $HONEST; do
        if [[ $players == 3 ]]; then
            fields+=(-f "${honest}:${budget},${clairvoyant},random")
        else
            fields+=(-f "${honest}:${budget},${clairvoyant},random,random")
        fi
    done
    permutations=$([[ $players == 3 ]] && echo 6 || echo 24)
    dir="${OUT}/$(echo "$game" | tr -c 'A-Za-z0-9_\n' '_')"
    echo "== ${game}: ${MATCHES} matches per field, ${MOVE_SECONDS} s per move -> ${dir}"
    ${GGP} arena -g "$game" "${fields[@]}" -n $((MATCHES / permutations)) --seed 1 \
        --out "$dir" --backend "$BACKEND" ${JOBS:+-j "$JOBS"} --no-trajectories
done
