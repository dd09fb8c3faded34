"""The arena: matches between agents on a ground-truth model, tournaments, statistics.

* :mod:`ggp.arena.match` — one match, forfeits and what they score;
* :mod:`ggp.arena.sandboxed` — any agent in a limited worker process;
* :mod:`ggp.arena.agent_specs` — registered agents and agents from ``.py`` files;
* :mod:`ggp.arena.tournament` — schedules, seeds, resumable tournaments;
* :mod:`ggp.arena.hosted` — matches and duels on a synthesized model hosted in a sandboxed
  worker (what synthesis uses to compare candidates);
* :mod:`ggp.arena.store` — the results directory (JSONL, append + fsync);
* :mod:`ggp.arena.backends` — local process pool and Ray;
* :mod:`ggp.arena.stats`, :mod:`ggp.arena.report`, :mod:`ggp.arena.plots` — tables,
  Markdown/JSON/CSV reports and plots.

See docs/arena.md.
"""
