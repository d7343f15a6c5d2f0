"""The rule benchmark's sets: files of one name in two splits stay two sets, or pool by split."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
import lang_bench
from rule_contributions import load_sets

pytestmark = pytest.mark.skipif(
    not lang_bench.HARNESS.exists(), reason="the shared harness is not on this machine"
)


def _write(path: Path, ids: list[str]) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps({"id": i}) + "\n" for i in ids), encoding="utf-8")
    return str(path)


def test_files_of_one_name_in_two_splits_are_two_sets(tmp_path: Path) -> None:
    paths = [
        _write(tmp_path / "dev" / "python.jsonl", ["d1"]),
        _write(tmp_path / "dev" / "go.jsonl", ["d2"]),
        _write(tmp_path / "train" / "python.jsonl", ["t1", "t2"]),
    ]
    sets = load_sets(paths, pool=False)
    assert {name: [t["id"] for t in tasks] for name, tasks in sets.items()} == {
        "dev/python": ["d1"],
        "go": ["d2"],
        "train/python": ["t1", "t2"],
    }


def test_pooled_sets_are_the_splits_with_their_languages_together(tmp_path: Path) -> None:
    paths = [
        _write(tmp_path / "dev" / "python.jsonl", ["d1"]),
        _write(tmp_path / "dev" / "go.jsonl", ["d2"]),
        _write(tmp_path / "dev" / "empty.jsonl", []),
        _write(tmp_path / "train" / "python.jsonl", ["t1"]),
    ]
    sets = load_sets(paths, pool=True)
    assert {name: [t["id"] for t in tasks] for name, tasks in sets.items()} == {
        "dev": ["d1", "d2"],
        "train": ["t1"],
    }
