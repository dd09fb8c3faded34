"""Help texts are rendered as rich markup: a bracketed word such as "[llm]" would be
swallowed as a style tag ("TOML file with an  table."). Every help text of every
command must escape it ("\\[llm]")."""

from __future__ import annotations

import re

import typer

from ggp.cli.main import _register_subcommands, app

# "[word]" or "[a b]" not preceded by a backslash: what rich would try to read as a tag.
TAG = re.compile(r"(?<!\\)\[[A-Za-z/#@][^\[\]]*\]")


def _commands(command, path: str):
    yield path, command
    if hasattr(command, "commands"):  # a group (typer may vendor click)
        for name, sub in command.commands.items():
            yield from _commands(sub, f"{path} {name}")


def test_no_help_text_holds_an_unescaped_markup_tag():
    _register_subcommands()
    swallowed = []
    for path, command in _commands(typer.main.get_command(app), "ggp"):
        texts = [("", command.help or "")] + [
            (param.name, getattr(param, "help", None) or "") for param in command.params]
        for name, text in texts:
            swallowed += [f"{path} {name}: {tag}" for tag in TAG.findall(text)]
    assert not swallowed, swallowed


def test_the_llm_table_survives_in_the_rendered_help(capsys):
    from ggp.cli.main import main

    assert main(["cwm", "values", "--help"]) == 0
    assert "[llm]" in capsys.readouterr().out
