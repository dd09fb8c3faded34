"""Does the generic sampler play as well as ground-truth inference? ISMCTS with
``belief=generic`` against ISMCTS with ``belief=model`` on Leduc poker (300 simulations,
200 games, alternating seats); prints the generic side's mean return and its standard
error.

Run:  python bench/search_belief_strength.py
"""

import statistics

from ggp.agents import make_agent
from ggp.arena.match import play_match
from ggp.core.registry import make_game

m = make_game("leduc_poker")
res = []
for seed in range(200):
    seat = seed % 2
    specs = ["ismcts:sims=300:belief=generic", "ismcts:sims=300:belief=model"]
    if seat:
        specs.reverse()
    r = play_match(m, [make_agent(s, m) for s in specs], seed=seed, record_states=False)
    res.append(r.returns[seat])
print("generic-belief ISMCTS vs model-belief ISMCTS, leduc, 200 games alternating seats:",
      "mean", statistics.mean(res), "stderr", statistics.stdev(res) / len(res) ** 0.5)
