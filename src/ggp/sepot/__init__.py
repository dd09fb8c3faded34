"""SePoT (seed 004): search on top of an R-NaD policy network, trained by self-play with a
history critic that makes depth-limited safe search possible (see docs/sepot.md).

Nothing is imported here: most modules need the ``torch`` extra, and the search and exact
evaluation run without it.
"""
