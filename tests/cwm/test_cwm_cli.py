"""``ggp cwm`` commands (model files are hand-written, not a model's work)."""

from __future__ import annotations

import json

from cwm_fixtures import mutate, run_dir, source
from typer.testing import CliRunner

from ggp.arena.tournament import TournamentConfig, run_tournament
from ggp.cli.main import _register_subcommands, app, main


def test_accuracy_command_scores_a_model_on_arena_games(tmp_path):
    arena = tmp_path / "arena"
    run_tournament(TournamentConfig(games=("tic_tac_toe",), agents=("random",), matches=2),
                   arena, workers=0)
    good = run_dir(tmp_path, "good", source("tic_tac_toe"))
    bad = run_dir(tmp_path, "bad", mutate(source("tic_tac_toe"),
                                          ('0: "x", 1: "o"', '0: "X", 1: "O"')))
    _register_subcommands()
    scores = {}
    for run in (good, bad):
        result = CliRunner().invoke(app, ["cwm", "accuracy", str(run), "--arena", str(arena),
                                          "--game", "tic_tac_toe"])
        assert result.exit_code == 0, result.output
        scores[run.name] = json.loads(result.output)
    assert scores["good"]["transition_accuracy"] == 1.0
    assert scores["bad"]["transition_accuracy"] < 1.0


def test_missing_model_is_a_short_error(tmp_path, capsys):
    code = main(["cwm", "reject", str(tmp_path / "none"), "--game", "tic_tac_toe",
                 "--out", str(tmp_path / "r.json")])
    assert code == 2
    assert "No code world model" in capsys.readouterr().err
