"""The suite's own configuration: a failing property test is reported as one failure, and the run goes on.

Under ``filterwarnings = error`` hypothesis's report of a falsifying example once imported black, whose
import of mypy_extensions warned; the warning became an INTERNALERROR and the rest of the run was lost.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

FAILING = '''
from hypothesis import given, settings
from hypothesis import strategies as st


@settings(max_examples=20, database=None)
@given(st.integers())
def test_fails(n):
    assert n < 3


def test_after():
    assert True
'''


def test_a_failing_property_test_fails_cleanly_and_the_run_goes_on(tmp_path):
    (tmp_path / "test_prop.py").write_text(FAILING)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path),
         "-p", "no:cacheprovider", "-q", str(tmp_path / "test_prop.py")],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    out = run.stdout + run.stderr
    assert "INTERNALERROR" not in out, out[-2000:]
    assert "1 failed, 1 passed" in out, out[-2000:]
    assert "Falsifying example" in out
