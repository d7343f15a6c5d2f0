"""What every set builder reads and writes: a source file's lines at a commit, and a set's jsonl file.

The builders (`build_commit_sets.py`, `build_contextbench_set.py`, `build_agent_words_set.py`) differ
in where a question comes from; the text a task holds and the file a set is written to are the same
for all of them, and live here.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any

# The file a question is about: long enough that pruning matters, short enough to be one `read`.
MIN_TEXT_LINES, MAX_TEXT_LINES = 100, 4000


class UnusableFile(Exception):
    """Raised when a file at a commit can't be a task's text; `reason` is the skip counter's key."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def source_lines(git_dir: Path, commit: str, path: str) -> list[str]:
    """The file's lines at `commit` (without their `\\n`), as the engine would be given them.

    Raises:
        UnusableFile: "unreadable file" (absent at the commit, binary or not UTF-8), "file size"
            (outside MIN_TEXT_LINES..MAX_TEXT_LINES lines) or "CRLF file" (a `\\r` in it: the engine
            splits on `\\n`, and a diff's line numbers would disagree with what it is shown).
    """
    shown = subprocess.run(["git", f"--git-dir={git_dir}", "show", f"{commit}:{path}"], capture_output=True)
    if shown.returncode or b"\0" in shown.stdout:
        raise UnusableFile("unreadable file")
    try:
        text = shown.stdout.decode("utf-8")
    except UnicodeDecodeError:
        raise UnusableFile("unreadable file") from None
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    if not MIN_TEXT_LINES <= len(lines) <= MAX_TEXT_LINES:
        raise UnusableFile("file size")
    if "\r" in text:
        raise UnusableFile("CRLF file")
    return lines


def write_set(path: Path, tasks: Iterable[dict[str, Any]]) -> int:
    """Write tasks to `path`, one JSON object a line, in the order given; return how many."""
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with path.open("w", encoding="utf-8") as f:
        for task in tasks:
            f.write(json.dumps(task) + "\n")
            count += 1
    print(f"wrote {count} tasks to {path}")
    return count
