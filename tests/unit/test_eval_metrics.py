"""Pure parts of the evaluation: check evaluation, the report's metrics, LoCoMo parsing and metrics."""

from __future__ import annotations

import json
import math
from datetime import datetime, timezone

import numpy as np
import pytest

from kenning.errors import ValidationError
from kenning.evals import checks, locomo
from kenning.evals.metrics import Tally, build_report, format_report, percentile
from kenning.types import Memory

T = datetime(2026, 1, 1, tzinfo=timezone.utc)


def mem(text: str, **kw) -> Memory:
    base = dict(
        id="mem_x", tenant_id="t", user_id="u", kind="fact", text=text, embedding=None, source="user_said",
        source_refs=(), created_at=T, last_used_at=T, importance=0.5, confidence=0.9,
    )
    base.update(kw)
    return Memory(**base)


def spec(**kw):
    return {"query": "q", "k": 3, **kw}


def test_passing_check_has_no_failures():
    ms = [mem("User lives in York"), mem("User likes tea")]
    out = checks.evaluate(spec(expect=["york"], forbid=["Leeds"], top="YORK", empty=False, at_most={"tea": 1}), ms)
    assert out.failures == [] and out.leaked == [] and not out.stale


def test_matching_is_case_insensitive_substring():
    assert checks.contains("Booking QX7731", "qx77")
    assert not checks.contains("Booking", "bookings")


def test_match_fields():
    m = mem("Prefers aisle seats", kind="preference", source="consolidated", confidence=0.6, supersedes=("mem_a",))
    assert checks.satisfies(m, {"contains": "aisle", "kind": frozenset({"preference"}), "source": frozenset({"consolidated"})})
    assert checks.satisfies(m, {"supersedes": True, "max_confidence": 0.6, "min_confidence": 0.6, "sensitivity": "normal"})
    assert not checks.satisfies(m, {"supersedes": False})
    assert not checks.satisfies(m, {"contains": "aisle", "not_contains": ["seats"]})
    assert not checks.satisfies(m, {"max_confidence": 0.59})
    assert not checks.satisfies(m, {"min_confidence": 0.61})
    assert not checks.satisfies(m, {"kind": frozenset({"fact", "episode"})})


def test_every_condition_can_fail():
    ms = [mem("Lives in Leeds"), mem("Moved from Leeds to York")]
    out = checks.evaluate(
        spec(
            expect=["Paris"], forbid=["leeds"], top="York", empty=True,
            match=[{"contains": "york", "source": frozenset({"inferred"})}],
            forbid_match=[{"contains": "Leeds", "not_contains": ["York"]}], at_most={"leeds": 1},
        ),
        ms,
    )
    assert len(out.failures) == 7 and out.leaked == ["leeds"] and out.stale
    assert checks.evaluate(spec(empty=False), []).failures == ["empty: false, but nothing was returned"]
    assert checks.evaluate(spec(top="x"), []).failures == ["top 'x': nothing returned"]


def test_precision_counts():
    out = checks.evaluate(spec(relevant=["york", "sam"]), [mem("York"), mem("Sam's dog"), mem("tea")])
    assert (out.has_relevant, out.relevant_hits, out.returned_hits) == (True, 2, 3)


