"""The GGP match protocol over HTTP: a player any GGP game server can use, and a game
manager that runs matches between HTTP players (GDL and GDL-II message forms).

* :mod:`ggp.ggpnet.messages` — parse and write INFO/PREVIEW/START/PLAY/STOP/ABORT;
* :mod:`ggp.ggpnet.transport` — the HTTP server (player side) and client (manager side);
* :mod:`ggp.ggpnet.choosers` — pluggable move choosers (random, MCTS/ISMCTS);
* :mod:`ggp.ggpnet.player` — the player (``ggp serve``);
* :mod:`ggp.ggpnet.manager` — the game manager and match records (``ggp manage``).

A match's rules (joint moves, percepts, goals) are :mod:`ggp.gdl.match`, a GDL-II
player's belief :mod:`ggp.gdl.hypotheses`; the world-model adapter shares both.

See docs/ggp_protocol.md.
"""
