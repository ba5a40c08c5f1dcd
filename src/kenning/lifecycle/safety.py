"""Write-time safety: sensitivity tagging, secrets, injected instructions, prompt rendering.

(Foundation version: sensitivity tagging only. The write-path work extends it.)
"""

from __future__ import annotations

from kenning.types import Sensitivity


def sensitivity_of(text: str) -> Sensitivity:
    """The sensitivity tag a claim gets at write time when the caller gives none."""
    return Sensitivity.NORMAL
