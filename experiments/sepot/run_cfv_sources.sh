#!/bin/sh
# (c) Where the gadget's opponent counterfactual values come from: the critic (the paper's
# SePoT, each search alone) vs the previous search (continual resolving), on the
# checkpoints of run_train.sh. Variants (see ggp.sepot.evaluate.VARIANTS):
#   critic            critic CFVs, ranges from the network
#   previous          CFVs from the player's previous search, ranges = what it played
#   previous_network  CFVs from the previous search, ranges from the network
#   critic_played     critic CFVs, ranges = what it played
#   exact             exact values of the network policy instead of the critic (oracle)
# Each row also has the critic's mean absolute error against exact values.
export OMP_NUM_THREADS=1
G4=${G4:-/work/sepot_runs/g4}
LEDUC=${LEDUC:-/work/sepot_runs/leduc}
ggp sepot eval "$G4" --every 500 --depths 1,2,3 --iterations 300 \
    --variants critic,previous,previous_network,critic_played,exact \
    --out experiments/sepot/measured/goofspiel4_cfv_sources.csv
for STEP in 2000 4500 8500; do
  ggp sepot eval "$LEDUC/step_$STEP.pt" --depths 1,2 --iterations 300 \
      --variants critic,previous,exact \
      --out experiments/sepot/measured/leduc_cfv_sources.csv
done
# The search alone: CFR+ near-equilibrium blueprint (300 iterations) with exact values.
python experiments/sepot/oracle_check.py goofspiel4 300 300 experiments/sepot/measured/goofspiel4_oracle_cfv_sources.csv
python experiments/sepot/oracle_check.py leduc 300 300 experiments/sepot/measured/leduc_oracle_cfv_sources.csv
