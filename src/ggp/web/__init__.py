"""``ggp web``: play any game against any agents in the browser, and watch recorded matches.

* :mod:`ggp.web.games` — opening games and agents through the arena's code paths
  (untrusted models and agents sandboxed);
* :mod:`ggp.web.session` — one match with a person in a seat;
* :mod:`ggp.web.records` — arena, ``ggp manage`` and synthesis records for the viewer;
* :mod:`ggp.web.app` — the Starlette app; :mod:`ggp.web.server` — running it with uvicorn.

Needs the ``web`` extra (starlette, uvicorn). See docs/web.md.
"""
