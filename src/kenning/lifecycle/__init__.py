"""The memory lifecycle's decisions: extraction, reconciliation, retrieval scoring,
consolidation, forgetting and safety. Pure functions over records and a ``now``
where possible; the stages that must read or write do so through a ``Context``."""
