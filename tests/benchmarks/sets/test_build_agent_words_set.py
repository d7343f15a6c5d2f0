"""The agent-words set builder: an agent's views of files read from a SWE-agent trajectory or a
Claude Code session, the split an instance goes to, and a task made from a view against a real git
repository made here (the file at the base commit, the fix's patch)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[3] / "benchmarks" / "sets"))
import pytest
from build_agent_words_set import (
    DEV,
    UNTOUCHED,
    Instance,
    Run,
    Runs,
    View,
    build_run,
    claude_code_views,
    load_source,
    read_runs,
    repository_of,
    session_records,
    split_of,
    swe_agent_views,
)
from build_commit_sets import load_manifest

SETS = Path(__file__).parents[3] / "benchmarks" / "sets"
MANIFEST = SETS / "manifest.toml"
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
    views = list(swe_agent_views(steps, INSTANCE))
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
    run = Run(INSTANCE, "swe-agent:r1", tuple(swe_agent_views(steps, INSTANCE)), PATCH)
    languages = load_manifest(MANIFEST.read_text()).languages
    why: Counter[str] = Counter()
    tasks = build_run(run, base, mirrors, languages, max_views, why)
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
    assert why["no words, or asked already"] == 2


def test_a_file_keeps_only_its_first_views(tmp_path: Path) -> None:
    steps = [_step(f"goto {i}", _shown("src/a.py", 120), f"Look at line {i}.") for i in range(1, 6)]
    tasks, why = _build(tmp_path, steps, max_views=2)
    assert [t["goal_hint"] for t in tasks] == ["Look at line 1.", "Look at line 2."]
    assert why["file already has its views"] == 3


def _assistant(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"type": "assistant", "message": {"role": "assistant", "content": list(blocks)}}


def _read(use_id: str, path: str, **window: int) -> dict[str, Any]:
    return {"type": "tool_use", "id": use_id, "name": "Read", "input": {"file_path": path, **window}}


def _edit(use_id: str, path: str) -> dict[str, Any]:
    return {"type": "tool_use", "id": use_id, "name": "Edit", "input": {"file_path": path}}


def _result(use_id: str, file: dict[str, Any] | str, is_error: bool = False) -> dict[str, Any]:
    block = {"type": "tool_result", "tool_use_id": use_id, "content": "…", "is_error": is_error}
    return {"type": "user", "message": {"role": "user", "content": [block]}, "toolUseResult": file}


def _file(path: str, content: str, start: int, total: int) -> dict[str, Any]:
    lines = content.split("\n")
    return {
        "type": "text",
        "file": {
            "filePath": path,
            "content": content,
            "numLines": len(lines),
            "startLine": start,
            "totalLines": total,
        },
    }


def test_a_claude_code_session_gives_its_reads_of_the_checkout_until_it_edits_that_file() -> None:
    a, b = "./work/testbed/src/a.py", "./work/testbed/src/b.py"
    records = [
        {"type": "user", "message": {"role": "user", "content": "Fix this bug: instance_id: octo__app-7"}},
        _assistant({"type": "thinking", "thinking": "The bug is in `f16`."}, _read("r1", a)),
        _result("r1", _file(a, "def f0():\n    return 0", 1, 121)),
        _assistant(
            {"type": "thinking", "thinking": "Hmm."}, {"type": "text", "text": "Now b, near line 50."}
        ),
        _assistant(_read("r2", b, offset=40, limit=20)),
        _result("r2", _file(b, "x39 = 39", 40, 201)),
        _assistant({"type": "text", "text": "A file outside the checkout."}, _read("r3", "/tmp/notes.py")),
        _result("r3", _file("/tmp/notes.py", "", 1, 1)),
        _assistant(
            {"type": "text", "text": "A file that isn't there."}, _read("r4", "./work/testbed/src/c.py")
        ),
        _result("r4", "Error: File does not exist.", is_error=True),
        _assistant({"type": "text", "text": "Fix a."}, _edit("e1", a)),
        _result("e1", {"filePath": a}),
        _assistant({"type": "text", "text": "Check the fix."}, _read("r5", a)),
        _result("r5", _file(a, "def f0():", 1, 121)),
    ]
    assert list(claude_code_views(records)) == [
        View(
            "src/a.py", 120, "The bug is in `f16`.", "Read {}", "thinking", ("def f0():", "    return 0"), 1
        ),
        View(
            "src/b.py",
            200,
            "Now b, near line 50.",
            'Read {"offset": 40, "limit": 20}',
            "text",
            ("x39 = 39",),
            40,
        ),
    ]


def test_a_view_with_its_lines_recorded_shows_the_file_only_if_those_lines_are_the_files() -> None:
    lines = ["a = 1", "b = 2", "c = 3"]
    assert View("m.py", 3, "w", "Read {}", shown=("a = 1", "b = 2", "c = 3", ""), shown_from=1).shows(lines)
    assert View("m.py", 3, "w", "Read {}", shown=("b = 2",), shown_from=2).shows(lines)
    # the same length, other lines: the session had changed the file by other means (a shell edit)
    assert not View("m.py", 3, "w", "Read {}", shown=("b = 20",), shown_from=2).shows(lines)
    assert not View("m.py", 4, "w", "Read {}", shown=("a = 1",), shown_from=1).shows(lines)
    # a SWE-agent view records only the length
    assert View("m.py", 3, "w", "open m.py").shows(lines)


def test_a_session_line_that_is_not_json_is_counted_and_passed_over() -> None:
    why: Counter[str] = Counter()
    records = list(
        session_records(['{"type": "user"}', 'sistant","uuid":"5328d5f9"}', "", '{"type": "x"}'], why)
    )
    assert records == [{"type": "user"}, {"type": "x"}]
    assert why["session line that is not JSON"] == 1


def test_an_instances_split_is_fixed_by_its_id_and_holds_every_run_of_it() -> None:
    instances = [f"octo__app-{n}" for n in range(1000)]
    splits = [split_of(i, 40) for i in instances]
    assert splits == [split_of(i, 40) for i in instances]
    assert 350 < splits.count(UNTOUCHED) < 450
    assert {split_of(i, 0) for i in instances} == {DEV}
    assert {split_of(i, 100) for i in instances} == {UNTOUCHED}
    # a larger untouched share only moves instances from dev to untouched
    assert all(split_of(i, 50) == UNTOUCHED for i in instances if split_of(i, 40) == UNTOUCHED)


def test_the_manifest_names_the_split_and_each_runs_gold() -> None:
    source = load_source((SETS / "agent_words.toml").read_text())
    assert 0 < source.untouched_percent < 100
    assert {r.format for r in source.runs} == {"swe-agent", "claude-code"}


def test_a_claude_code_run_cannot_take_its_gold_from_a_submission() -> None:
    text = (SETS / "agent_words.toml").read_text()
    session = 'folder = "cases/SWEContextBench Lite Past Experience"\ngold = "upstream"'
    assert session in text
    with pytest.raises(ValueError, match="gold"):
        load_source(text.replace(session, session.replace("upstream", "submission")))


def _runs_mirror(tmp_path: Path) -> tuple[Path, str]:
    """A mirror of a repository shipping two SWE-agent trajectories (only octo__app-7 resolved) and
    a Claude Code session."""
    repo = tmp_path / "mirrors" / "lab+runs" / "repo"
    (repo / "swe").mkdir(parents=True)
    (repo / "cc").mkdir()
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "dev@example.org")
    _git(repo, "config", "user.name", "A Developer")
    report = {"resolved_per_project": {"octo/app": ["octo__app-7"]}}
    (repo / "swe" / "final_report.json").write_text(json.dumps(report))
    for n in (7, 8):
        steps = [_step("open src/a.py", _shown("src/a.py", 120), f"Open a for {n}.")]
        traj = {"trajectory": steps, "info": {"submission": f"its own patch {n}"}}
        (repo / "swe" / f"octo__app-{n}.traj").write_text(json.dumps(traj))
    session = [
        {"type": "user", "message": {"role": "user", "content": "Fix it:\n  instance_id: octo__app-8\n"}},
        _assistant({"type": "text", "text": "Read a."}, _read("r1", "./w/testbed/src/a.py")),
        _result("r1", _file("./w/testbed/src/a.py", "def f0():", 1, 121)),
    ]
    (repo / "cc" / "s1.jsonl").write_text("\n".join(json.dumps(r) for r in session) + "\n")
    (repo / "cc" / "README.md").write_text("not a session\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "Runs")
    return tmp_path / "mirrors", _git(repo, "rev-parse", "HEAD").strip()


INSTANCES = {f"octo__app-{n}": Instance(f"base{n}", f"upstream fix {n}") for n in (7, 8)}


def test_a_swe_agent_record_reads_resolved_runs_with_their_patch_or_every_run_with_the_upstream_fix(
    tmp_path: Path,
) -> None:
    mirrors, commit = _runs_mirror(tmp_path)
    why: Counter[str] = Counter()
    resolved = list(
        read_runs(mirrors, Runs("swe-agent", "lab/runs", commit, "swe", "submission"), INSTANCES, why)
    )
    assert [(r.instance, r.source, r.patch) for r in resolved] == [
        ("octo__app-7", "swe-agent:swe", "its own patch 7")
    ]
    every = list(read_runs(mirrors, Runs("swe-agent", "lab/runs", commit, "swe", "upstream"), INSTANCES, why))
    assert [(r.instance, r.patch) for r in every] == [
        ("octo__app-7", "upstream fix 7"),
        ("octo__app-8", "upstream fix 8"),
    ]
    assert [v.words for v in every[1].views] == ["Open a for 8."]


def test_a_claude_code_record_reads_each_session_as_a_run_of_the_instance_its_prompt_names(
    tmp_path: Path,
) -> None:
    mirrors, commit = _runs_mirror(tmp_path)
    why: Counter[str] = Counter()
    runs = list(read_runs(mirrors, Runs("claude-code", "lab/runs", commit, "cc", "upstream"), INSTANCES, why))
    assert [(r.instance, r.source, r.patch) for r in runs] == [
        ("octo__app-8", "claude-code:s1", "upstream fix 8")
    ]
    assert [(v.path, v.words) for v in runs[0].views] == [("src/a.py", "Read a.")]
