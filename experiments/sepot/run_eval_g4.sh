#!/bin/sh
# (a)+(c) on Goofspiel 4 descending: exact exploitability of the network and of SePoT at
# depth limits 1-3, with critic values and with exact values (oracle), per snapshot.
# RUN is the folder written by: ggp sepot train goofspiel4 --out $RUN --steps N
RUN=${RUN:-/work/sepot_runs/g4}
ggp sepot eval "$RUN" --depths 1,2,3 --iterations 300 --every 1000 --oracle \
    --out experiments/sepot/measured/goofspiel4_exploitability.csv
