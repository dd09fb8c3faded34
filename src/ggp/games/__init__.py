"""Reference ("ground truth") games, one module per game.

Each module defines ``RULES`` (the rules in plain English, written for this project: it is
what a language model is shown), ``METADATA`` (:class:`ggp.core.protocol.GameMetadata`)
and the world-model protocol, either at module level or through ``make(**params)``.
Modules are discovered automatically by :mod:`ggp.core.registry`.
"""
