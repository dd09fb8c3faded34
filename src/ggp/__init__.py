"""ggp: a general game playing system.

Every game, whether hand-written, compiled from GDL or written by a language model, is a
*world model* (see :mod:`ggp.core.protocol`) and is used through
:class:`ggp.core.model.WorldModel`.
"""

__version__ = "0.1.0"
