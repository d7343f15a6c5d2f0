"""The agent-words sets (issue 33): a real agent's own words just before it viewed a file as the
question, the lines a fix that resolves the issue changed in that file as the gold.

    python benchmarks/sets/build_agent_words_set.py --mirror-dir /work/.mirror --out /work/sets/real

Two kinds of public runs on SWE-bench Lite instances, each a `[[runs]]` record of the manifest
(`agent_words.toml`, the default `--manifest`):
  - `swe-agent`: SWE-agent's runs (GPT-4) that AutoCodeRover's repository (`nus-apr/auto-code-rover`)
    ships beside its own results: one `.traj` per instance and a `final_report.json` saying which
    instances the run resolved;
  - `claude-code`: Claude Code sessions (Claude Sonnet 4.5) that SWEContextBench
    (`jiayuanz3/SWEContextBench`) ships as its "Lite Past Experience": one session's jsonl per
    instance, the repository checked out under `testbed/`.
A record's `gold` says which fix the gold is read from: `submission` (the run's own patch; only the
runs that resolved their instance are read) or `upstream` (the instance's fix in SWE-bench, for
every run; the only one for Claude Code, whose sessions don't record whether they resolved it).
Every instance's base commit and upstream fix come from AutoCodeRover's `meta.json` files (its runs
cover all of SWE-bench Lite), and its list of SWE-bench Verified instances is left out: the
project's held-out agent sets are runs on SWE-bench Verified. The manifest pins each repository's
commit. Nothing is checked out: the runs and every file are read with `git show` from the mirrors
that `fetch github:owner/name` leaves in `--mirror-dir` (`owner+name/repo`); an instance whose
repository is not there gives no task (django, scikit-learn and matplotlib are over `fetch`'s size
limit).

A task is one view of a source file (a language of `manifest.toml`'s `[languages]`, not a test or
doc path, 100-4000 lines at the base commit) before the agent edited that file:
  - a view is SWE-agent's `open`, `goto` or `scroll_*` whose output starts `[File: PATH (N lines
    total)]`, N being the file's length at the base commit; or Claude Code's `Read` of a file in
    the checkout whose returned lines are the file's at the base commit (else the agent saw
    another file, or one it had changed);
  - the question is what the agent wrote before that action: SWE-agent's thought; Claude Code's
    text since the last tool result or, when it wrote none, its thinking (`words` says which);
  - the text is the file at the instance's base commit;
  - the gold is the non-blank lines the fix deletes or rewrites in that file and, for an insertion,
    the nearest non-blank line on each side (as in the commit sets); `critical` is the deleted or
    rewritten lines. A view of a file the fix leaves alone gives no task;
  - at most `max_views_per_file` views of one file per run (the first ones), and words already
    asked about that file in that run are not asked again.
Two splits, by instance (`[split]`: a hash of the instance id, so that every run of an instance is
on one side): `OUT/agent_words_dev/<language>.jsonl`, to choose rules on, and
`OUT/agent_words_untouched/<language>.jsonl`, scored once. The commit sets' format (`question_kind`
too), with `source` (`swe-agent:<run folder>` or `claude-code:<session>`), `instance`, `action` (the
view's command) and `words`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
import tomllib
from collections import Counter
from collections.abc import Iterable, Iterator
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

DEV, UNTOUCHED = "agent_words_dev", "agent_words_untouched"
# Where a run's gold comes from: the patch it submitted (only runs that resolved their instance are
# read), or the instance's upstream fix (every run is read). A format without a resolved record
# (Claude Code's sessions) can only have the upstream fix.
GOLDS = {"swe-agent": ("submission", "upstream"), "claude-code": ("upstream",)}
# What SWE-agent prints when it shows a window of a file: its path in the container and its length.
_FILE_SHOWN = re.compile(r"^\[File: (?P<path>\S+) \((?P<lines>\d+) lines total\)\]")
_SWE_AGENT_VIEW = re.compile(r"^(open|goto|scroll_up|scroll_down)\b")
_SWE_AGENT_EDIT = re.compile(r"^edit\b")
# Claude Code's tools that change a file (a `Read` after one of them no longer shows the base file).
_CLAUDE_CODE_EDITS = frozenset({"Edit", "MultiEdit", "Write", "NotebookEdit"})
# Where SWEContextBench's sessions checked the repository out, in the paths they read.
_CHECKOUT = re.compile(r"(?:^|/)testbed/(?P<path>.+)$")
# AutoCodeRover's per-instance output folders: `<instance>_<date>_<time>/meta.json`.
_META = re.compile(r"/(?P<instance>[\w.-]+__[\w.-]+-\d+)_[\d-]+_[\d-]+/meta\.json$")
_INSTANCE_LINE = re.compile(r"instance_id:\s*(?P<id>[\w.-]+__[\w.-]+-\d+)")


@dataclass(frozen=True)
class Runs:
    """One manifest `[[runs]]` record: a folder of runs in a repository, and their format."""

    format: str
    repo: str
    commit: str
    folder: str
    gold: str


@dataclass(frozen=True)
class Source:
    """The manifest: where instances' base commits and fixes are, what is left out, the runs."""

    instances_repo: str
    instances_commit: str
    base_commits_under: str
    exclude_lists: tuple[str, ...]
    max_views_per_file: int
    untouched_percent: int
    runs: tuple[Runs, ...]


