"""GDL and GDL-II: parsing (KIF and infix), validation, reasoning and the world-model adapter.

Entry points:

* :func:`ggp.gdl.kif.parse_kif`, :func:`ggp.gdl.infix.parse_infix` -> ``Description``
* :func:`ggp.gdl.validate.validate` / ``check`` -> located issues
* :func:`ggp.gdl.grounded.make_reasoner`: :class:`ggp.gdl.grounded.GroundedReasoner`
  (bitset states) when the game grounds and is measured faster, else
  :class:`ggp.gdl.compiled.CompiledReasoner` (fast, no grounding) and
  :class:`ggp.gdl.naive.NaiveReasoner` (simple interpreter, the benchmark baseline)
* :func:`ggp.gdl.adapter.load_gdl_model` -> :class:`ggp.core.model.WorldModel`
* :mod:`ggp.gdl.infosets`: information sets and state sampling for GDL-II players

See docs/gdl.md.
"""
