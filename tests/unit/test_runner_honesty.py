"""The runner must report failures as failures: a runner that passes everything is worse than none."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from kenning.evals.cli import eval_cmd
from kenning.evals.runner import Runner
from kenning.evals.scenario import ScenarioError, load_path, parse

PLANT = """
name: {name}
tags: [{tags}]
tenant: t
user: u
steps:
  - at: 2026-01-01T09:00:00Z
    remember: {{text: "Omar keeps a canary called Zorblax-9931", kind: fact, importance: 0.9}}
  - remember: {{text: "Omar walks his dog Biscuit every morning", kind: fact}}
{steps}
"""

TOO_LONG = "x" * 5000  # over Settings.max_text_chars


def run(hash_embedder, text: str) -> dict:
    return Runner(hash_embedder).run([parse(text, "test.yaml")])


def only(report: dict) -> dict:
    (sc,) = report["scenarios"]
    return sc


def test_expect_that_cannot_match_fails(hash_embedder):
    report = run(hash_embedder, PLANT.format(name="x", tags="scoring", steps="""
  - check: {query: "What pet does Omar keep?", k: 5, expect: [Quetzalcoatl]}
"""))
    (c,) = only(report)["checks"]
    assert c == {"step": 2, "kind": "check", "passed": False, "why": c["why"]}
    assert "expect 'Quetzalcoatl' not in top-5" in c["why"]
    assert report["metrics"]["checks_passed"] == 0 and report["metrics"]["pass_rate"] == 0.0


def test_forbid_that_matches_fails_and_counts_as_leak_in_forget_scenarios(hash_embedder):
    report = run(hash_embedder, PLANT.format(name="x", tags="forget", steps="""
  - check: {query: "canary Zorblax", k: 5, forbid: [Zorblax, Quetzalcoatl]}
"""))
    (c,) = only(report)["checks"]
    assert not c["passed"] and "forbid 'Zorblax' found" in c["why"]
    assert report["metrics"]["deletion_leaks"] == 1  # one per leaked string


def test_top_forbid_match_match_at_most_and_empty_fail_when_violated(hash_embedder):
    report = run(hash_embedder, PLANT.format(name="x", tags="reconcile", steps="""
  - check: {query: "Omar dog Biscuit", k: 5, top: Zorblax}
  - check: {query: "Omar canary", k: 5, forbid_match: [{contains: canary, kind: fact}]}
  - check: {query: "Omar canary", k: 5, match: [{contains: canary, source: consolidated}]}
  - check: {query: "Omar", k: 5, at_most: {Omar: 1}}
  - check: {query: "Omar", k: 5, empty: true}
"""))
    checks = only(report)["checks"]
    assert [c["passed"] for c in checks] == [False] * 5
    whys = [c["why"] for c in checks]
    assert whys[0].startswith("top 'Zorblax': first hit is")
    assert whys[1].startswith("forbid_match[0] matched:")
    assert whys[2].startswith("match[0]")
    assert whys[3].startswith("at_most 'Omar': 2 of top-5")
    assert whys[4].startswith("empty: expected no hits")
    assert report["metrics"]["stale_recall_rate"] == round(1 / 5, 3)


def test_check_everywhere_finds_a_planted_string(hash_embedder):
    report = run(hash_embedder, PLANT.format(name="x", tags="forget", steps="""
  - check_everywhere: {forbid: [Zorblax-9931, Quetzalcoatl]}
"""))
    (c,) = only(report)["checks"]
    assert not c["passed"]
    assert "'Zorblax-9931' reachable via search" in c["why"] and "list" in c["why"] and "export" in c["why"]
    assert "Quetzalcoatl" not in c["why"]
    assert report["metrics"]["deletion_leaks"] == 1


def test_export_leaks_are_looked_for_in_text_never_in_ids_vectors_or_times():
    from kenning.evals.runner import _without_vectors

    export = {"memories": [{"id": "mem_0193081aa", "supersedes": ["mem_3081"], "embedding": [0.30812], "created_at": "2030-08-01",
                            "text": "Omar's code is 3081", "metadata": {"note": "3081"}}],
              "audit": [{"at": "2026-03-08T10:00:00", "memory_ids": ["mem_3081"], "reason": "rules: new claim"}]}
    kept = json.dumps(_without_vectors(export))
    assert kept.count("3081") == 2  # the text and the metadata, nothing else


def test_count_active_bounds_fail(hash_embedder):
    report = run(hash_embedder, PLANT.format(name="x", tags="capacity", steps="""
  - count_active: {max: 1}
  - count_active: {min: 3}
  - count_active: {min: 2, max: 2}
