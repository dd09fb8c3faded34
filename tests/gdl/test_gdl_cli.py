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
    assert "playouts/s" in out and "reasoner: grounded" in out
    assert main(["gdl", "validate", "/no/such/file.kif"]) == 2