def load_source(text: str) -> Source:
    """Parse the manifest's TOML.

    Raises:
        ValueError: a `[[runs]]` record names a format the builder can't read, or a gold its
            format can't give.
    """
    data = tomllib.loads(text)
    instances = data["instances"]
    runs = tuple(Runs(r["format"], r["repo"], r["commit"], r["folder"], r["gold"]) for r in data["runs"])
    for r in runs:
        if r.format not in GOLDS:
            raise ValueError(f"{r.repo}:{r.folder}: format {r.format!r} is not one of {list(GOLDS)}")
        if r.gold not in GOLDS[r.format]:
            raise ValueError(f"{r.repo}:{r.folder}: a {r.format} run's gold is one of {GOLDS[r.format]}")
    return Source(
        instances_repo=instances["repo"],
        instances_commit=instances["commit"],
        base_commits_under=instances["base_commits_under"],
        exclude_lists=tuple(instances["exclude_lists"]),
        max_views_per_file=int(data["build"]["max_views_per_file"]),
        untouched_percent=int(data["split"]["untouched_percent"]),
        runs=runs,
    )


@dataclass(frozen=True)
class View:
    """One time the agent was shown a file: what it had just written, and the command. When the run
    recorded the lines it showed (Claude Code does), `shown` holds them and `shown_from` the first
    one's number, so that a view of a file changed since the base commit is known."""

    path: str  # in the repository
    shown_lines: int
    words: str
    action: str
    words_kind: str = "thought"
    shown: tuple[str, ...] | None = None
    shown_from: int = 1

    def shows(self, lines: list[str]) -> bool:
        """Whether the file the agent saw is `lines`: its length, and the lines shown if recorded."""
        if len(lines) != self.shown_lines:
            return False
        if self.shown is None:
            return True
        # A window that reaches the end also shows the empty string after the last newline.
        first = self.shown_from - 1
        return list(self.shown) == [*lines, ""][first : first + len(self.shown)]


@dataclass(frozen=True)
class Instance:
    """A SWE-bench instance: its base commit and the upstream fix."""

    base_commit: str
    patch: str


@dataclass(frozen=True)
class Run:
    """One agent run of one instance: its views in order, and the fix its gold is read from."""

    instance: str
    source: str
    views: tuple[View, ...]
    patch: str


def split_of(instance: str, untouched_percent: int) -> str:
    """The split an instance's tasks go to: untouched when the first 8 hex digits of its id's
    SHA-256, as a number, modulo 100 are below `untouched_percent`. By instance, so that every run
    of one instance (its fix, the files it touches) is on one side; by a hash, so that the split
    doesn't move when runs or repositories are added."""
    bucket = int(hashlib.sha256(instance.encode()).hexdigest()[:8], 16) % 100
    return UNTOUCHED if bucket < untouched_percent else DEV


