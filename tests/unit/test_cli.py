"""The CLI maps commands onto the facade; errors are one clear line and exit status 1."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kenning.cli import main


@pytest.fixture
def cli(tmp_path, monkeypatch):
    monkeypatch.setenv("KENNING_EMBEDDER", "hash")
    monkeypatch.setenv("KENNING_DB", f"sqlite:///{tmp_path / 'cli.db'}")
    runner = CliRunner()

    def invoke(*args: str, ok: bool = True):
        result = runner.invoke(main, list(args), catch_exceptions=False)
        assert (result.exit_code == 0) is ok, result.output
        return result

    return invoke


def test_remember_search_list_history_delete_export(cli, tmp_path):
    m = json.loads(cli("remember", "Alice lives in Leeds", "--tenant", "acme", "--user", "alice", "--json").output)
    assert m["id"].startswith("mem_") and m["kind"] == "fact"
    hits = json.loads(cli("search", "Where does Alice live?", "--tenant", "acme", "--user", "alice", "--json").output)
    assert hits[0]["memory"]["id"] == m["id"] and "relevance" in hits[0]["components"]
    assert "Leeds" in cli("list", "--tenant", "acme", "--user", "alice").output
    assert cli("list", "--tenant", "acme", "--user", "bob").output.strip() == "(no memories)"
    assert "ADD" in cli("history", m["id"], "--tenant", "acme", "--user", "alice").output
    out = tmp_path / "alice.json"
    cli("export", "--tenant", "acme", "--user", "alice", "-o", str(out))
    assert json.loads(out.read_text())["memories"][0]["text"] == "Alice lives in Leeds"
    cli("delete", m["id"], "--tenant", "acme", "--user", "alice")
    assert "Leeds" not in cli("list", "--tenant", "acme", "--user", "alice", "--all").output


def test_import_into_another_database_and_refuse_duplicates(cli, tmp_path):
    cli("remember", "Bob supports Leeds United", "--tenant", "acme", "--user", "bob")
    out = tmp_path / "bob.json"
    cli("export", "--tenant", "acme", "--user", "bob", "-o", str(out))
    other = f"sqlite:///{tmp_path / 'other.db'}"
    assert json.loads(cli("import", str(out), "--db", other, "--tenant", "acme", "--user", "bob", "--json").output) == {"imported": 1}
    assert "Leeds United" in cli("list", "--db", other, "--tenant", "acme", "--user", "bob").output
    assert "Conflict" in cli("import", str(out), "--db", other, "--tenant", "acme", "--user", "bob", ok=False).output
    assert cli("list", "--db", other, "--tenant", "acme", "--user", "bob", "--json").output.count("Leeds United") == 1


def test_errors_are_one_line_with_exit_status_1(cli):
    assert "NotFound" in cli("get", "mem_nope", ok=False).output
    assert "ValidationError" in cli("remember", "   ", ok=False).output
    assert "not one of" in cli("list", "--kind", "rumour", ok=False).output


def test_help_lists_every_command(cli):
    out = cli("--help").output
    for name in ["demo", "remember", "add", "search", "list", "get", "history", "delete", "forget-user", "export",
                 "import", "maintain", "worker", "eval", "serve", "keys", "mcp", "pg"]:
        assert name in out


def test_add_extracts_and_reports_each_decision(cli):
    out = cli("add", "I'm vegetarian and I live in Leeds.", "--tenant", "acme", "--user", "alice").output
    assert "2 candidate(s) captured" in out and "ADD" in out and "Leeds" in out
    out = cli("add", "We moved from Leeds to York.", "--tenant", "acme", "--user", "alice").output
    assert "UPDATE" in out and "York" in out
    out = cli("add", "my password is hunter2-Bravo-77", "--tenant", "acme", "--user", "alice").output
    assert "withheld: secret" in out and "hunter2" not in cli("export", "--tenant", "acme", "--user", "alice").output


def test_progress_bar_shows_counts_and_time_left(capsys):
    from kenning.progress import bar

    with bar("maintaining users", force=True) as progress:
        progress(3, 4, "acme/alice")
    err = capsys.readouterr().err
    assert "maintaining users" in err and "3/4" in err and "left" in err


def test_every_command_answers_dash_h():
    import click

    from click.testing import CliRunner

    from kenning.cli import main

    names = main.list_commands(click.Context(main))
    for name in names:
        result = CliRunner().invoke(main, [name, "-h"])
        assert result.exit_code == 0 and "Usage:" in result.output, (name, result.output)


def test_maintain_speaks_in_sentences(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from kenning.cli import main

    monkeypatch.setenv("KENNING_EMBEDDER", "hash")
    db = f"sqlite:///{tmp_path / 'm.db'}"
    runner = CliRunner()
    assert runner.invoke(main, ["maintain", "--db", db]).output.strip() == "Nothing to do: no user was written to or came due."
    runner.invoke(main, ["add", "I live in Leeds.", "--no-wait", "--db", db, "--tenant", "acme", "--user", "alice"])
    out = runner.invoke(main, ["maintain", "--db", db]).output
    assert "acme/alice:" in out and "reconciled" in out and "1 user(s) checked, 1 with changes." in out
    assert "{" not in out


def test_a_database_argument_that_is_not_a_url_creates_nothing(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from kenning.cli import main

    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["list", "--db", "notaurl"])
    assert result.exit_code == 2 and "is not a URL" in result.output
    assert list(tmp_path.iterdir()) == []


def test_search_takes_filters(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from kenning.cli import main

    monkeypatch.setenv("KENNING_EMBEDDER", "hash")
    db = ["--db", f"sqlite:///{tmp_path / 'f.db'}"]
    runner = CliRunner()
    runner.invoke(main, ["remember", "Alice takes the aisle seat", "--kind", "preference", *db])
    runner.invoke(main, ["remember", "Alice booked seat 12A", "--kind", "episode", *db])
    out = runner.invoke(main, ["search", "seat", "--kind", "episode", *db]).output
    assert "12A" in out and "aisle" not in out
    assert runner.invoke(main, ["search", "seat", "--since", "2999-01-01", *db]).output.strip() == "(nothing relevant)"
