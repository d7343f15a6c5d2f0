"""The per-language bench reads every task file it is given, an empty one included."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
import lang_bench

pytestmark = pytest.mark.skipif(
    not lang_bench.HARNESS.exists(), reason="the shared harness is not on this machine"
)


def test_an_empty_task_file_is_a_row_saying_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "ruby_held.jsonl"
    empty.write_text("", encoding="utf-8")

    lang_bench.quality([str(empty)], with_path=False, group=None)

    rows = capsys.readouterr().out.splitlines()
    assert rows[-1].startswith("| ruby_held | 0 | no tasks |")
