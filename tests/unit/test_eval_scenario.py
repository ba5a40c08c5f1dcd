"""Scenario loading: normalisation of times, scopes and sessions, and strict validation."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from kenning.evals.scenario import DEFAULT_START, ScenarioError, load_path, parse

UTC = timezone.utc


def test_times_default_to_one_minute_after_the_previous_step():
    sc = parse(
        """
name: times
steps:
  - remember: {text: a}
  - remember: {text: b}
  - at: 2026-03-01T10:00:00+02:00
    remember: {text: c}
  - at: 2026-03-05
    remember: {text: d}
  - at: "2026-03-06T07:30:00"
    count_active: {min: 1}
  - check: {query: q, expect: [a]}
"""
    )
    ats = [s.at for s in sc.steps]
    assert ats[0] == DEFAULT_START == datetime(2026, 1, 1, 9, 0, tzinfo=UTC)
    assert ats[1] == DEFAULT_START + timedelta(minutes=1)
    assert ats[2] == datetime(2026, 3, 1, 8, 0, tzinfo=UTC)  # offset converted to UTC
    assert ats[3] == datetime(2026, 3, 5, tzinfo=UTC)  # a bare date is midnight UTC
    assert ats[4] == datetime(2026, 3, 6, 7, 30, tzinfo=UTC)  # no offset means UTC
    assert ats[5] == ats[4] + timedelta(minutes=1)
    assert all(a.tzinfo is not None for a in ats)


def test_scope_is_per_step_and_sessions_are_sticky_per_scope():
    sc = parse(
        """
name: scopes
tenant: acme
user: alice
steps:
  - {session: s1, remember: {text: a}}
  - remember: {text: b}
  - {tenant: globex, remember: {text: c}}
  - {session: s2, user: bob, remember: {text: d}}
  - user: bob
    check: {query: q, expect: [d]}
  - check: {query: q, expect: [a]}
"""
    )
    got = [(s.tenant, s.user, s.session) for s in sc.steps]
    assert got == [
        ("acme", "alice", "s1"),
        ("acme", "alice", "s1"),
        ("globex", "alice", "default"),
        ("acme", "bob", "s2"),
        ("acme", "bob", "s2"),
        ("acme", "alice", "s1"),
    ]


def test_defaults_and_normalised_arguments():
    sc = parse(
        """
name: defaults
config: {capacity: 7}
steps:
  - remember: {text: t, kind: episode, importance: 1, expires_at: 2026-02-01T00:00:00Z, source: tool_result}
  - check:
      query: 2026
      expect: York
      match: [{kind: fact, source: [user_said, inferred], supersedes: true}]
"""
    )
    assert (sc.tenant, sc.user, sc.capacity, sc.tags) == ("default", "user", 7, ())
    rem, check = sc.steps[0].arg, sc.steps[1].arg
    assert rem["importance"] == 1.0 and rem["expires_at"] == datetime(2026, 2, 1, tzinfo=UTC)
    assert check["query"] == "2026" and check["k"] == 5 and check["expect"] == ["York"]
    assert check["match"] == [{"kind": frozenset({"fact"}), "source": frozenset({"user_said", "inferred"}), "supersedes": True}]


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ("steps: []", "steps must be a non-empty list"),
        ("steps:\n  - remember: {text: t, colour: red}\n  - count_active: {max: 1}", "unknown remember field 'colour'"),
        ("steps:\n  - remember: {text: t, importance: 1.5}\n  - count_active: {max: 1}", "remember.importance must be a number in [0, 1]"),
        ("steps:\n  - check: {query: q, k: 0, expect: [a]}", "check.k must be an integer from 1 to 200"),
        ("steps:\n  - check: {query: q, match: [{kind: rumour}]}", "check.match[0].kind must be one of"),
        ("steps:\n  - check: {query: q, at_most: {aisle: -1}}", "at_most['aisle'] must be a non-negative integer"),
        ("steps:\n  - check_everywhere: {}", "check_everywhere needs forbid"),
        ("steps:\n  - count_active: {most: 3}", "unknown count_active field 'most'"),
        ("steps:\n  - tool: {name: web}\n  - count_active: {max: 1}", "tool.content must be a non-empty string"),
        ("config: {capacity: 0}\nsteps:\n  - count_active: {max: 1}", "config.capacity must be a positive integer"),
        ("config: {budget: 3}\nsteps:\n  - count_active: {max: 1}", "unknown config key 'budget'"),
        ("tags: flaky\nsteps:\n  - count_active: {max: 1}", "tags must be a list"),
    ],
)
def test_invalid_documents(body, problem):
    with pytest.raises(ScenarioError) as err:
        parse("name: bad\n" + body, "bad.yaml")
    assert str(err.value).startswith("bad.yaml: ") and problem in str(err.value)


def test_missing_name_and_non_mapping_documents():
    with pytest.raises(ScenarioError, match="name must be a non-empty string"):
        parse("steps:\n  - count_active: {max: 1}")
    with pytest.raises(ScenarioError, match="must be a mapping"):
        parse("- just\n- a list")


def test_folders_load_sorted_and_names_must_be_unique(tmp_path):
    (tmp_path / "b.yaml").write_text("name: second\nsteps:\n  - count_active: {max: 1}\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.yaml").write_text("name: first\nsteps:\n  - count_active: {max: 1}\n")
    (tmp_path / "notes.txt").write_text("not a scenario")
    assert [s.name for s in load_path(tmp_path)] == ["first", "second"]
    (tmp_path / "c.yaml").write_text("name: first\nsteps:\n  - count_active: {max: 1}\n")
    with pytest.raises(ScenarioError, match="'first' is already used by"):
        load_path(tmp_path)


def test_missing_paths_and_empty_folders(tmp_path):
    with pytest.raises(ScenarioError, match="no such file or folder"):
        load_path(tmp_path / "nope")
    with pytest.raises(ScenarioError, match="no \\*.yaml scenario files"):
        load_path(tmp_path)