"""))
    assert [c["passed"] for c in only(report)["checks"]] == [False, False, True]


def test_a_failed_step_fails_every_later_check_even_one_that_would_pass(hash_embedder):
    # While extraction is missing every `say` raises CapabilityMissing; an
    # over-long text (valid YAML, rejected by the facade) makes a step raise
    # whatever is built.
    text = PLANT.format(name="x", tags="scoring", steps=f"""
  - remember: {{text: "{TOO_LONG}"}}
  - check: {{query: "Omar dog", k: 5, expect: [Biscuit]}}
""")
    report = run(hash_embedder, text)
    checks = only(report)["checks"]
    assert len(checks) == 1 and not checks[0]["passed"]
    assert "depends on failed step 2 (remember): ValidationError" in checks[0]["why"]
    assert "would have passed" in checks[0]["why"]


def test_a_failed_step_with_no_later_check_is_still_reported(hash_embedder):
    text = PLANT.format(name="x", tags="scoring", steps=f"""
  - check: {{query: "Omar dog", k: 5, expect: [Biscuit]}}
  - remember: {{text: "{TOO_LONG}"}}
""")
    checks = only(run(hash_embedder, text))["checks"]
    assert [c["passed"] for c in checks] == [True, False]
    assert checks[1]["kind"] == "remember" and "ValidationError" in checks[1]["why"]
    text = PLANT.format(name="x", tags="scoring", steps=f"""
  - remember: {{text: "{TOO_LONG}"}}
  - check: {{query: "Omar dog", k: 5, expect: [Biscuit]}}
  - forget: "{TOO_LONG}"
""")
    checks = only(run(hash_embedder, text))["checks"]
    assert [(c["step"], c["kind"], c["passed"]) for c in checks] == [(3, "check", False), (4, "forget", False)]
    assert "step 2" not in checks[1]["why"]


def test_one_broken_scenario_does_not_stop_the_others(hash_embedder):
    broken = parse(PLANT.format(name="broken", tags="a", steps=f"""
  - remember: {{text: "{TOO_LONG}"}}
  - check: {{query: "Omar dog", expect: [Biscuit]}}
"""), "a.yaml")
    fine = parse(PLANT.format(name="fine", tags="a", steps="""
  - check: {query: "Omar dog Biscuit", expect: [Biscuit]}
