"""The extraction corpus (tests/extraction, SPEC "Extraction checks") through the eval runner with the real
bundled embedder and parser: the measured figures may not fall.

The floors sit a little under the figures recorded in docs/benchmarks.md, so a change that makes extraction
worse on unseen chat turns this red. ``test/`` was written blind and is never tuned on; ``dev2/``–``dev5/``
were written blind later and measured once before any tuning on them; ``val/`` was written blind beside
``dev3/`` and only its aggregate figures are ever read; ``dev6/`` was written blind at the end of session 6
to measure how that session's changes carry over, and is not tuned on either; ``dev7/`` was written blind in
session 7 and measured once (on the session-start engine and on the working tree of that moment) before
any tuning on it; ``dev8/`` likewise in session 8 (its first run is in docs/benchmarks.md, "Eighth
pass"); ``dev9/`` likewise in session 10 ("Ninth pass"), ``dev10/`` in session 11 ("Tenth pass") ``dev11/`` in session 12 ("Eleventh pass") ``dev12/`` in session 13 ("Twelfth pass") ``dev13/`` in session 14 ("Thirteenth pass") ``dev14/`` in session 15 ("Fourteenth pass") and ``dev15/`` in session 16 ("Fifteenth pass") and ``dev16/`` in session 17 ("Sixteenth pass"; first run 0.838 / 0.805 on the engine before any change); ``dev17/`` and
``dev18/`` in session 19 ("Seventeenth pass"; first runs 0.855 / 0.843 and 0.891 / 0.764); ``dev19/`` and ``dev20/`` in
sessions 20 and 21 ("Eighteenth pass"; first runs 0.899 / 0.760 and 0.915 / 0.860); ``dev21/`` at the end of session
21 and ``dev22/`` in session 22 ("Nineteenth pass"; first runs 0.831 / 0.793 and 0.890 / 0.879); ``dev23/`` in session
23 ("Twentieth pass"; first run 0.904 / 0.891); ``dev24/`` in session 24 ("Twenty-first pass"; first run 0.868 / 0.826,
8 deletion leaks); ``dev25/`` in session 25 ("Twenty-second pass"; first run 0.877 / 0.870, 7 deletion leaks); ``dev26/`` in
session 26 ("Twenty-third pass"; first run 0.786 / 0.863); ``dev27/`` in session 27 ("Twenty-fourth pass"; first run
0.714 / 0.890); ``dev28/`` in session 28 ("Twenty-fifth pass"; first run 0.738 / 0.772); ``dev29/`` in session 29 ("Twenty-sixth
pass"; first run 0.691 / 0.723); ``dev30/`` in session 30 ("Twenty-seventh pass"; first run 0.853 / 0.706); a floor is no
target.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kenning.evals.runner import Runner
from kenning.evals.scenario import load_path

CORPUS = Path(__file__).parent / "extraction"
# (claim_recall, memory_precision, deletion_leaks) floors per half
FLOORS = {"dev": (0.84, 0.84, 0), "dev2": (0.89, 0.75, 0), "dev3": (0.85, 0.86, 0), "dev4": (0.85, 0.82, 0), "dev5": (0.82, 0.80, 0), "dev6": (0.86, 0.84, 0), "dev7": (0.83, 0.86, 0), "dev8": (0.85, 0.80, 0), "dev9": (0.87, 0.88, 0), "dev10": (0.84, 0.82, 0), "dev11": (0.85, 0.81, 0), "dev12": (0.89, 0.80, 0), "dev13": (0.88, 0.84, 0), "dev14": (0.88, 0.81, 0), "dev15": (0.89, 0.84, 0), "dev16": (0.91, 0.82, 0), "dev17": (0.86, 0.83, 0), "dev18": (0.88, 0.78, 0), "dev19": (0.91, 0.76, 0), "dev20": (0.95, 0.86, 0), "dev21": (0.84, 0.78, 0), "dev22": (0.91, 0.86, 0), "dev23": (0.95, 0.86, 0), "dev24": (0.89, 0.82, 0), "dev25": (0.93, 0.86, 0), "dev26": (0.84, 0.84, 0), "dev27": (0.76, 0.87, 0), "dev28": (0.76, 0.76, 0), "dev29": (0.71, 0.72, 0), "dev30": (0.90, 0.71, 0), "val": (0.85, 0.77, 0), "test": (0.78, 0.82, 0)}
SIZES = {"dev": 60, "dev2": 80, "dev3": 50, "dev4": 60, "dev5": 60, "dev6": 30, "dev7": 50, "dev8": 50, "dev9": 50, "dev10": 50, "dev11": 50, "dev12": 50, "dev13": 50, "dev14": 50, "dev15": 50, "dev16": 50, "dev17": 50, "dev18": 50, "dev19": 50, "dev20": 50, "dev21": 50, "dev22": 50, "dev23": 50, "dev24": 50, "dev25": 50, "dev26": 50, "dev27": 50, "dev28": 50, "dev29": 50, "dev30": 50, "val": 50, "test": 100}


@pytest.mark.slow
@pytest.mark.parametrize("half", sorted(FLOORS))
def test_extraction_metrics_hold(minilm, half):
    scenarios = load_path(CORPUS / half)
    assert len(scenarios) >= SIZES[half]
    m = Runner(minilm).run(scenarios)["metrics"]
    recall, precision, leaks = FLOORS[half]
    assert m["claim_recall"] >= recall, m
    assert m["memory_precision"] >= precision, m
    assert m["deletion_leaks"] <= leaks, m