def _git_dir(mirror_dir: Path, repo: str) -> Path:
    return git_dir_of(mirror_dir, Repo(repo, "", "", ""))


def repository_of(instance: str) -> str:
    """`sympy__sympy-24152` -> `sympy/sympy` (SWE-bench's instance ids)."""
    return instance.rsplit("-", 1)[0].replace("__", "/", 1)


def swe_agent_views(steps: Iterable[dict[str, Any]], instance: str) -> Iterator[View]:
    """A SWE-agent trajectory's views of files, each before the agent's first edit of that file.
    Paths are made relative to the repository (SWE-agent works in `/<owner>__<name>`)."""
    root = "/" + instance.rsplit("-", 1)[0] + "/"
    edited: set[str] = set()
    for step in steps:
        action = str(step.get("action", "")).strip()
        shown = _FILE_SHOWN.match(str(step.get("observation", "")).lstrip())
        if shown is None or not shown.group("path").startswith(root):
            continue
        path = shown.group("path")[len(root) :]
        if _SWE_AGENT_EDIT.match(action):
            edited.add(path)
        elif _SWE_AGENT_VIEW.match(action) and path not in edited:
            yield View(path, int(shown.group("lines")), str(step.get("thought", "")).strip(), action)


def claude_code_views(records: Iterable[dict[str, Any]]) -> Iterator[View]:
    """A Claude Code session's `Read`s of files in the checkout, each before the session's first
    `Edit` (or `Write`) of that file, with what the assistant wrote since the last tool result: its
    text, or its thinking when it wrote no text. The lines a `Read` returned are kept in the view."""
    texts: list[str] = []
    thinking: list[str] = []
    reads: dict[str, tuple[str, str, str, str]] = {}  # tool_use id -> path, words, kind, action
    edited: set[str] = set()
    for record in records:
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list):
            continue
        blocks = [b for b in content if isinstance(b, dict)]
        if record.get("type") == "assistant":
            for block in blocks:
                kind = block.get("type")
                if kind == "text":
                    texts.append(str(block.get("text", "")).strip())
                elif kind == "thinking":
                    thinking.append(str(block.get("thinking", "")).strip())
                elif kind == "tool_use":
                    given = block.get("input")
                    tool_input: dict[str, Any] = given if isinstance(given, dict) else {}
                    checkout = _CHECKOUT.search(str(tool_input.get("file_path", "")))
                    if checkout is None:
                        continue
                    path = checkout.group("path")
                    if block.get("name") in _CLAUDE_CODE_EDITS:
                        edited.add(path)
                    elif block.get("name") == "Read" and path not in edited:
                        words, words_kind = "\n\n".join(t for t in texts if t), "text"
                        if not words:
                            words, words_kind = "\n\n".join(t for t in thinking if t), "thinking"
                        window = {k: v for k, v in tool_input.items() if k in ("offset", "limit")}
                        reads[str(block.get("id"))] = (path, words, words_kind, f"Read {json.dumps(window)}")
        elif record.get("type") == "user":
            results = [b for b in blocks if b.get("type") == "tool_result"]
            if not results:
                continue
            texts.clear()
            thinking.clear()
            # `toolUseResult` is the record's one result's structured form: with several results in
            # one record it would not say whose it is.
            structured = record.get("toolUseResult")
            file = structured.get("file") if isinstance(structured, dict) and len(results) == 1 else None
            for result in results:
                read = reads.pop(str(result.get("tool_use_id")), None)
                if read is None or not isinstance(file, dict) or result.get("is_error"):
                    continue
                path, words, words_kind, action = read
                if path in edited:
                    continue
                # Claude Code counts the empty string after a file's last newline as a line.
                yield View(
                    path,
                    int(file.get("totalLines", 0)) - 1,
                    words,
                    action,
                    words_kind,
                    tuple(str(file.get("content", "")).split("\n")),
                    int(file.get("startLine", 1)),
                )