"""), "b.yaml")
    report = Runner(hash_embedder).run([broken, fine])
    assert [(s["name"], s["passed"], s["total"]) for s in report["scenarios"]] == [("broken", 0, 1), ("fine", 1, 1)]
    assert report["by_tag"] == {"a": {"passed": 1, "total": 2}}


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ("steps:\n  - dance: true\n  - count_active: {max: 1}\n", "step 0: unknown step kind 'dance'"),
        ("steps:\n  - check: {query: q, expect: [a], expct: [b]}\n", "step 0 (check): unknown check field 'expct'"),
        ("steps:\n  - check: {query: q, match: [{contains: a, colour: red}]}\n", "unknown check.match[0] field 'colour'"),
        ("steps:\n  - check: {query: q}\n", "check has no condition"),
        ("steps:\n  - remember: {text: t}\n", "at least one check"),
        ("steps:\n  - remember: {text: t, kind: rumour}\n  - count_active: {max: 1}\n", "remember.kind must be one of"),
        ("steps:\n  - check: {query: q, expect: [a]}\n    check_everywhere: {forbid: [a]}\n", "exactly one of"),
        ("steps:\n  - check: {query: q, expect: [a], expect: [b]}\n", "duplicate key 'expect'"),
        ("stepz: []\n", "unknown top-level key 'stepz'"),
        ("steps:\n  - maintain: false\n  - count_active: {max: 1}\n", "maintain must be true"),
        ("steps:\n  - at: yesterday\n    count_active: {max: 1}\n", "at must be an ISO 8601 time"),
        ("steps: [\n", "not valid YAML"),
    ],
)
def test_invalid_files_are_errors_naming_file_step_and_problem(tmp_path, body, problem):
    f = tmp_path / "bad.yaml"
    f.write_text("name: bad\n" + body)
    with pytest.raises(ScenarioError) as err:
        load_path(f)
    assert str(f) in str(err.value) and problem in str(err.value)


def test_cli_exits_non_zero_with_a_clear_message_for_an_invalid_file(tmp_path):
    (tmp_path / "ok.yaml").write_text("name: ok\nsteps:\n  - count_active: {max: 1}\n")
    (tmp_path / "zz.yaml").write_text("name: zz\nsteps:\n  - remember: {text: t}\n  - chek: {query: q}\n")
    result = CliRunner().invoke(eval_cmd, [str(tmp_path), "--json"])
    assert result.exit_code == 2
    assert "zz.yaml: step 1: unknown step kind 'chek'" in result.output
    assert not result.output.lstrip().startswith("{")  # no report printed for an invalid suite


def test_cli_reports_failures_as_json_with_exit_zero(tmp_path, minilm):
    (tmp_path / "s.yaml").write_text(PLANT.format(name="cli", tags="scoring", steps="""
  - check: {query: "What pet does Omar keep?", expect: [canary]}
  - check: {query: "What pet does Omar keep?", expect: [Quetzalcoatl]}
"""))
    result = CliRunner().invoke(eval_cmd, [str(tmp_path / "s.yaml"), "--json", "-q"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert set(report) == {"scenarios", "metrics", "by_tag"}
    assert [c["passed"] for c in report["scenarios"][0]["checks"]] == [True, False]
    assert report["metrics"]["checks_passed"] == 1 and report["metrics"]["checks_total"] == 2


@pytest.mark.parametrize("setting, problem", [("nope=1", "NAME a Settings field"), ("capacity", "NAME=VALUE"),
                                              ("chatter_cutoff=lots", "valid number")])
def test_cli_settings_are_checked_against_the_settings_fields(tmp_path, setting, problem):
    (tmp_path / "ok.yaml").write_text("name: ok\nsteps:\n  - count_active: {max: 1}\n")
    result = CliRunner().invoke(eval_cmd, [str(tmp_path), "--json", "-q", "--setting", setting])
    assert result.exit_code == 2 and problem in result.output, result.output


def test_cli_settings_reach_every_scenarios_store(tmp_path, minilm):
    # a capacity of 1 leaves one active memory of two: the setting is what makes the step fail
    (tmp_path / "s.yaml").write_text("name: cap\nsteps:\n  - remember: {text: User keeps bees.}\n"
                                     "  - remember: {text: User plays the oboe.}\n  - maintain: true\n  - count_active: {max: 1}\n")
    results = [json.loads(CliRunner().invoke(eval_cmd, [str(tmp_path), "--json", "-q", *extra]).output)["metrics"]["checks_passed"]
               for extra in ([], ["--setting", "capacity=1"])]
    assert results == [0, 1]


# -- extraction checks (``memories``) ------------------------------------------------


def test_memories_claim_that_nothing_holds_fails_and_lowers_claim_recall(hash_embedder):
    report = run(hash_embedder, PLANT.format(name="x", tags="extraction", steps="""
  - memories:
      claims:
        - {contains: [Zorblax, canary], kind: fact}
        - {contains: [Quetzalcoatl]}
"""))
    checks = only(report)["checks"]
    assert [c["passed"] for c in checks] == [True, False]
    assert "claim {contains: 'Quetzalcoatl'} held by no active memory" in checks[1]["why"]
    assert report["metrics"]["claim_recall"] == 0.5


def test_memories_contains_list_needs_every_string(hash_embedder):
    report = run(hash_embedder, PLANT.format(name="x", tags="extraction", steps="""
  - memories:
      claims: [{contains: [Zorblax, Biscuit]}]
