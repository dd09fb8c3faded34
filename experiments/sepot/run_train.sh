#!/bin/sh
# The training runs behind the results (seed 0, Table 2 hyperparameters, 256x256 layers).
# They were stopped by hand when the time budget ran out; rerunning resumes them.
OUT=${OUT:-/work/sepot_runs}
ggp sepot train goofspiel4 --out "$OUT/g4" --steps 100000 --snapshot-every 500 &
ggp sepot train leduc --out "$OUT/leduc" --steps 100000 --snapshot-every 500 &
ggp sepot train goofspiel5 --out "$OUT/g5" --steps 100000 --snapshot-every 500 &
wait
