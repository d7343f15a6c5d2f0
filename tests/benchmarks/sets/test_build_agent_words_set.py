"""The agent-words set builder: an agent's views of files read from its trajectory, and a task made
from a view against a real git repository made here (the file at the base commit, the run's patch)."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[3] / "benchmarks" / "sets"))
from build_agent_words_set import View, build_trajectory, repository_of, views_before_edits
from build_commit_sets import load_manifest

MANIFEST = Path(__file__).parents[3] / "benchmarks" / "sets" / "manifest.toml"
INSTANCE = "octo__app-7"


def _step(action: str, observation: str, thought: str = "") -> dict[str, Any]:
    return {"action": action + "\n", "observation": observation, "thought": thought}


def _shown(path: str, lines: int) -> str:
    return f"[File: /octo__app/{path} ({lines} lines total)]\n1:import os\n"


def test_an_instance_id_names_its_repository() -> None:
    assert repository_of("sympy__sympy-24152") == "sympy/sympy"
    assert repository_of("pytest-dev__pytest-11143") == "pytest-dev/pytest"
    assert repository_of("scikit-learn__scikit-learn-13241") == "scikit-learn/scikit-learn"


def test_views_are_read_until_the_agent_edits_that_file() -> None:
    steps = [
        _step("find_file a.py", "Found 1 matches for a.py", "Find it."),
        _step("open src/a.py", _shown("src/a.py", 120), "Open the file to look at `run`."),
        _step("goto 50", _shown("src/a.py", 120), "Go to line 50."),
        _step("create repro.py", _shown("repro.py", 1), "A script."),
        _step("edit 1:1\nprint(1)\nend_of_edit", _shown("repro.py", 1), "Write it."),
        _step("open src/b.py", _shown("src/b.py", 200), "Now b."),
        _step("edit 50:50\n    return 2\nend_of_edit", _shown("src/a.py", 120), "Fix a."),
        _step("scroll_down", _shown("src/a.py", 120), "Look below the fix."),
        _step("scroll_up", _shown("src/b.py", 200), "Back up in b."),
        _step("open /elsewhere/c.py", "[File: /elsewhere/c.py (300 lines total)]\n", "Outside."),
    ]
    views = list(views_before_edits(steps, INSTANCE))
    assert views == [
        View("src/a.py", 120, "Open the file to look at `run`.", "open src/a.py"),
        View("src/a.py", 120, "Go to line 50.", "goto 50"),
        View("src/b.py", 200, "Now b.", "open src/b.py"),
        View("src/b.py", 200, "Back up in b.", "scroll_up"),
    ]


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=True, text=True).stdout


def _mirror_with_one_commit(tmp_path: Path) -> tuple[Path, str]:
    repo = tmp_path / "mirrors" / "octo+app" / "repo"
    (repo / "src").mkdir(parents=True)
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "dev@example.org")
    _git(repo, "config", "user.name", "A Developer")
    (repo / "src" / "a.py").write_text("".join(f"def f{i}():\n    return {i}\n\n" for i in range(40)))
    (repo / "src" / "b.py").write_text("".join(f"x{i} = {i}\n" for i in range(200)))
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "Base")
    return tmp_path / "mirrors", _git(repo, "rev-parse", "HEAD").strip()


# The run's submission: `return 16` (line 50 of a.py) rewritten, and a line inserted after line 89.
PATCH = (
    "diff --git a/src/a.py b/src/a.py\n"
    "--- a/src/a.py\n"
    "+++ b/src/a.py\n"
    "@@ -49,3 +49,3 @@\n"
    " def f16():\n"
    "-    return 16\n"
    "+    return -16\n"
    " \n"
    "@@ -88,3 +88,4 @@\n"
    " def f29():\n"
    "     return 29\n"
    "+    # checked\n"
    " \n"
    "diff --git a/repro.py b/repro.py\n"
    "new file mode 100644\n"
    "--- /dev/null\n"
    "+++ b/repro.py\n"
    "@@ -0,0 +1 @@\n"
    "+print(1)\n"
)


def _build(
    tmp_path: Path, steps: list[dict[str, Any]], max_views: int = 3
) -> tuple[list[dict[str, Any]], Counter[str]]:
    mirrors, base = _mirror_with_one_commit(tmp_path)
    traj = {"trajectory": steps, "info": {"submission": PATCH}}
    languages = load_manifest(MANIFEST.read_text()).languages
    why: Counter[str] = Counter()
    tasks = build_trajectory(traj, INSTANCE, base, "runs/r1", mirrors, languages, max_views, why)
    return tasks, why


def test_a_view_of_the_fixed_file_asks_the_agents_words_with_the_fixs_lines_as_gold(tmp_path: Path) -> None:
    tasks, _ = _build(tmp_path, [_step("open src/a.py", _shown("src/a.py", 120), "Let me look at f16.")])
    assert len(tasks) == 1
    task = tasks[0]
    lines = task["text"].split("\n")
    assert len(lines) == 120
    assert task["goal_hint"] == "Let me look at f16."
    assert task["critical"] == [50]
    assert lines[49] == "    return 16"
    # the insertion after line 89 (`    return 29`): its non-blank neighbours 89 and 91
    assert task["gold"] == [50, 89, 91]
    assert (task["repo"], task["path"], task["language"]) == ("octo/app", "src/a.py", "python")


def test_views_the_fix_leaves_alone_or_of_another_length_or_asked_before_give_no_task(tmp_path: Path) -> None:
    steps = [
        _step("open src/b.py", _shown("src/b.py", 200), "Open b."),
        _step("open src/a.py", _shown("src/a.py", 121), "A file of another length."),
        _step("open src/a.py", _shown("src/a.py", 120), "Open a."),
        _step("goto 50", _shown("src/a.py", 120), "Open a."),
        _step("goto 10", _shown("src/a.py", 120), ""),
    ]
    tasks, why = _build(tmp_path, steps)
    assert [t["goal_hint"] for t in tasks] == ["Open a."]
    assert why["file the fix leaves alone"] == 1
    assert why["not the file the agent saw"] == 1
    assert why["no thought, or asked already"] == 2


def test_a_file_keeps_only_its_first_views(tmp_path: Path) -> None:
    steps = [_step(f"goto {i}", _shown("src/a.py", 120), f"Look at line {i}.") for i in range(1, 6)]
    tasks, why = _build(tmp_path, steps, max_views=2)
    assert [t["goal_hint"] for t in tasks] == ["Look at line 1.", "Look at line 2."]
    assert why["file already has its views"] == 3
