#!/bin/sh
# (b) Goofspiel 5 descending: depth limits 1-3 on the last snapshot.
RUN=${RUN:-/work/sepot_runs/g5}
LAST=$(ls "$RUN"/step_*.pt | sort -V | tail -1)
ggp sepot eval "$LAST" --depths 1,2,3 --iterations 200 \
    --out experiments/sepot/measured/goofspiel5_depths.csv
