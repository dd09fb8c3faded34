"""The arena CLI: spec lists and error messages."""

from hypothesis import given
from hypothesis import strategies as st

from ggp.cli.arena import split_specs
from ggp.cli.main import main

name = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True)
value = st.from_regex(r"[a-z0-9.]{1,5}", fullmatch=True)
params = st.lists(st.tuples(name, value), max_size=3).map(
    lambda items: ",".join(f"{k}={v}" for k, v in items))
spec = st.one_of(name, st.tuples(name, params).map(lambda t: f"{t[0]}({t[1]})"),
                 st.tuples(name, value).map(lambda t: f"{t[0]}:sims={t[1]}"))


@given(st.lists(spec, min_size=1, max_size=5), st.integers(1, 3))
def test_split_specs_keeps_commas_inside_parentheses(specs, options):
    joined = ",".join(specs)
    assert split_specs([joined]) == specs
    chunks = [",".join(specs[i::options]) for i in range(options)]
    assert sorted(split_specs([c for c in chunks if c])) == sorted(specs)


def test_unknown_agent_and_game_are_clear_errors(tmp_path, capsys):
    assert main(["arena", "-g", "tic_tac_toe", "-a", "nobody", "--out", str(tmp_path)]) == 2
    assert "Unknown agent 'nobody'" in _err(capsys)
    assert main(["arena", "-g", "tic_tac_tooe", "-a", "random", "--out", str(tmp_path)]) == 2
    assert "Did you mean tic_tac_toe" in _err(capsys)
    assert main(["arena", "-g", "tic_tac_toe", "-a", "missing_file.py",
                 "--out", str(tmp_path)]) == 2
    assert "does not exist" in _err(capsys)


def _err(capsys):
    """What was printed to stderr, with rich's line wrapping undone."""
    return " ".join(capsys.readouterr().err.split())


def test_the_printed_report_never_cuts_an_agent_name(tmp_path, capsys):
    spec = "mcts:sims=3:rollouts=1:uct_c=1.4142"
    assert main(["arena", "-g", "tic_tac_toe", "-a", spec, "-o", "random", "-n", "1",
                 "--no-plots", "--out", str(tmp_path / "a")]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if " P0 " in line
            or " P1 " in line]
    assert rows and "…" not in "".join(rows)
