"""The bundled MiniLM's graph with onnxruntime's fused CPU operators, built once from the package's file and cached.

The package's file is a PyTorch (dynamo) export: each attention is some 30
small nodes (reshapes, transposes, a mask built from ``IsNaN``/``Where``)
that onnxruntime's fusions do not recognise. ``build`` writes the same
network with onnxruntime's own CPU operators: per layer one ``Attention``
(the query, key and value weights side by side, so one GEMM), then MatMul,
Add and LayerNormalization, MatMul and ``BiasGelu``, MatMul, Add and
LayerNormalization; ``EmbedLayerNormalization`` for the embeddings; and the
sentence-transformers pooling at the end (mean over the attention mask, L2
normalisation), so its output is the ``sentence_embedding`` itself. The
weights stay the file's int8 values times their per-column fp32 scales (a
Cast and a Mul that onnxruntime folds at load, as it does for the original),
so the arithmetic is the same fp32 and the vectors equal the original's up
to float rounding. A candidate is checked against the original file on
``PROBES`` (a padded batch) before it is kept: cosine at least ``MIN_COSINE``
for each, else it is discarded and the original is used. The model id is
unchanged.

The result lives in the user's cache directory (``$XDG_CACHE_HOME/kenning``,
``~/.cache/kenning``), named by the builder's version, the source file's
digest and its own digest. It is written to a temporary file and renamed
into place, so two processes building at once cannot leave a half-written
file under the final name; a file whose bytes do not match the digest in its
name is deleted and rebuilt, never loaded. Building needs the ``onnx``
package and takes about a second, once; nothing is downloaded. Any failure
(``onnx`` missing, a read-only cache, a failed check) leaves ``cached``
returning ``None``: slower, never different.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

log = logging.getLogger("kenning.embedders")

VERSION = 2  # bump whenever ``build`` writes a different graph: old cache files are then ignored
MIN_COSINE = 0.99999
PROBES = (
    "Alice is allergic to peanuts",
    "Where does Alice live?",
    "which foods make her ill?",
    "User prefers tea in the morning and coffee after lunch, never decaf.",
    "ok",
    "Bob moved from Leeds to York in March 2023 because of his new job at the hospital; "
    "his sister still lives in Leeds and they meet every other weekend.",
    "Ça va? Über 3 km zu Fuß, 東京",
    "",
)
_PREFIX = "minilm-fused"


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/kenning``, or ``~/.cache/kenning``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "kenning"


def cached(source: Path, cache_dir: Path, vectors: Callable[[Path], np.ndarray]) -> Path | None:
    """The fused graph of ``source`` in ``cache_dir``, built and checked first if no intact copy is there.

    ``vectors(path)`` embeds ``PROBES`` with the model file at ``path``; a new
    build is kept only if its vectors match the source's. ``None`` when the
    graph cannot be had (the caller then loads ``source`` itself). The name
    holds the onnxruntime version too, so a new runtime checks a new build.
    """
    try:
        import onnxruntime

        stem = f"{_PREFIX}-v{VERSION}-ort{onnxruntime.__version__}-{_digest(source)[:16]}"
        for path in sorted(cache_dir.glob(f"{stem}-*.onnx")):
            if _digest(path)[:16] == path.name[len(stem) + 1 : -len(".onnx")]:
                return path
            log.warning("discarding corrupt cached model %s", path)
            path.unlink(missing_ok=True)
        cache_dir.mkdir(parents=True, exist_ok=True)
        for stale in cache_dir.glob(f".{_PREFIX}-*.tmp"):  # left by a process killed while building
            if time.time() - stale.stat().st_mtime > 3600:
                stale.unlink(missing_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{stem}-", suffix=".tmp", dir=cache_dir)
        os.close(fd)
        tmp = Path(tmp_name)
        try:
            build(source, tmp)
            _check(vectors(source), vectors(tmp))
            final = cache_dir / f"{stem}-{_digest(tmp)[:16]}.onnx"
            os.replace(tmp, final)
        finally:
            tmp.unlink(missing_ok=True)
        return final
    # Anything going wrong here only costs speed: the caller falls back to the original file.
    except Exception as exc:
        log.warning("using the original MiniLM graph (the fused one could not be built in %s: %s)", cache_dir, exc)
        return None


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _check(reference: np.ndarray, candidate: np.ndarray) -> None:
    if reference.shape != candidate.shape:
        raise ValueError(f"the fused graph's output has shape {candidate.shape}, the original's {reference.shape}")
    cosines = np.sum(reference * candidate, axis=1)
    if not np.all(cosines >= MIN_COSINE):
        raise ValueError(f"the fused graph's vectors differ from the original's (lowest cosine {cosines.min():.6f})")


def build(source: Path, out: Path) -> None:
    """Write the fused graph of the package's MiniLM file ``source`` to ``out`` (needs ``onnx``)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(source))
    graph = _Graph(model.graph)
    nodes, weights = [], []

    def const(name: str, value: np.ndarray) -> str:
        weights.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def dequantised(name: str, q: np.ndarray, scale: np.ndarray) -> str:
        const(f"{name}_q", q)
        const(f"{name}_scale", scale)
        nodes.append(helper.make_node("Cast", [f"{name}_q"], [f"{name}_f"], to=TensorProto.FLOAT))
        nodes.append(helper.make_node("Mul", [f"{name}_f", f"{name}_scale"], [name]))
        return name

    def op(kind: str, inputs: list[str], out: str, **attrs) -> str:
        domain = "com.microsoft" if kind in ("Attention", "BiasGelu") else ""
        nodes.append(helper.make_node(kind, inputs, [out], domain=domain, **attrs))
        return out

    def add_norm(x: str, bias: str, residual: str, prefix: str, out: str) -> str:
        # Add + Add + LayerNormalization, not SkipLayerNormalization: onnxruntime's fused kernel
        # was three times slower on one thread here (the session also turns that fusion off).
        h = op("Add", [op("Add", [x, bias], f"{out}_b"), residual], f"{out}_r")
        gamma, beta = const(f"{out}_g", graph.init(f"{prefix}.weight")), const(f"{out}_be", graph.init(f"{prefix}.bias"))
        return op("LayerNormalization", [h, gamma, beta], out, axis=-1, epsilon=graph.eps)

    def dense(x: str, module: str, name: str) -> tuple[str, str]:
        """x @ W of a Linear (int8 weights), and its bias's name."""
        q, scale, bias = graph.dense(module)
        return op("MatMul", [x, dequantised(f"{name}_w", q, scale)], name), const(f"{name}_bias", bias)

    e = "inner.embeddings"
    for name in ("input_ids", "token_type_ids", "attention_mask"):
        op("Cast", [name], f"{name}32", to=TensorProto.INT32)
    embeddings = [
        dequantised("word", *graph.table(f"{e}.word_embeddings.weight")),
        dequantised("position", *graph.table(f"{e}.position_embeddings.weight")),
        const("types", graph.init(f"{e}.token_type_embeddings.weight")),
        const("ln0_g", graph.init(f"{e}.LayerNorm.weight")),
        const("ln0_b", graph.init(f"{e}.LayerNorm.bias")),
    ]
    nodes.append(
        helper.make_node(
            "EmbedLayerNormalization",
            ["input_ids32", "token_type_ids32", *embeddings],
            ["h0", "mask_index"],
            domain="com.microsoft",
            epsilon=graph.eps,
        )
    )
    x, layers = "h0", graph.layers()
    for i in range(layers):
        p = f"inner.encoder.layer.{i}"
        qkv = [graph.dense(f"{p}.attention.self.{n}") for n in ("query", "key", "value")]
        w = dequantised(f"qkv{i}", np.concatenate([q for q, _, _ in qkv], axis=1), np.concatenate([s for _, s, _ in qkv], axis=1))
        b = const(f"qkv{i}_b", np.concatenate([b for _, _, b in qkv]))
        mask_value = float(np.finfo(np.float32).min)  # the export's additive mask value
        att = op("Attention", [x, w, b, "attention_mask32"], f"att{i}", num_heads=graph.heads(), mask_filter_value=mask_value)
        mid = add_norm(*dense(att, f"{p}.attention.output.dense", f"ao{i}"), x, f"{p}.attention.output.LayerNorm", f"mid{i}")
        act = op("BiasGelu", list(dense(mid, f"{p}.intermediate.dense", f"in{i}")), f"act{i}")
        x = add_norm(*dense(act, f"{p}.output.dense", f"d{i}"), mid, f"{p}.output.LayerNorm", f"h{i + 1}")
    # Pooling in the graph: after the model's run the same few numpy calls cost about 0.25 ms more (caches cold).
    mask = op("Cast", ["attention_mask"], "maskf", to=TensorProto.FLOAT)
    axis1, axis2 = const("axis1", np.array([1], dtype=np.int64)), const("axis2", np.array([2], dtype=np.int64))
    summed = op("ReduceSum", [op("Mul", [x, op("Unsqueeze", [mask, axis2], "mask3")], "masked"), axis1], "summed", keepdims=0)
    count = op("Max", [op("ReduceSum", [mask, axis1], "count", keepdims=1), const("tiny", np.array(1e-9, dtype=np.float32))], "countc")
    op("LpNormalization", [op("Div", [summed, count], "mean")], "sentence_embedding", axis=1, p=2)
    ints = [helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "sequence"]) for n in ("input_ids", "attention_mask", "token_type_ids")]
    pooled = [helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT, ["batch", graph.width()])]
    fused = helper.make_model(
        helper.make_graph(nodes, "minilm_fused", ints, pooled, weights),
        opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)],
    )
    fused.ir_version = model.ir_version
    onnx.save(fused, str(out))


