#!/bin/sh
# (a) Leduc: the network's exploitability over training (every snapshot), then SePoT at
# depth limit 1 on the last snapshot (186 public states resolved; slow).
RUN=${RUN:-/work/sepot_runs/leduc}
ggp sepot eval "$RUN" --network-only --every 500 \
    --out experiments/sepot/measured/leduc_network.csv
LAST=$(ls "$RUN"/step_*.pt | sort -V | tail -1)
ggp sepot eval "$LAST" --depths 1 --iterations 300 \
    --out experiments/sepot/measured/leduc_search.csv
