"""What the fresh log set's builders share (`log_fresh_tools.py` and the modules it gathers):
writing a project, labelling a log's lines, picking the seeded names and failures.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

from log_sets import WORDS, Task

# Node tools print colours and progress for a terminal unless told it is CI.
NODE_ENV = {"FORCE_COLOR": "0", "CI": "1", "npm_config_update_notifier": "false"}


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def mark(
    lines: list[str], gold: Callable[[int, str], bool], crit: Callable[[str], bool]
) -> tuple[list[int], list[int]]:
    """1-based gold and critical line numbers: `gold(i, line)` for each line, `crit` among them."""
    g = [i + 1 for i, line in enumerate(lines) if line.strip() and gold(i, line)]
    return g, [k for k in g if crit(lines[k - 1])]


def block_from(lines: list[str], start: int, stop: re.Pattern[str]) -> set[int]:
    """0-based indices from `start` up to (not including) the next line matching `stop`."""
    out = {start}
    for j in range(start + 1, len(lines)):
        if stop.search(lines[j]):
            break
        out.add(j)
    return out


def pick(rng: random.Random, low: int, high: int) -> tuple[list[str], str]:
    names = rng.sample(WORDS, rng.randint(low, high))
    return names, names[rng.randint(1, len(names) - 2)]


def seeded_failure(rng: random.Random) -> tuple[int, str, int]:
    """A script's loop length, the record field it reads and the step (in the loop's second half)
    whose record is missing."""
    steps, field = rng.randint(30, 60), rng.choice(WORDS)
    return steps, field, rng.randint(steps // 2, steps - 3)


def as_task(lines: list[str], gold: list[int], crit: list[int], question: str) -> Task:
    return "\n".join(lines), gold, crit, question
