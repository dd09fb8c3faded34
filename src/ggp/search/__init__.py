"""Search over world models, one algorithm per module:

* :mod:`ggp.search.mcts` — UCT for perfect-information games with chance (max^n backups);
* :mod:`ggp.search.ismcts` — ISMCTS, single and multiple observer;
* :mod:`ggp.search.pimc` — determinized MCTS (PIMC);
* :mod:`ggp.search.cfr` — CFR+ on a model's whole tree, best response for tiny games;
* :mod:`ggp.search.tabular` — game trees as checked plain data; vectorized CFR+ and
  exact exploitability on them;
* :mod:`ggp.search.evaluators` — leaf evaluators (random rollouts, value function, any
  callable).

Hot loops call the model through :attr:`WorldModel.ops <ggp.core.model.WorldModel.ops>`
(:mod:`ggp.core.ops`), which beliefs use too.

Every planner talks to a :class:`~ggp.core.model.WorldModel` only, so it works on
reference games, GDL games and LLM-written models alike. See docs/search.md. (Nothing is
imported here, so importing one planner does not load the others.)
"""
