"""The attacks on the code around the box (ggp.sandbox.host_attacks) are all contained."""

from __future__ import annotations

import pytest

from ggp.sandbox.host_attacks import HOST_ATTACKS, run_host_attack


@pytest.mark.parametrize("name", sorted(HOST_ATTACKS))
def test_host_attack_is_contained(name):
    outcome = run_host_attack(name)
    if outcome.skipped:
        pytest.skip(outcome.skipped)
    assert outcome.contained, outcome.breaches


def test_the_judge_sees_a_breach():
    """A write through a planted link would be reported: the attack's own check, run on
    a writer that follows links, finds the victim changed."""
    import ggp.sandbox.host_attacks as attacks
    from ggp.core import files

    real = files.open_output
    try:
        def careless(path, mode="w", **kw):
            return open(path, mode.replace("x", "w"), encoding=None if "b" in mode else "utf-8")

        files.open_output = careless
        import ggp.arena.store as store

        store.open_output, saved = careless, store.open_output
        store.refuse_link, saved_refuse = (lambda path: path), store.refuse_link
        try:
            outcome = attacks.run_host_attack("symlinked_outputs")
        finally:
            store.open_output, store.refuse_link = saved, saved_refuse
    finally:
        files.open_output = real
    assert not outcome.contained


def test_selftest_runs_the_host_attacks_from_the_command_line(capsys):
    from ggp.cli.main import main

    status = main(["sandbox", "selftest", "-e", "host"])
    out = capsys.readouterr().out
    assert status in (0, None) and out.count("contained  host") == len(HOST_ATTACKS)
