"""Evaluation: scripted multi-session scenarios (``scenarios/SPEC.md``) and LoCoMo evidence recall.

- ``scenario``: load and strictly validate scenario files.
- ``runner``: run them step by step through the public facade, one fresh store each.
- ``checks`` / ``metrics``: pure evaluation of checks and the report's metrics.
- ``locomo``: turn-level evidence recall on LoCoMo (retrieval only).
- ``locomo_add``: LoCoMo through ``add()``: recall by ``source_refs``, observation coverage, ingest cost.
- ``cli``: ``kenning eval PATH`` and ``kenning eval locomo PATH``.
"""