def test_report_metrics_and_undefined_ratios_are_null():
    empty = build_report([], Tally())
    assert empty["metrics"] == {
        "checks_passed": 0, "checks_total": 0, "pass_rate": None, "precision": None,
        "claim_recall": None, "memory_precision": None, "deletion_leaks": 0,
        "stale_recall_rate": None, "crowding_share": None, "search_ms_p50": 0.0, "search_ms_p95": 0.0,
    }
    tally = Tally(search_ms=[1.0, 2.0, 3.0, 100.0])
    leak = checks.evaluate(spec(forbid=["x"], relevant=["x"]), [mem("x"), mem("y")])
    tally.add_check(["forget", "reconcile"], leak, (1, 1))
    tally.add_check(["reconcile"], checks.evaluate(spec(expect=["y"]), [mem("y")]), (3, 0))
    tally.add_check(["forget"], leak, (10, 10), complete=False)  # counts as a leak, not in the ratios
    tally.everywhere_leaks = 2
    scenarios = [
        {"name": "a", "tags": ["forget", "x"], "passed": 1, "total": 3, "checks": []},
        {"name": "b", "tags": ["x"], "passed": 2, "total": 2, "checks": []},
    ]
    r = build_report(scenarios, tally)
    m = r["metrics"]
    assert (m["checks_passed"], m["checks_total"], m["pass_rate"]) == (3, 5, 0.6)
    assert m["precision"] == 0.5 and m["deletion_leaks"] == 4 and m["stale_recall_rate"] == 0.5
    assert m["crowding_share"] == 0.25 and m["search_ms_p50"] == 2.5 and m["search_ms_p95"] == pytest.approx(85.45)
    assert r["by_tag"] == {"forget": {"passed": 1, "total": 3}, "x": {"passed": 3, "total": 5}}
    assert set(r) == {"scenarios", "metrics", "by_tag"}
    json.dumps(r)
    assert "pass_rate" in format_report(r)


def test_percentile():
    assert percentile([], 50) == 0.0
    assert percentile([5.0], 95) == 5.0
    assert percentile([1.0, 2.0, 3.0], 50) == 2.0
    assert percentile([0.0, 10.0], 95) == pytest.approx(9.5)


def test_crowding_pairs_use_embeddings():
    from kenning.evals.runner import _pairs

    a = np.array([1.0, 0.0]); b = np.array([0.95, math.sqrt(1 - 0.95**2)]); c = np.array([0.0, 1.0])
    assert _pairs([mem("a", embedding=a), mem("b", embedding=b), mem("c", embedding=c)]) == (3, 1)
    assert _pairs([mem("a", embedding=a)]) == (0, 0)


# -- LoCoMo --------------------------------------------------------------------


def test_evidence_quirks_are_normalised():
    assert locomo.evidence_ids(["D8:6; D9:17"]) == ["D8:6", "D9:17"]
    assert locomo.evidence_ids(["D9:1 D4:4 D4:6"]) == ["D9:1", "D4:4", "D4:6"]
    assert locomo.evidence_ids(["D:11:26", "D30:05", "D", "D30:5"]) == ["D11:26", "D30:5"]


def test_session_dates():
    assert locomo.parse_date("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=timezone.utc)
    assert locomo.parse_date("12:09 am on 13 September, 2023") == datetime(2023, 9, 13, 0, 9, tzinfo=timezone.utc)
    with pytest.raises(ValidationError, match="unreadable LoCoMo session date"):
        locomo.parse_date("yesterday")


def test_item_metrics():
    gold = frozenset({"D1:1", "D2:2"})
    ranked = ["D9:9"] * 4 + ["D1:1"] + ["D9:9"] * 10 + ["D2:2"]
    m = locomo.item_metrics(ranked, gold)
    assert m["recall@5"] == 0.5 and m["recall@10"] == 0.5 and m["recall@20"] == 1.0 and m["any@10"] == 1.0
    assert m["mrr"] == 0.2
    assert m["ndcg@10"] == pytest.approx((1 / math.log2(6)) / (1 + 1 / math.log2(3)))
    perfect = locomo.item_metrics(["D1:1", "D2:2"], gold)
    assert perfect["ndcg@10"] == pytest.approx(1.0) and perfect["mrr"] == 1.0
    assert locomo.item_metrics([], gold) == {"recall@5": 0, "recall@10": 0, "recall@20": 0, "any@10": 0, "ndcg@10": 0, "mrr": 0}
    assert locomo.aggregate([]) == {"n": 0, **{k: 0.0 for k in locomo.METRIC_KEYS}}


TINY = [
    {
        "sample_id": "conv-x",
        "conversation": {
            "speaker_a": "Ann", "speaker_b": "Bo",
            "session_1_date_time": "9:00 am on 2 January, 2023",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a greyhound called Pixel."},
                {"speaker": "Bo", "dia_id": "D1:2", "text": "Lovely!", "blip_caption": "a photo of a dog", "img_url": ["u"]},
            ],
            "session_2_date_time": "3:15 pm on 20 March, 2023",
            "session_2": [{"speaker": "Ann", "dia_id": "D2:1", "text": "Pixel won a race at the track."}],
            "session_3_date_time": "1:00 pm on 1 April, 2023",  # a date with no session behind it
        },
        "qa": [
            {"question": "What is Ann's dog called?", "answer": "Pixel", "evidence": ["D1:1"], "category": 4},
            {"question": "What did Pixel win?", "answer": "a race", "evidence": ["D2:01", "D7:7"], "category": 1},
            {"question": "Would Ann like cats?", "answer": "maybe", "evidence": [], "category": 3},
            {"question": "What did Bo adopt?", "adversarial_answer": "a greyhound", "evidence": ["D1:1"], "category": 5},
        ],
    }
]


