"""An `agent` set of real questions with cited lines (issue 33): GitHub issues from ContextBench, each
with the lines its annotators found an agent needs to read to resolve it.

    python benchmarks/sets/build_contextbench_set.py --manifest benchmarks/sets/contextbench.toml \\
        --mirror-dir /work/.mirror --out /work/sets/real

ContextBench (`anonymousUser2026/ContextBench` on GitHub) ships, per SWE-bench-style instance, the
issue text (`problem_statement`), the repository and its `base_commit`, the fix (`patch`) and the
`gold_context`: spans of files (path, first and last line) an agent needs to have read. The manifest
pins the ContextBench commit and the parquet file read from it, and says which of its sources are
used (the others overlap the project's held-out agent sets; see the manifest). Like the commit sets,
nothing is checked out: the parquet and each file are read with `git show` from the mirrors that
`fetch github:owner/name` leaves in `--mirror-dir` (`owner+name/repo`), ContextBench's and every
instance repository's. Reading the parquet needs `pyarrow` (`pip install pyarrow`).

A task is one source file of an instance (a language of `manifest.toml`'s `[languages]`, not a test
or doc path, 100-4000 lines at the base commit):
  - the question is the issue text as its author wrote it;
  - the text is the file at the instance's base commit;
  - the gold is the non-blank lines of the file's gold-context spans, plus the lines the fix
    rewrites and, for an insertion, the nearest line on each side (as in the commit sets);
  - `critical` is the lines the fix deletes or rewrites in that file (none when it only inserts).
A span's lines are found by its annotated text (spans are often a few lines off the file at the
base commit); a file with a span whose text is not found there is skipped. It writes
`OUT/agent/<language>.jsonl` in the commit sets' format (`question_kind` too), with `source` =
`contextbench:<source>` and `instance` = the instance's original id.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import subprocess
import sys
import tomllib
from collections import Counter
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
from set_files import UnusableFile, source_lines, write_set

SPLIT = "agent"
# How far (lines) an annotated line may be from the one before it, and how much of a span must be
# found for it to count: a span found in part points at other code.
SPAN_SLACK = 20
MIN_SPAN_MATCH = 0.9
# A line this long is distinctive enough to place a span by (`}` or `return x` is not).
MIN_ANCHOR_CHARS = 12
_FILE_HEADER = re.compile(r"^diff --git a/(.+?) b/(.+)$")
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


@dataclass(frozen=True)
class Source:
    """The `[contextbench]` record: where the instances are and which of them are used."""

    repo: str
    commit: str
    parquet: str
    sources: tuple[str, ...]


def load_source(text: str) -> Source:
    data = tomllib.loads(text)["contextbench"]
    return Source(data["repo"], data["commit"], data["parquet"], tuple(data["sources"]))


def read_instances(git_dir: Path, source: Source) -> list[dict[str, Any]]:
    """The parquet's rows, read from the pinned ContextBench commit.

    Raises:
        SystemExit: pyarrow is not installed.
    """
    try:
        pyarrow = importlib.import_module("pyarrow")
        parquet = importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise SystemExit("reading ContextBench's parquet needs pyarrow: pip install pyarrow") from None
    blob = subprocess.run(
        ["git", f"--git-dir={git_dir}", "show", f"{source.commit}:{source.parquet}"],
        capture_output=True,
        check=True,
    ).stdout
    rows: list[dict[str, Any]] = parquet.read_table(pyarrow.BufferReader(blob)).to_pylist()
    return rows


def file_patches(patch: str) -> dict[str, str]:
    """The patch cut per file (old path -> its hunks), as `git diff` wrote it."""
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in patch.splitlines():
        m = _FILE_HEADER.match(line)
        if m:
            current = out.setdefault(m.group(1), [])
            continue
        kept = line.startswith(("@@", "+", "-", " ")) or not line
        if current is not None and kept and not line.startswith(("+++", "---")):
            current.append(line)
    return {path: "\n".join(lines) for path, lines in out.items()}


def zero_context(hunks: str) -> str:
    """A file's hunks written with context as `git diff -U0` would write them: one hunk per run of
    changed lines, so `gold_from_diff` reads it."""
    out: list[str] = []
    old = new = 0
    run_old: list[str] = []
    run_new: list[str] = []
    run_start = (0, 0)

    def flush() -> None:
        if run_old or run_new:
            a, b = run_start
            # `-a,0` means "after line a": an insertion starts one line before the next old line.
            old_at = a if run_old else a - 1
            new_at = b if run_new else b - 1
            out.append(f"@@ -{old_at},{len(run_old)} +{new_at},{len(run_new)} @@")
            out.extend("-" + line for line in run_old)
            out.extend("+" + line for line in run_new)
            run_old.clear()
            run_new.clear()

    for line in hunks.splitlines():
        m = _HUNK.match(line)
        if m:
            flush()
            old, new = int(m.group(1)), int(m.group(3))
            continue
        if line.startswith("-"):
            if not run_old and not run_new:
                run_start = (old, new)
            run_old.append(line[1:])
            old += 1
        elif line.startswith("+"):
            if not run_old and not run_new:
                run_start = (old, new)
            run_new.append(line[1:])
            new += 1
        else:
            flush()
            old += 1
            new += 1
    flush()
    return "\n".join(out) + "\n"


def span_lines(before: list[str], span: dict[str, Any]) -> set[int] | None:
    """The file's lines (1-based) holding the annotated span's text, or None when under
    `MIN_SPAN_MATCH` of its non-blank lines are found. The text, not the numbers, decides: spans are
    often some lines off the file at the base commit (annotated against a nearby version). The span
    is moved by the distance between its first distinctive line and that line's nearest occurrence in
    the file, then each annotated line is looked for in order, at most `SPAN_SLACK` lines on."""
    start, end = int(span["start_line"]), int(span["end_line"])
    content = str(span.get("content", ""))
    if "\n" not in content and "\\n" in content:  # some spans hold their text JSON-escaped
        content = content.replace("\\n", "\n").replace('\\"', '"').replace("\\t", "\t")
    annotated = [line.strip() for line in content.splitlines() if line.strip()]
    if not annotated:
        return {i for i in range(start, min(end, len(before)) + 1) if before[i - 1].strip()}
    stripped = [line.strip() for line in before]
    anchor = next((a for a in annotated if len(a) >= MIN_ANCHOR_CHARS), annotated[0])
    expected = start - 1 + next(i for i, line in enumerate(content.splitlines()) if line.strip() == anchor)
    places = [i for i, line in enumerate(stripped) if line == anchor]
    if not places:
        return None
    shift = min(places, key=lambda i: abs(i - expected)) - expected
    found: set[int] = set()
    cursor = max(0, start - 1 + shift)
    for text in annotated:
        for i in range(cursor, min(len(before), cursor + SPAN_SLACK + 1)):
            if stripped[i] == text:
                found.add(i + 1)
                cursor = i + 1
                break
    return found if len(found) >= MIN_SPAN_MATCH * len(annotated) else None


def language_of(path: str, languages: dict[str, Language]) -> Language | None:
    for language in languages.values():
        if path.endswith(language.extensions):
            return language
    return None


def build_instance(
    row: dict[str, Any], mirror_dir: Path, languages: dict[str, Language], why: Counter[str]
) -> list[dict[str, Any]]:
    """The tasks of one instance: one per source file its gold context cites."""
    repo = Repo(row["repo"], row["base_commit"], "", SPLIT)
    git_dir = git_dir_of(mirror_dir, repo)
    if not git_dir.is_dir():
        why["repository not fetched"] += 1
        return []
    spans_by_file: dict[str, list[dict[str, Any]]] = {}
    for span in json.loads(row["gold_context"]):
        spans_by_file.setdefault(str(span["file"]).lstrip("/"), []).append(span)
    patches = file_patches(row["patch"] or "")
    tasks = []
    for path, spans in sorted(spans_by_file.items()):
        language = language_of(path, languages)
        if language is None or is_aside(path):
            why["not a source file"] += 1
            continue
        try:
            before = source_lines(git_dir, row["base_commit"], path)
        except UnusableFile as e:
            why[e.reason] += 1
            continue
        found = [span_lines(before, span) for span in spans]
        if any(lines is None for lines in found):
            why["span text not in the file"] += 1
            continue
        gold = set().union(*(lines for lines in found if lines is not None))
        fix = gold_from_diff(zero_context(patches[path]), before) if path in patches else None
        if fix is not None:
            gold |= set(fix.gold)
        question = str(row["problem_statement"]).strip()
        tasks.append(
            {
                "id": f"contextbench:{row['original_inst_id']}:{path}",
                "kind": "code",
                "source_type": "code",
                "goal_hint": question,
                "text": "\n".join(before),
                "gold": sorted(gold),
                "critical": list(fix.critical) if fix is not None else [],
                "path": path,
                "question_kind": question_kind(question, defined_names(before, language)),
                "repo": row["repo"],
                "commit": row["base_commit"],
                "language": language.name,
                "source": f"contextbench:{row['source']}",
                "instance": row["original_inst_id"],
            }
        )
    return tasks


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--manifest", type=Path, default=Path(__file__).with_name("contextbench.toml"))
    ap.add_argument("--languages", type=Path, default=Path(__file__).with_name("manifest.toml"))
    ap.add_argument("--mirror-dir", type=Path, required=True, help="owner+name/repo git directories")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    source = load_source(args.manifest.read_text(encoding="utf-8"))
    languages = load_manifest(args.languages.read_text(encoding="utf-8")).languages
    bench_git = git_dir_of(args.mirror_dir, Repo(source.repo, source.commit, "", SPLIT))
    rows = sorted(
        (r for r in read_instances(bench_git, source) if r["source"] in source.sources),
        key=lambda r: str(r["original_inst_id"]),
    )
    why: Counter[str] = Counter()
    by_language: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        tasks = build_instance(row, args.mirror_dir, languages, why)
        print(
            f"{row['source']:5s} {row['original_inst_id'][:60]:60s} {row['repo']:28s} {len(tasks):2d} tasks"
        )
        for task in tasks:
            by_language.setdefault(task["language"], []).append(task)
    print(f"skipped: {dict(why)}")
    for language, tasks in sorted(by_language.items()):
        write_set(args.out / SPLIT / f"{language}.jsonl", tasks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