def session_records(lines: Iterable[str], why: Counter[str]) -> Iterator[dict[str, Any]]:
    """A session's JSON records; a line that is not one (a session file may hold a record cut
    short) is counted in `why` and passed over."""
    for line in lines:
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            why["session line that is not JSON"] += 1
            continue
        if isinstance(record, dict):
            yield record


def _show(git_dir: Path, commit: str, path: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", "show", f"{commit}:{path}"],
        capture_output=True,
        check=True,
        text=True,
        errors="replace",
    ).stdout


def _list(git_dir: Path, commit: str, folder: str) -> list[str]:
    return sorted(
        subprocess.run(
            ["git", f"--git-dir={git_dir}", "ls-tree", "-r", "--name-only", commit, "--", folder],
            capture_output=True,
            check=True,
            text=True,
        ).stdout.splitlines()
    )


def read_instances(git_dir: Path, source: Source) -> dict[str, Instance]:
    """Each instance's base commit and upstream fix, from AutoCodeRover's `meta.json` files (the
    first one in path order; every run of an instance holds the same)."""
    first: dict[str, str] = {}
    for path in _list(git_dir, source.instances_commit, source.base_commits_under):
        m = _META.search(path)
        if m and m.group("instance") not in first:
            first[m.group("instance")] = path
    instances = {}
    for instance, path in first.items():
        task = json.loads(_show(git_dir, source.instances_commit, path))["task_info"]
        instances[instance] = Instance(str(task["base_commit"]), str(task.get("patch") or ""))
    return instances


def _swe_agent_runs(
    git_dir: Path, runs: Runs, instances: dict[str, Instance], why: Counter[str]
) -> Iterator[Run]:
    """A folder of SWE-agent trajectories (`<instance>.traj`, and `final_report.json` saying which
    instances the run resolved)."""
    if runs.gold == "submission":
        report = json.loads(_show(git_dir, runs.commit, f"{runs.folder}/final_report.json"))
        read = sorted(i for ids in report["resolved_per_project"].values() for i in ids)
    else:
        listed = _list(git_dir, runs.commit, runs.folder)
        read = [p.rsplit("/", 1)[-1].removesuffix(".traj") for p in listed if p.endswith(".traj")]
    folder = runs.folder.rsplit("/", 1)[-1]
    for instance in read:
        if instance not in instances:
            why["run of an unknown instance"] += 1
            continue
        traj = json.loads(_show(git_dir, runs.commit, f"{runs.folder}/{instance}.traj"))
        views = tuple(swe_agent_views(traj["trajectory"], instance))
        submitted = str(traj["info"].get("submission") or "")
        fix = submitted if runs.gold == "submission" else instances[instance].patch
        yield Run(instance, f"swe-agent:{folder}", views, fix)


def _claude_code_runs(
    git_dir: Path, runs: Runs, instances: dict[str, Instance], why: Counter[str]
) -> Iterator[Run]:
    """A folder of Claude Code sessions (`<session>.jsonl`), each naming its instance in its prompt
    (`instance_id: ...`)."""
    for path in _list(git_dir, runs.commit, runs.folder):
        if not path.endswith(".jsonl"):
            continue
        # One JSON record a line; `splitlines` would also cut at the U+2028 a record's text may hold.
        lines = _show(git_dir, runs.commit, path).split("\n")
        found = _INSTANCE_LINE.search("\n".join(lines[:5]))
        if found is None or found.group("id") not in instances:
            why["run of an unknown instance"] += 1
            continue
        instance = found.group("id")
        views = tuple(claude_code_views(session_records(lines, why)))
        session = path.rsplit("/", 1)[-1].removesuffix(".jsonl")
        yield Run(instance, f"claude-code:{session}", views, instances[instance].patch)


