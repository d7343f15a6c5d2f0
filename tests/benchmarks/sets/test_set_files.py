"""What the set builders share: a file's lines at a commit of a real git repository made here (or
why it can't be a task's text), and the set file written from tasks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[3] / "benchmarks" / "sets"))
from set_files import UnusableFile, source_lines, write_set

LINES = [f"line {i}" for i in range(1, 151)]


def _repo_with_files(tmp_path: Path) -> tuple[Path, str]:
    repo = tmp_path / "r"
    repo.mkdir()
    git = ["git", "-C", str(repo)]
    subprocess.run([*git, "init", "-q"], check=True)
    (repo / "plain.py").write_text("\n".join(LINES) + "\n")
    (repo / "no_final_newline.py").write_text("\n".join(LINES))
    (repo / "crlf.py").write_bytes(("\r\n".join(LINES) + "\r\n").encode())
    (repo / "binary.dat").write_bytes(("\n".join(LINES) + "\n\0\n").encode())
    (repo / "latin1.py").write_bytes(("\n".join(LINES) + "\n# caf\xe9\n").encode("latin-1"))
    (repo / "short.py").write_text("\n".join(LINES[:99]) + "\n")
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run(
        [*git, "-c", "user.name=A", "-c", "user.email=a@example.org", "commit", "-q", "-m", "Add"], check=True
    )
    head = subprocess.run(
        [*git, "rev-parse", "HEAD"], capture_output=True, check=True, text=True
    ).stdout.strip()
    return repo / ".git", head


def test_a_files_lines_at_a_commit_are_its_lines_with_or_without_a_final_newline(tmp_path: Path) -> None:
    git_dir, head = _repo_with_files(tmp_path)
    assert source_lines(git_dir, head, "plain.py") == LINES
    assert source_lines(git_dir, head, "no_final_newline.py") == LINES


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("absent.py", "unreadable file"),  # not there at that commit (added later, or renamed)
        ("binary.dat", "unreadable file"),
        ("latin1.py", "unreadable file"),
        ("crlf.py", "CRLF file"),
        ("short.py", "file size"),
    ],
)
def test_a_file_that_cannot_be_a_tasks_text_says_why(tmp_path: Path, path: str, reason: str) -> None:
    git_dir, head = _repo_with_files(tmp_path)
    with pytest.raises(UnusableFile) as raised:
        source_lines(git_dir, head, path)
    assert raised.value.reason == reason


def test_a_set_file_holds_one_task_a_line_in_the_order_given(tmp_path: Path) -> None:
    tasks = [{"id": "b", "gold": [2]}, {"id": "a", "gold": [1]}]
    out = tmp_path / "split" / "python.jsonl"
    assert write_set(out, iter(tasks)) == 2
    assert [json.loads(line) for line in out.read_text().splitlines()] == tasks