class _Graph:
    """Reads the weights of the export's named modules: the int8 matrices, their scales, the biases."""

    def __init__(self, graph) -> None:
        from onnx import numpy_helper

        self.inits = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
        self.producer = {o: n for n in graph.node for o in n.output}
        self.consumers: dict[str, list] = {}
        for n in graph.node:
            for i in n.input:
                self.consumers.setdefault(i, []).append(n)
        norms = [n for n in graph.node if n.op_type == "LayerNormalization"]
        self.eps = next(a.f for a in norms[0].attribute if a.name == "epsilon")

    def init(self, name: str) -> np.ndarray:
        return self.inits[name]

    def table(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        return self.inits[f"{name}_q"], self.inits[f"{name}_scale"]

    def dense(self, module: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A Linear's int8 weight (in, out), its per-column scale and its bias: MatMul(x, Cast(q) * scale) + bias."""
        bias = f"{module}.bias"
        add = next(n for n in self.consumers[bias] if n.op_type == "Add")
        matmul = self.producer[next(i for i in add.input if i != bias)]
        mul = self.producer[matmul.input[1]]
        cast = self.producer[mul.input[0]]
        if (matmul.op_type, mul.op_type, cast.op_type) != ("MatMul", "Mul", "Cast"):
            raise ValueError(f"unexpected graph around {module}")
        return self.inits[cast.input[0]], self.inits[mul.input[1]], self.inits[bias]

    def layers(self) -> int:
        n = 0
        while f"inner.encoder.layer.{n}.attention.self.query.bias" in self.inits:
            n += 1
        return n

    def width(self) -> int:
        return int(self.inits["inner.embeddings.LayerNorm.weight"].shape[0])

    def heads(self) -> int:
        # all-MiniLM-L6-v2's 12 heads of 32: the export does not name the count (a wrong one
        # would fail the comparison with the original file).
        return 12
