"""The OpenSpiel bridge: pyspiel games as world models and world models as pyspiel games,
plus differential testing of our reference games against OpenSpiel's implementations.

Needs the ``openspiel`` extra (``pip install 'ggp[openspiel]'``).
"""
