"""Bad input found by the sandbox probe (issue 16, item 3): each gets a one-line error or
bounded behaviour, never a traceback."""

from __future__ import annotations

import pytest

from ggp.agents import AgentSpecError, make_agent
from ggp.cli.main import main
from ggp.core.errors import ModelLoadError
from ggp.core.registry import make_game
from ggp.load import load_model

NOT_UTF8 = b"INITIAL_STATE = {}\n# caf\xe9 \xff\xfe\n"


def test_deeply_nested_gdl_is_a_syntax_error(tmp_path, capsys):
    path = tmp_path / "deep.kif"
    path.write_text("(role x)\n(init " + "(f " * 400 + "a" + ")" * 400 + ")\n")
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "nested more than" in err and "Traceback" not in err


def test_deeply_nested_trajectory_is_a_clear_error(tmp_path):
    from ggp.synth.trajectories import TrajectoryError, load_trajectories

    path = tmp_path / "deep.jsonl"
    path.write_text('{"trajectory": 0, "state": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    with pytest.raises(TrajectoryError, match="nested too deeply"):
        load_trajectories(path)


def test_non_utf8_files_are_clear_errors(tmp_path):
    from ggp.llm import LLMConfigError, load_config
    from ggp.synth.trajectories import TrajectoryError, load_trajectories

    model = tmp_path / "model.py"
    model.write_bytes(NOT_UTF8)
    with pytest.raises(ModelLoadError, match="not UTF-8"):
        load_model(str(model), trusted=True)
    trajectories = tmp_path / "t.jsonl"
    trajectories.write_bytes(b'{"a": "\xff"}\n')
    with pytest.raises(TrajectoryError, match="not UTF-8"):
        load_trajectories(trajectories)
    config = tmp_path / "ggp.toml"
    config.write_bytes(b'[llm]\nmodel = "\xff"\n')
    with pytest.raises(LLMConfigError, match="not UTF-8"):
        load_config(config, env={})


def test_non_utf8_model_in_check_is_one_line(tmp_path, capsys):
    model = tmp_path / "model.py"
    model.write_bytes(NOT_UTF8)
    assert main(["check", str(model)]) == 2
    err = capsys.readouterr().err
    assert "not UTF-8" in err and "Traceback" not in err


@pytest.mark.parametrize("spec, problem", [
    ("mcts:sims=abc", "whole number"), ("mcts:sims=-5", "negative"),
    ("mcts:uct_c=nan", "finite"), ("ismcts:sims=2.5", "whole number"),
    ("mcts:rollouts=-1", "negative"), ("mcts:value=3", "true or false"),
])
def test_bad_agent_settings_are_refused_before_any_match(spec, problem, tmp_path, capsys):
    with pytest.raises(AgentSpecError, match=problem):
        make_agent(spec, make_game("tic_tac_toe"))
    status = main(["arena", "-g", "tic_tac_toe", "-a", spec, "-o", "random", "-n", "1",
                   "-j", "0", "--out", str(tmp_path / "out")])
    assert status == 2 and not (tmp_path / "out").exists()
    assert problem in capsys.readouterr().err


def test_good_agent_settings_still_work_and_ranges_are_explained():
    assert make_agent("mcts:sims=20:uct_c=1:rollouts=1", make_game("tic_tac_toe"))
    with pytest.raises(AgentSpecError, match="at least 1"):
        make_agent("mcts:rollouts=0", make_game("tic_tac_toe"))


def test_secrets_in_config_files_are_refused_anywhere_and_never_echoed(tmp_path):
    from ggp.llm import LLMConfigError, load_config

    secret = "sk-do-not-echo-123"
    for text in (f'api_key = "{secret}"\n[llm]\nmodel = "m"\n',
                 f'[llm]\nmodel = "m"\n[llm.prices]\napi_key = "{secret}"\n',
                 f'[other]\ntoken = "{secret}"\n'):
        path = tmp_path / "ggp.toml"
        path.write_text(text)
        with pytest.raises(LLMConfigError, match="environment variables") as error:
            load_config(path, env={})
        assert secret not in str(error.value)
    path.write_text(f'[llm]\nmodel = "m"\n[llm.prices]\nm = "{secret}"\n')
    with pytest.raises(LLMConfigError, match="invalid value") as error:
        load_config(path, env={})
    assert secret not in str(error.value)
