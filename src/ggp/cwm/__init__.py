"""Playing with synthesized code world models (seed 000 §4.2–4.4, App. E, G.6).

Synthesized code is untrusted: it runs only inside sandboxed worker processes
(:mod:`ggp.cwm.worker`). Parts:

* :mod:`ggp.cwm.worker` — the worker entry of an agent planning on a CWM (play-time
  inference with validation, retries and a logged random fallback); a CWM that hosts a
  match as the "true" game runs in :mod:`ggp.sandbox.hosted` instead;
* :mod:`ggp.cwm.purity` — the checks that let the worker search without copying states:
  audited probes at load, and after every search;
* :mod:`ggp.cwm.prior_box` — the sandboxed box that calls a synthesized policy prior
  for its checks (:mod:`ggp.synth.prior` judges the answers outside it);
* :mod:`ggp.cwm.accuracy` — online transition accuracy of a CWM on arena trajectories;
* :mod:`ggp.cwm.experiment` — the paper's experiment for one game (synthesize K runs,
  reject bad samples, arena, tables and plots).

See docs/cwm.md.
"""
