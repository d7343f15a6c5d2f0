"""Window variants of code task sets: the file as an agent reads it, a slice at a time.

    python benchmarks/slice_sets.py TASKS.jsonl OUT.jsonl              # `sed -n 'a,bp' f`
    python benchmarks/slice_sets.py --numbered TASKS.jsonl OUT.jsonl   # `nl -ba f | sed -n 'a,bp'`
    python benchmarks/lang_bench.py --with-path OUT.jsonl

Coding agents read files through the shell in windows (`sed -n '120,360p' f`, `head -n 300 f`,
`nl -ba f | sed -n ...`, `cat -n f`). Each task of TASKS.jsonl (fields id, kind, source_type,
lang, path, goal_hint, text, gold, critical; gold and critical are 1-based line numbers) becomes
one task whose text is a window of its file:

- Its size W is drawn from 150-400 lines (`--sizes`), from a hash of the task id (deterministic, no seed);
  widened to the target's span plus 20 lines when the target is longer. A file of at most W
  lines is given whole (as `sed -n '1,300p'` of a short file prints it).
- Its start is drawn (same hash) among the starts whose window holds the whole target, then
  moved to the nearest indented non-blank line in that range, and its end likewise pulled back
  to an indented non-blank line when one is within 15 lines: so the window usually starts and
  ends inside some other unit (mid-function, mid-class, mid-docstring or comment), as a
  window chosen by line numbers does.
- gold and critical are renumbered to the window; path, goal_hint and the rest are kept; the
  id gets `#w` (or `#n`) and the fields `window` = [first, last] (1-based lines of the file).

With `--numbered` each line carries `nl -ba`'s prefix, the file's line number as `%6d\\t`
(`cat -n` prints the same), blank lines included (they become `     7\\t`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from typing import Any

WINDOW_MIN = 150
WINDOW_MAX = 400
# A target longer than the window still fits whole, with this many lines of context around it.
TARGET_MARGIN = 20
# How far the end may be pulled back to land inside an indented line.
END_PULL = 15


def _draw(task_id: str, salt: str, lo: int, hi: int) -> int:
    """A number in [lo, hi], fixed by the task id."""
    digest = hashlib.sha256(f"{salt}:{task_id}".encode()).digest()
    return lo + int.from_bytes(digest[:8], "big") % (hi - lo + 1)


def _inside(line: str) -> bool:
    """Indented and non-blank: a line that belongs to some enclosing unit."""
    return bool(line.strip()) and line[:1] in (" ", "\t")


def window_of(task: dict[str, Any], sizes: tuple[int, int] = (WINDOW_MIN, WINDOW_MAX)) -> tuple[int, int]:
    """The 0-based [start, end) of the task's window, of a size drawn from `sizes`."""
    lines = task["text"].split("\n")
    n = len(lines)
    marks = [g - 1 for g in task["gold"]] + [c - 1 for c in task["critical"]]
    first, last = min(marks), max(marks)
    size = max(_draw(task["id"], "size", *sizes), last - first + 1 + TARGET_MARGIN)
    if n <= size:
        return 0, n
    lo, hi = max(0, last + 1 - size), min(first, n - size)
    start = _draw(task["id"], "start", lo, hi)
    candidates = sorted(range(lo, hi + 1), key=lambda s: (abs(s - start), s))
    start = next((s for s in candidates if _inside(lines[s])), start)
    end = start + size
    for e in range(end, max(last, end - END_PULL), -1):
        if _inside(lines[e - 1]):
            end = e
            break
    return start, end


def slice_task(
    task: dict[str, Any], numbered: bool, sizes: tuple[int, int] = (WINDOW_MIN, WINDOW_MAX)
) -> dict[str, Any]:
    start, end = window_of(task, sizes)
    lines = task["text"].split("\n")[start:end]
    if numbered:
        lines = [f"{start + i + 1:6d}\t{line}" for i, line in enumerate(lines)]
    out = dict(task)
    out["id"] = f"{task['id']}#{'n' if numbered else 'w'}"
    out["text"] = "\n".join(lines)
    out["gold"] = [g - start for g in task["gold"]]
    out["critical"] = [c - start for c in task["critical"]]
    out["window"] = [start + 1, end]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--numbered", action="store_true", help="prefix each line as `nl -ba` does")
    ap.add_argument(
        "--sizes",
        type=int,
        nargs=2,
        default=(WINDOW_MIN, WINDOW_MAX),
        metavar=("MIN", "MAX"),
        help="window sizes in lines (`--sizes 700 1100 --numbered`: `cat -n` of files for --latency)",
    )
    ap.add_argument("tasks")
    ap.add_argument("out")
    args = ap.parse_args()
    with open(args.tasks, encoding="utf-8") as f:
        tasks = [json.loads(line) for line in f if line.strip()]
    with open(args.out, "w", encoding="utf-8") as f:
        for task in tasks:
            if task["source_type"] == "code" and task["gold"]:
                f.write(
                    json.dumps(slice_task(task, args.numbered, tuple(args.sizes)), ensure_ascii=False) + "\n"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
