"""GDL and GDL-II: parsing (KIF and infix), validation, reasoning and the world-model adapter.

Entry points:

* :func:`ggp.gdl.description.parse_description` (KIF or infix,
  :func:`ggp.gdl.kif.parse_kif`, :func:`ggp.gdl.infix.parse_infix`) -> ``Description``
* :func:`ggp.gdl.validate.validate` / ``check`` -> located issues
* :mod:`ggp.gdl.reasoner`: the :class:`~ggp.gdl.reasoner.Reasoner` protocol of every
  engine, and :func:`~ggp.gdl.reasoner.make_reasoner`, which picks
  :class:`ggp.gdl.grounded.GroundedReasoner` (bitset states) when the game grounds and is
  measured faster, else :class:`ggp.gdl.compiled.CompiledReasoner` (fast, no grounding);
  :class:`ggp.gdl.naive.NaiveReasoner` is a simple interpreter, the benchmark baseline
* :func:`ggp.gdl.adapter.load_gdl_model` -> :class:`ggp.core.model.WorldModel`
* :mod:`ggp.gdl.infosets`: information sets and state sampling for GDL-II players

See docs/gdl.md.
"""
