"""The OpenSpiel bridge: pyspiel games as world models and world models as pyspiel games,
plus differential testing of our reference games against OpenSpiel's implementations.

* :mod:`ggp.openspiel.model` — ``openspiel_model("leduc_poker")``, also reachable as
  ``load_model("openspiel:leduc_poker")``;
* :mod:`ggp.openspiel.game` — ``register_world_model(model, short_name)`` -> ``pyspiel.Game``;
* :mod:`ggp.openspiel.solve` — ``solve_cfr_plus(model, iterations)`` -> a CFR+ policy;
* :mod:`ggp.openspiel.differential` — ``compare_with_openspiel(model, game_string, ...)``.

Needs the ``openspiel`` extra (``pip install 'ggp[openspiel]'``). See docs/openspiel.md.
"""
