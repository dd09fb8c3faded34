"""``ggp gdl validate|convert|stats`` end to end."""

from ggp.cli.main import main
from ggp.gdl.infix import parse_infix
from ggp.gdl.kif import parse_kif

from gdl_corpus import path


def test_validate_exit_status_and_locations(capsys):
    assert main(["gdl", "validate", str(path("ticTacToe.kif"))]) == 0
    assert main(["gdl", "validate", str(path("test_case_3b.kif"))]) == 1
    out = capsys.readouterr().out
    assert "test_case_3b.kif:13:5: error: unsafe variable ?x" in out


def test_convert_kif_to_infix_and_back(tmp_path, capsys):
    infix = tmp_path / "ttt.gdl"
    assert main(["gdl", "convert", str(path("ticTacToe.kif")), "-o", str(infix)]) == 0
    text = infix.read_text()
    assert "legal(W,mark(X,Y)) :- true(cell(X,Y,b)) & true(control(W))" in text
    assert main(["gdl", "convert", str(infix)]) == 0
    kif = capsys.readouterr().out
    assert len(parse_kif(kif).rules) == len(parse_infix(text).rules) == 47


def test_stats_and_bad_file(capsys):
    assert main(["gdl", "stats", str(path("nim1.kif")), "--seconds", "0.2"]) == 0
    out = capsys.readouterr().out
    assert "playouts/s" in out and "measured at load" in out
    assert "reasoner: grounded" in out or "reasoner: compiled" in out
    assert main(["gdl", "validate", "/no/such/file.kif"]) == 2


def test_stats_seconds_is_a_limit_even_inside_a_playout(tmp_path, capsys):
    """A game whose single playout outlasts --seconds: stats stops anyway. (10,000 steps
    in 5 ms would take 2 million steps per second; the grounded engine does ~110,000
    here: 5,000 steps in 0.05 s, as this test had, fit on a fast machine.)"""
    long_game = tmp_path / "count.kif"
    long_game.write_text("(role a) (init (c 0)) (legal a go) (<= (next (c ?y)) (true (c ?x)) "
                         "(succ ?x ?y)) (<= terminal (true (c 10000))) (goal a 100) "
                         + " ".join(f"(succ {i} {i + 1})" for i in range(10000)))
    assert main(["gdl", "stats", str(long_game), "--seconds", "0.005"]) == 0
    assert "no random playout finished" in capsys.readouterr().out


def test_positions_print_as_numbers_not_emoji(tmp_path, capsys):
    """rich would turn ':100:' into an emoji; a warning on line 100 keeps its position."""
    game = tmp_path / "g.kif"
    game.write_text("(role a)\n" + ";\n" * 98 + "(<= (goal a 100) (undefinedthing a))\n"
                    "(legal a go) terminal\n")
    main(["gdl", "validate", str(game)])
    out = capsys.readouterr().out
    assert "g.kif:100:18: warning: relation 'undefinedthing/1' is used but never defined" in out
