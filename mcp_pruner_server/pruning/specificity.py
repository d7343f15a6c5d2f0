"""How much a question says about which unit it means, and the budget that follows from it.

A question whose words single out a unit ("Save breakpoints when file is saved") is pruned to
its focus. One whose words fit many units alike ("Let me look at the current implementation",
"Tighten public client methods") is not: pruning it as hard is a guess, and what the model does
not receive it reads again. Such a question keeps more lines, and one of which nothing is in the
text keeps them all; the result says so (`stats.budget_reason`), so a vague question costs
tokens, never the needed line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mcp_pruner_server.pruning.select import Unit

# A unit scoring at least this fraction of the best one is one the question may as well mean.
NEAR_BEST = 0.5
# A question is vague when at least this fraction of the units are near the best one. On the
# commit-question dev sets (click, httpx) the tasks past it had recall 0.68 / 0.50 at ratio 0.8,
# those under 0.05 had 0.76 / 0.80; on the shared docstring set 0.75 against 0.95.
VAGUE_SPREAD = 0.15
# ... and at least this many units are (in a file of five definitions, two alike are no sign).
VAGUE_MIN_NEAR = 3
# A vague question keeps this many times the lines the ratio asks for (at most all of them).
VAGUE_KEEP_FACTOR = 2.0

VAGUE = "vague_question"
NO_TERMS = "question_not_in_text"


@dataclass(frozen=True)
class Budget:
    """The fraction of lines to keep at least, and why it is more than the options asked for."""

    keep_fraction: float
    reason: str | None = None


def question_budget(units: Sequence[Unit], keep_fraction: float) -> Budget:
    """The budget for a question whose units scored `units`, the options asking to keep at least
    `keep_fraction` of the lines: that when the question singles out a few units; more when many
    score near the best (`VAGUE`); everything when none scores at all (`NO_TERMS`)."""
    if not units:
        return Budget(keep_fraction)
    best = max(u.score for u in units)
    if best <= 0:
        return Budget(1.0, NO_TERMS)
    near = sum(1 for u in units if u.score >= NEAR_BEST * best)
    if near >= VAGUE_MIN_NEAR and near / len(units) >= VAGUE_SPREAD and keep_fraction < 1.0:
        return Budget(min(1.0, keep_fraction * VAGUE_KEEP_FACTOR), VAGUE)
    return Budget(keep_fraction)
