"""The README is a contract: two set-up commands, the CI runs the test one, every CLI command is documented."""

from __future__ import annotations

import re
from pathlib import Path

import click

from kenning.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def setup_commands() -> list[str]:
    section = README.split("## Set up", 1)[1].split("\n## ", 1)[0]
    return [b.strip() for b in re.findall(r"```bash\n(.*?)```", section, re.S)]


def test_readme_has_exactly_two_setup_commands():
    cmds = setup_commands()
    assert len(cmds) == 2 and all("\n" not in c for c in cmds)
    assert "kenning" in cmds[0] and "pytest" in cmds[1]


def test_ci_runs_the_readme_test_command():
    assert setup_commands()[1] in (ROOT / ".ci" / "run").read_text()


def test_every_cli_command_is_documented():
    ctx = click.Context(main)
    for name in main.list_commands(ctx):
        assert f"`kenning {name}" in README, f"kenning {name} is not documented in the README"
