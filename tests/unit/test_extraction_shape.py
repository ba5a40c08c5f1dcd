"""The extraction package's shape (issue 10): one concept per module, none over 400 lines, and each module
importable on its own, so a split never hides an import cycle behind the order modules happen to load in."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import kenning.lifecycle.extraction as package

MODULES = sorted(p for p in Path(package.__file__).parent.glob("*.py"))
LIMIT = 400


def test_the_walk_finds_the_package_modules():
    names = {p.stem for p in MODULES}
    assert {"claims", "grade", "attributes", "noise", "asking", "lasting", "passing", "makes", "clauses"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.stem)
def test_no_extraction_module_is_over_the_limit(path):
    lines = len(path.read_text().splitlines())
    assert lines <= LIMIT, f"{path.name} has {lines} lines; split it by concept"


@pytest.mark.parametrize("module", ["asking", "lasting", "grade", "passing", "makes", "noise", "claims", "attributes"])
def test_each_split_module_imports_on_its_own(module):
    done = subprocess.run([sys.executable, "-c", f"import kenning.lifecycle.extraction.{module}"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-600:]
