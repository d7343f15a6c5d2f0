"""An `agent_words_dev` set (issue 33): a real agent's own words just before it viewed a file as the
question, the lines its resolved fix changed in that file as the gold.

    python benchmarks/sets/build_agent_words_set.py --manifest benchmarks/sets/agent_words.toml \\
        --mirror-dir /work/.mirror --out /work/sets/real

The trajectories are public SWE-agent runs on SWE-bench Lite that AutoCodeRover's repository
(`nus-apr/auto-code-rover`) ships beside its own results: per run, one `.traj` per instance and a
`final_report.json` saying which instances the run resolved. The same repository holds, in its own
runs' `meta.json` files, each instance's base commit, and the list of SWE-bench Verified instances,
which are left out (the project's held-out agent sets are runs on SWE-bench Verified). The manifest
pins that repository's commit and names the runs. Nothing is checked out: the trajectories and every
file are read with `git show` from the mirrors that `fetch github:owner/name` leaves in
`--mirror-dir` (`owner+name/repo`), AutoCodeRover's and each instance repository's; an instance whose
repository is not there gives no task (django and scikit-learn are over `fetch`'s size limit).

A task is one view of a source file (a language of `manifest.toml`'s `[languages]`, not a test or
doc path, 100-4000 lines at the base commit) in a resolved run, before the agent edited that file:
  - a view is an `open`, `goto` or `scroll_*` action whose output starts `[File: PATH (N lines
    total)]`, N being the file's length at the base commit (else the agent saw another file);
  - the question is the agent's thought written before that action, as it wrote it;
  - the text is the file at the instance's base commit;
  - the gold is the non-blank lines the run's submitted patch deletes or rewrites in that file and,
    for an insertion, the nearest non-blank line on each side (as in the commit sets); `critical`
    is the deleted or rewritten lines. A view of a file the patch leaves alone gives no task;
  - at most `max_views_per_file` views of one file per trajectory (the first ones), and a thought
    already asked about that file in that trajectory is not asked again.
It writes `OUT/agent_words_dev/<language>.jsonl` in the commit sets' format (`question_kind` too),
with `source` = `swe-agent:<run folder>`, `instance` and `action` (the view's command).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tomllib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from build_commit_sets import (
    Language,
    Repo,
    defined_names,
    git_dir_of,
    gold_from_diff,
    is_aside,
    load_manifest,
    question_kind,
)
from build_contextbench_set import file_patches, language_of, zero_context
from set_files import UnusableFile, source_lines, write_set

SPLIT = "agent_words_dev"
# What SWE-agent prints when it shows a window of a file: its path in the container and its length.
_FILE_SHOWN = re.compile(r"^\[File: (?P<path>\S+) \((?P<lines>\d+) lines total\)\]")
_VIEW = re.compile(r"^(open|goto|scroll_up|scroll_down)\b")
_EDIT = re.compile(r"^edit\b")
# ACR's per-instance output folders: `<instance>_<date>_<time>/meta.json`.
_META = re.compile(r"/(?P<instance>[\w.-]+__[\w.-]+-\d+)_[\d-]+_[\d-]+/meta\.json$")


@dataclass(frozen=True)
class Source:
    """The `[trajectories]` record: where the runs are, and which instances are left out."""

    repo: str
    commit: str
    runs: tuple[str, ...]
    base_commits_under: str
    exclude_lists: tuple[str, ...]
    max_views_per_file: int


def load_source(text: str) -> Source:
    data = tomllib.loads(text)["trajectories"]
    return Source(
        repo=data["repo"],
        commit=data["commit"],
        runs=tuple(data["runs"]),
        base_commits_under=data["base_commits_under"],
        exclude_lists=tuple(data["exclude_lists"]),
        max_views_per_file=int(data["max_views_per_file"]),
    )


@dataclass(frozen=True)
class View:
    """One time the agent was shown a file: what it had just said, and the command."""

    path: str  # in the repository
    shown_lines: int
    thought: str
    action: str


def repository_of(instance: str) -> str:
    """`sympy__sympy-24152` -> `sympy/sympy` (SWE-bench's instance ids)."""
    return instance.rsplit("-", 1)[0].replace("__", "/", 1)


def views_before_edits(steps: list[dict[str, Any]], instance: str) -> Iterator[View]:
    """The trajectory's views of files, each before the agent's first edit of that file. Paths are
    made relative to the repository (SWE-agent works in `/<owner>__<name>`)."""
    root = "/" + instance.rsplit("-", 1)[0] + "/"
    edited: set[str] = set()
    for step in steps:
        action = str(step.get("action", "")).strip()
        shown = _FILE_SHOWN.match(str(step.get("observation", "")).lstrip())
        if shown is None or not shown.group("path").startswith(root):
            continue
        path = shown.group("path")[len(root) :]
        if _EDIT.match(action):
            edited.add(path)
        elif _VIEW.match(action) and path not in edited:
            yield View(path, int(shown.group("lines")), str(step.get("thought", "")).strip(), action)


def _show(git_dir: Path, commit: str, path: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", "show", f"{commit}:{path}"],
        capture_output=True,
        check=True,
        text=True,
        errors="replace",
    ).stdout


def base_commits(git_dir: Path, source: Source) -> dict[str, str]:
    """Each instance's base commit, from AutoCodeRover's `meta.json` files (the first one found in
    path order; every run of an instance has the same)."""
    listing = subprocess.run(
        [
            "git",
            f"--git-dir={git_dir}",
            "ls-tree",
            "-r",
            "--name-only",
            source.commit,
            source.base_commits_under,
        ],
        capture_output=True,
        check=True,
        text=True,
    ).stdout.splitlines()
    first: dict[str, str] = {}
    for path in sorted(listing):
        m = _META.search(path)
        if m and m.group("instance") not in first:
            first[m.group("instance")] = path
    return {
        instance: str(json.loads(_show(git_dir, source.commit, path))["task_info"]["base_commit"])
        for instance, path in first.items()
    }


def resolved(git_dir: Path, source: Source, run: str) -> list[str]:
    report = json.loads(_show(git_dir, source.commit, f"{run}/final_report.json"))
    return sorted(i for ids in report["resolved_per_project"].values() for i in ids)


def build_trajectory(
    traj: dict[str, Any],
    instance: str,
    base_commit: str,
    run: str,
    mirror_dir: Path,
    languages: dict[str, Language],
    max_views_per_file: int,
    why: Counter[str],
) -> list[dict[str, Any]]:
    """The tasks of one resolved trajectory: its views of files its patch changes."""
    repo = repository_of(instance)
    git_dir = git_dir_of(mirror_dir, Repo(repo, base_commit, "", SPLIT))
    if not git_dir.is_dir():
        why["repository not fetched"] += 1
        return []
    patches = file_patches(str(traj["info"].get("submission") or ""))
    asked: dict[str, list[str]] = {}
    tasks: list[dict[str, Any]] = []
    for view in views_before_edits(traj["trajectory"], instance):
        language = language_of(view.path, languages)
        if language is None or is_aside(view.path):
            why["not a source file"] += 1
            continue
        if view.path not in patches:
            why["file the fix leaves alone"] += 1
            continue
        questions = asked.setdefault(view.path, [])
        if not view.thought or view.thought in questions:
            why["no thought, or asked already"] += 1
            continue
        if len(questions) >= max_views_per_file:
            why["file already has its views"] += 1
            continue
        try:
            before = source_lines(git_dir, base_commit, view.path)
        except UnusableFile as e:
            why[e.reason] += 1
            continue
        if len(before) != view.shown_lines:
            why["not the file the agent saw"] += 1
            continue
        fix = gold_from_diff(zero_context(patches[view.path]), before)
        if not fix.gold:
            why["no gold line"] += 1
            continue
        questions.append(view.thought)
        tasks.append(
            {
                "id": f"agent-words:{run.rsplit('/', 1)[-1]}:{instance}:{view.path}:{len(questions)}",
                "kind": "code",
                "source_type": "code",
                "goal_hint": view.thought,
                "text": "\n".join(before),
                "gold": list(fix.gold),
                "critical": list(fix.critical),
                "path": view.path,
                "question_kind": question_kind(view.thought, defined_names(before, language)),
                "repo": repo,
                "commit": base_commit,
                "language": language.name,
                "source": f"swe-agent:{run.rsplit('/', 1)[-1]}",
                "instance": instance,
                "action": view.action,
            }
        )
    return tasks


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--manifest", type=Path, default=Path(__file__).with_name("agent_words.toml"))
    ap.add_argument("--languages", type=Path, default=Path(__file__).with_name("manifest.toml"))
    ap.add_argument("--mirror-dir", type=Path, required=True, help="owner+name/repo git directories")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    source = load_source(args.manifest.read_text(encoding="utf-8"))
    languages = load_manifest(args.languages.read_text(encoding="utf-8")).languages
    git_dir = git_dir_of(args.mirror_dir, Repo(source.repo, source.commit, "", SPLIT))
    bases = base_commits(git_dir, source)
    excluded = {i for path in source.exclude_lists for i in _show(git_dir, source.commit, path).split()}
    why: Counter[str] = Counter()
    by_language: dict[str, list[dict[str, Any]]] = {}
    for run in source.runs:
        for instance in resolved(git_dir, source, run):
            if instance in excluded:
                why["instance in an excluded list"] += 1
                continue
            if instance not in bases:
                why["no base commit"] += 1
                continue
            traj = json.loads(_show(git_dir, source.commit, f"{run}/{instance}.traj"))
            tasks = build_trajectory(
                traj,
                instance,
                bases[instance],
                run,
                args.mirror_dir,
                languages,
                source.max_views_per_file,
                why,
            )
            print(f"{run.rsplit('/', 1)[-1]:10s} {instance:40s} {len(tasks):2d} tasks")
            for task in tasks:
                by_language.setdefault(task["language"], []).append(task)
    print(f"skipped: {dict(why)}")
    for language, tasks in sorted(by_language.items()):
        write_set(args.out / SPLIT / f"{language}.jsonl", tasks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
