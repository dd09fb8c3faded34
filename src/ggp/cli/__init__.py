"""The ``ggp`` command line.

:mod:`ggp.cli.main` builds the app; every other module in this package that defines
``register(app)`` adds its commands, so each subsystem owns its own CLI module.
"""
