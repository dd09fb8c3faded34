#!/bin/sh
# Short, single-seed extras (seed 0, Table 2 hyperparameters, 256x256 layers):
# 1. Goofspiel 4 with random point order: network vs SePoT exploitability (exact).
# 2. Battleships 3x3, ships (2,2): a short training run and SePoT vs network head-to-head
#    (exact exploitability is out of reach: ~10^14 histories).
export OMP_NUM_THREADS=1
OUT=${OUT:-/work/sepot_runs/s2}
ggp sepot train goofspiel4r --out "$OUT/g4r" --steps 8000 --snapshot-every 500
ggp sepot eval "$OUT/g4r" --every 2000 --depths 1,2 --iterations 200 \
    --variants critic,previous --out experiments/sepot/measured/goofspiel4r_exploitability.csv
ggp sepot train battleship3 --out "$OUT/bs3" --steps ${BS_STEPS:-2500} --snapshot-every 500
# Head-to-head in chunks of 20 games (one JSON line each, seeds 0, 1, ...).
for SEED in $(seq 0 $((${BS_CHUNKS:-10} - 1))); do
  ggp sepot h2h "$OUT/bs3/step_${BS_STEPS:-2500}.pt" "$OUT/bs3/step_${BS_STEPS:-2500}.pt" \
      --games 20 --depth 1 --iterations 100 --max-nodes 50000 --seed $SEED
done | tee experiments/sepot/measured/battleship3_h2h.jsonl
