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
