#!/bin/sh
# (d) Head-to-head on Goofspiel 4 descending: SePoT (search on the networks of the
# checkpoint) against the same checkpoint's policy network, seats alternating.
CKPT=${CKPT:-/work/sepot_runs/g4/latest.pt}
ggp sepot h2h "$CKPT" "$CKPT" --games ${GAMES:-400} --depth 2 --iterations 300 \
    | tee experiments/sepot/measured/goofspiel4_h2h.json