# Each format's reader: a folder of runs in a git directory to the runs, in path order.
_READERS = {"swe-agent": _swe_agent_runs, "claude-code": _claude_code_runs}


def read_runs(
    mirror_dir: Path, runs: Runs, instances: dict[str, Instance], why: Counter[str]
) -> Iterator[Run]:
    """The runs of one `[[runs]]` record, in path order."""
    return _READERS[runs.format](_git_dir(mirror_dir, runs.repo), runs, instances, why)


def build_run(
    run: Run,
    base_commit: str,
    mirror_dir: Path,
    languages: dict[str, Language],
    max_views_per_file: int,
    why: Counter[str],
) -> list[dict[str, Any]]:
    """The tasks of one run: its views of files the fix changes."""
    repo = repository_of(run.instance)
    git_dir = _git_dir(mirror_dir, repo)
    if not git_dir.is_dir():
        why["repository not fetched"] += 1
        return []
    patches = file_patches(run.patch)
    asked: dict[str, list[str]] = {}
    tasks: list[dict[str, Any]] = []
    for view in run.views:
        language = language_of(view.path, languages)
        if language is None or is_aside(view.path):
            why["not a source file"] += 1
            continue
        if view.path not in patches:
            why["file the fix leaves alone"] += 1
            continue
        questions = asked.setdefault(view.path, [])
        if not view.words or view.words in questions:
            why["no words, or asked already"] += 1
            continue
        if len(questions) >= max_views_per_file:
            why["file already has its views"] += 1
            continue
        try:
            before = source_lines(git_dir, base_commit, view.path)
        except UnusableFile as e:
            why[e.reason] += 1
            continue
        if not view.shows(before):
            why["not the file the agent saw"] += 1
            continue
        fix = gold_from_diff(zero_context(patches[view.path]), before)
        if not fix.gold:
            why["no gold line"] += 1
            continue
        questions.append(view.words)
        tasks.append(
            {
                "id": f"agent-words:{run.source}:{run.instance}:{view.path}:{len(questions)}",
                "kind": "code",
                "source_type": "code",
                "goal_hint": view.words,
                "text": "\n".join(before),
                "gold": list(fix.gold),
                "critical": list(fix.critical),
                "path": view.path,
                "question_kind": question_kind(view.words, defined_names(before, language)),
                "repo": repo,
                "commit": base_commit,
                "language": language.name,
                "source": run.source,
                "instance": run.instance,
                "action": view.action,
                "words": view.words_kind,
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
    acr = _git_dir(args.mirror_dir, source.instances_repo)
    instances = read_instances(acr, source)
    excluded = {i for path in source.exclude_lists for i in _show(acr, source.instances_commit, path).split()}
    why: Counter[str] = Counter()
    by_split: dict[str, dict[str, list[dict[str, Any]]]] = {DEV: {}, UNTOUCHED: {}}
    for runs in source.runs:
        made: Counter[tuple[str, str]] = Counter()
        for run in read_runs(args.mirror_dir, runs, instances, why):
            if run.instance in excluded:
                why["instance in an excluded list"] += 1
                continue
            split = split_of(run.instance, source.untouched_percent)
            base_commit = instances[run.instance].base_commit
            tasks = build_run(run, base_commit, args.mirror_dir, languages, source.max_views_per_file, why)
            made[split, repository_of(run.instance)] += len(tasks)
            for task in tasks:
                by_split[split].setdefault(task["language"], []).append(task)
        for split in (DEV, UNTOUCHED):
            counts = {repo: n for (s, repo), n in sorted(made.items()) if s == split and n}
            print(f"{runs.format}:{runs.folder} -> {split}: {sum(counts.values())} tasks {counts}")
    print(f"skipped: {dict(sorted(why.items()))}")
    for split, by_language in by_split.items():
        # A language no longer in the split must not leave its old file behind.
        for stale in sorted((args.out / split).glob("*.jsonl")):
            stale.unlink()
        for language, tasks in sorted(by_language.items()):
            write_set(args.out / split / f"{language}.jsonl", tasks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