"""))
    (c,) = only(report)["checks"]
    assert not c["passed"]  # the two strings live in two different memories


def test_memories_forbid_that_matches_fails(hash_embedder):
    report = run(hash_embedder, PLANT.format(name="x", tags="extraction", steps="""
  - memories:
      forbid: [{contains: [canary], min_confidence: 0.5}, {contains: [canary], kind: procedure}]
"""))
    checks = only(report)["checks"]
    assert [c["passed"] for c in checks] == [False, True]
    assert "matched: 'Omar keeps a canary called Zorblax-9931'" in checks[0]["why"]


def test_memory_precision_counts_every_unexpected_active_memory(hash_embedder):
    text = PLANT.format(name="x", tags="extraction", steps="""
  - say: "I live in Quito and I'm a dentist."
  - memories:
      claims: [{contains: [Quito], not_contains: [dentist]}]
""")
    report = run(hash_embedder, text)
    m = report["metrics"]
    # two remembered texts and Quito's claim are expected; the dentist's claim is not
    assert m["claim_recall"] == 1.0
    assert m["memory_precision"] == 0.75


def test_empty_claims_say_nothing_is_due_and_every_stored_memory_is_unexpected(hash_embedder):
    report = run(hash_embedder, PLANT.format(name="x", tags="extraction", steps="""
  - say: "I live in Quito and I'm a dentist."
  - memories:
      claims: []
"""))
    m = report["metrics"]
    # the two remembered texts are expected; both claims of the turn are not
    assert m["claim_recall"] is None  # no claims entry anywhere: nothing to recall
    assert m["memory_precision"] == 0.5


def test_memory_precision_is_one_when_everything_is_claimed_allowed_or_remembered(hash_embedder):
    report = run(hash_embedder, PLANT.format(name="x", tags="extraction", steps="""
  - say: "I live in Quito and I'm a dentist."
  - memories:
      claims: [{contains: [Quito], not_contains: [dentist]}]
      allow: [{contains: [dentist], not_contains: [Quito]}]
"""))
    assert report["metrics"]["memory_precision"] == 1.0


def test_memories_after_a_failed_step_fail_and_hold_no_claim(hash_embedder):
    report = run(hash_embedder, PLANT.format(name="x", tags="extraction", steps=f"""
  - say: "{TOO_LONG}"
  - memories:
      claims: [{{contains: [Zorblax]}}]
"""))
    (c,) = only(report)["checks"]
    assert not c["passed"] and c["why"].startswith("depends on failed step 2 (say)")
    assert report["metrics"]["claim_recall"] == 0.0


def test_no_memories_step_means_no_extraction_metrics(hash_embedder):
    report = run(hash_embedder, PLANT.format(name="x", tags="scoring", steps="""
  - check: {query: "canary", k: 5, expect: [Zorblax]}
"""))
    assert report["metrics"]["claim_recall"] is None and report["metrics"]["memory_precision"] is None


@pytest.mark.parametrize(
    "body, problem",
    [
        ("{allow: [{contains: [x]}]}", "needs claims or forbid"),
        ("{claims: [{contains: [x], colour: red}]}", re.escape("unknown memories.claims[0] field 'colour'")),
        ("{claims: {contains: [x]}}", "memories.claims must be a list"),
        ("{claims: [{contains: []}]}", "contains must be a non-empty list"),
        ("{claims: [{kind: opinion}]}", "kind must be one of"),
        ("[x]", "memories must be a mapping"),
    ],
)
def test_invalid_memories_step_is_rejected(body, problem):
    with pytest.raises(ScenarioError, match=problem):
        parse(f"name: x\nsteps:\n  - memories: {body}\n", "bad.yaml")


def test_check_match_contains_stays_a_single_string():
    with pytest.raises(ScenarioError, match="contains must be a non-empty string"):
        parse("name: x\nsteps:\n  - check: {query: q, match: [{contains: [a, b]}]}\n", "bad.yaml")