def test_load_tiny_file(tmp_path):
    f = tmp_path / "locomo.json"
    f.write_text(json.dumps(TINY))
    (conv,) = locomo.load(f)
    assert [t.dia_id for t in conv.turns] == ["D1:1", "D1:2", "D2:1"]
    assert conv.turns[1].text == "Bo: Lovely! [shares a photo of a dog] (9:00 am on 2 January, 2023)"
    assert conv.last_at == datetime(2023, 3, 20, 15, 15, tzinfo=timezone.utc)
    assert [(q.category, sorted(q.gold)) for q in conv.questions] == [("4", ["D1:1"]), ("1", ["D2:1"]), ("5", ["D1:1"])]
    assert conv.skipped == 1


def test_bad_files_are_clear_errors(tmp_path):
    f = tmp_path / "x.json"
    f.write_text("{not json")
    with pytest.raises(ValidationError, match="cannot read LoCoMo data"):
        locomo.load(f)
    f.write_text(json.dumps([{"sample_id": "c"}]))
    with pytest.raises(ValidationError, match="conversation 0 is not in LoCoMo's format"):
        locomo.load(f)


def test_run_on_tiny_file_through_the_facade(tmp_path, minilm):
    f = tmp_path / "locomo.json"
    f.write_text(json.dumps(TINY))
    report = locomo.run(f, embedder=minilm)
    assert set(report) == {"pooled", "categories", "halves", "ingest_s", "refused_turns", "search_ms_p50", "search_ms_p95"}
    assert list(report["categories"]) == ["1", "2", "3", "4", "5"]
    assert report["pooled"]["n"] == 2 and report["categories"]["5"]["n"] == 1 and report["categories"]["3"]["n"] == 0
    # three turns, k=20: every gold turn is retrieved
    assert report["pooled"]["recall@20"] == 1.0
    assert report["categories"]["4"]["mrr"] == 1.0  # the greyhound turn answers "What is Ann's dog called?"
    with pytest.raises(ValidationError, match="--k must be"):
        locomo.run(f, embedder=minilm, k=10)
    assert "pooled" in locomo.format_table(report)


def test_cli_locomo_json_shape_and_usage_errors(tmp_path):
    import importlib.util

    from click.testing import CliRunner

    from kenning.evals.cli import eval_cmd

    f = tmp_path / "locomo.json"
    f.write_text(json.dumps(TINY))
    runner = CliRunner()
    result = runner.invoke(eval_cmd, ["locomo", str(f), "--json", "-q"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert set(report["pooled"]) == {"n", "recall@5", "recall@10", "recall@20", "any@10", "ndcg@10", "mrr"}
    assert runner.invoke(eval_cmd, [str(f), "--k", "5"]).exit_code == 2  # --k is for locomo only
    assert runner.invoke(eval_cmd, ["locomo", str(f), "extra"]).exit_code == 2
    bad = runner.invoke(eval_cmd, ["locomo", str(tmp_path / "missing.json"), "-q"])
    assert bad.exit_code == 2 and "cannot read LoCoMo data" in bad.output
    png = tmp_path / "r.png"
    plotted = runner.invoke(eval_cmd, ["locomo", str(f), "-q", "--plot", str(png)])
    if importlib.util.find_spec("matplotlib") is None:
        assert plotted.exit_code == 1 and "needs matplotlib" in plotted.output
    else:
        assert plotted.exit_code == 0 and png.stat().st_size > 0
