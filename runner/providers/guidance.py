"""The one guidance text both agents get: use the pruned tools, always with a focus question.

It lives in `guidance.md` beside this module so that `jeeves run` (system/developer prompt) and
any persistent-instructions installer ship the same words; it must stay short (≤ 200 cl100k
tokens) because it is paid on every model request.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

GUIDANCE_PATH = Path(__file__).with_name("guidance.md")


@cache
def guidance_text() -> str:
    """The guidance, without its final newline."""
    return GUIDANCE_PATH.read_text(encoding="utf-8").rstrip("\n")
