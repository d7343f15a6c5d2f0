"""Real-question code task sets from public git histories (issue 33): one command rebuilds them all.

    python benchmarks/sets/build_commit_sets.py --manifest benchmarks/sets/manifest.toml \\
        --mirror-dir /work/.mirror --out /work/sets/real

The manifest lists public repositories, each at a pinned commit, with its language and its split
(`dev`, `untouched`, `train`, `fresh` or `fresh2`, as `SPLITS` says; a split is by repository). `--mirror-dir`
holds their git directories as the search tool's `fetch github:owner/name` leaves them
(`owner+name/repo`; any bare or non-bare git directory laid out that way will do: `git clone --bare
<the repository's public URL> MIRROR_DIR/owner+name/repo` for each manifest entry). Nothing is
checked out: the builder reads the history with `git log` / `git show` / `git diff`, from the pinned
commit back. It writes
`OUT/<split>/<language>.jsonl` in the shared harness's task format (id, kind, source_type "code",
goal_hint, text, gold, critical; line numbers 1-based) plus `path` (the file's path in its
repository, as `read` tells the engine), `question_kind`, `repo` and `commit`.

A task is one commit that changes exactly one source file of its language (tests, docs and
changelog files beside it are allowed), written by a person (bots and merges are left out), whose
message has a real subject (three words or more, saying more than a ticket id, "wip", review chatter
or bookkeeping: a merge, revert, version bump, release, typo fix, formatting run):
  - the question is the subject and body as written, less trailers (Signed-off-by, Co-authored-by,
    ...), issue and pull-request references and CI tags;
  - the text is the file as it was before the commit (100-4000 lines);
  - the gold is the non-blank lines of that text the commit deletes or rewrites (`critical` too),
    and for a pure insertion the nearest non-blank line on each side of where it goes (gold only:
    the question needs that place, but none of its lines is modified);
  - a commit is skipped when its gold has more than 40 lines, or its change is only whitespace
    or only imports.
`question_kind` is `names_symbol` when the message names an identifier the file defines (a
code-like word: `snake_case`, `camelCase`, quoted, called `()`, or capitalised mid-sentence), else
`plain`. Candidates are sampled with the manifest's seed (in the order of a hash of seed, repository
and commit, so a change to a filter swaps only the tasks it concerns), at most `max_tasks_per_repo`
per repository (or the repository's own `max_tasks`) and `max_tasks_per_file` per file, so a
rebuild gives the same tasks.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import subprocess
import sys
import tomllib
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from set_files import UnusableFile, source_lines, write_set

# dev: rules are chosen on it; untouched: scored once (done); train: a learned scorer is fitted on it;
# fresh: the second round's held-out split (scored once: done); fresh2: the third round's held-out
# split, applications, that the lead scores once, at the end. Each split is by repository.
SPLITS = ("dev", "untouched", "train", "fresh", "fresh2")
# A larger change is a rewrite, not a question about a place in the file.
MAX_GOLD_LINES = 40
# A subject this short ("Fix bug") says nothing a reader could search by.
MIN_SUBJECT_WORDS = 3

# Paths that may change beside the one source file: tests, docs, changelogs, news fragments, translations.
_ASIDE_DIRS = frozenset(
    {
        "test",
        "tests",
        "testing",
        "testdata",
        "__tests__",
        "spec",
        "specs",
        "t",
        "doc",
        "docs",
        "documentation",
        "changelog",
        "changelog.d",
        "changes",
        "news",
        "examples",
        "example",
        "benchmarks",
        "bench",
        # Translation catalogs: strings in a source language's syntax, not the code a question is
        # about ("New translations entities.php (Vietnamese)").
        "lang",
        "langs",
        "locale",
        "locales",
        "i18n",
        "l10n",
        "translation",
        "translations",
    }
)
_TEST_PROJECT_SUFFIXES = (".tests", ".test", ".specs", "unittests", "integrationtests", ".benchmarks")
_ASIDE_FILE = re.compile(
    r"(^(changelog|changes|news|history|release[-_]?notes|readme|authors|contributors)\b"
    r"|\.(md|rst|txt|adoc)$"
    r"|^test_.*\.(py|rb)$|_test\.(py|go|rb)$|_spec\.rb$|tests?\.(java|kt|cs|php)$|\.(test|spec)\.[cm]?[jt]sx?$)",
    re.IGNORECASE,
)
# Build and tool configuration written in a source language: not the code a question is about.
_CONFIG_FILE = re.compile(
    r"(\.config\.[cm]?[jt]s$|^(setup|conftest|noxfile|fabfile|conf|build)\.(py|rs)$|^gulpfile|^gruntfile|^karma\.)",
    re.IGNORECASE,
)
_BOT = re.compile(
    r"\[bot\]|dependabot|renovate|github-actions|pre-commit-ci|greenkeeper|mergify|snyk-bot", re.I
)
# Subjects that are bookkeeping, not a question about the code.
# A conventional-commit type or a scope may lead the subject ("docs(mainpage): fix typo",
# "Config: update version nr to next").
_NOT_A_QUESTION = re.compile(
    r"^([\w./-]+(\([^)]*\))?!?:\s*)?"
    r"(merge(d)?\s+(branch|pull request|remote-tracking|tag|commit|from|changes from|master|main|upstream)\b"
    r"|revert(s|ed|ing)?\b|bump(s|ed|ing)?\b|releas(e|ed|ing)\b|prepare\b.*\brelease|version\b"
    r"|v?\d+(\.\d+)+\b|\[?wip\b"
    r"|(fix(ed|es|ing)?\s+(a\s+|some\s+)?)?typos?\b"
    r"|(apply|run|ran)\s+['\"`]?(black|prettier|clang-format|gofmt|rustfmt|cargo fmt|ruff|isort)"
    r"|(re)?format(ting)?\b|lint\b|update\s+(readme|changelog|docs?|copyright|license)\b"
    r"|(update|set|increase|change)\s+(the\s+)?version\b)",
    re.IGNORECASE,
)
# A subject that only names a version: "Intermediate version 0.4.12.1.", "Update to 2.0.1".
_VERSION_ONLY = re.compile(r"^\W*(\w+\s+){0,2}(to\s+)?(version\s+)?v?\d+(\.\d+)+\W*$", re.IGNORECASE)
# GitHub's web editor's default subject ("Update src/app.rs", "Edited lib/x.rb via GitHub"): no words.
_WEB_EDIT = re.compile(
    r"^(update|create|edit(ed)?)\s+[\w./-]+\.\w+(\s+(via\s+github|for|in))*\W*$", re.IGNORECASE
)
# Ticket and revision ids a subject may hold instead of words: `LANG-1793`, `issue 156`, `r723`, tags.
_TICKET = re.compile(
    r"\b[A-Z][A-Z0-9]+-(ISSUE-)?\d+\b|\b[Rr]\d{3,}\b|\[[^\]]*\]"
    # Who sent the patch says nothing about the code: "Applied Tyler Burd's patch", "Patch by A. B."
    r"|\b([A-Z][\w.-]*\s+){0,2}[A-Z][\w.-]*'s\s+patch\b"
    r"|(?i:\bpatch(es)?\s+(submitted\s+)?(by|from)\s+[\w.-]+)(\s+[A-Z][\w.-]*){0,2}"
    r"|(?i:\b(issue|bug|ticket|pr|pull request|case)\s*#?\s*\d+\b)"
)
# Words that say a change happened, not what it is about: a subject of nothing else ("Fixed issue
# 156.", "Addressed PR feedback", "Minor tweaks") names no place in the code.
# fmt: off
_EMPTY_WORDS = frozenset((
    "fix", "fixes", "fixed", "fixing", "issue", "issues", "bug", "bugs", "ticket", "pr", "part",
    "for", "the", "a", "an", "of", "see", "per", "from", "to", "and", "in", "on", "with", "by", "as",
    "address", "addresses", "addressed", "addressing", "code", "review", "reviews", "reviewed",
    "feedback", "comment", "comments", "request", "requests", "change", "changes", "suggestion",
    "suggestions", "resolve", "resolves", "resolved", "close", "closes", "closed", "implement",
    "implements", "implemented", "apply", "applies", "applied", "more", "some", "minor", "small",
    "misc", "stuff", "things", "update", "updates", "updated", "tweak", "tweaks", "cleanup",
    "cleanups", "wip", "again", "another", "try", "attempt", "work", "progress", "this", "one",
    "missed", "patch", "applied", "applying", "submitted", "thanks",
))
# fmt: on
# Trailers: `Key: value` lines git and review tools append (Signed-off-by, Co-authored-by, ...).
_TRAILER = re.compile(
    r"^\s*([A-Z][\w-]*-(by|to)|Co-authored-by|Change-Id|Cc|Fixes|Closes|Resolves|Refs?|See-also|"
    r"Related|Issue|Bug|PR|PR-URL|Pull-request|Backport-PR-URL|Differential Revision|Link|"
    r"Reviewed-on|Helped-by|git-svn-id|Signed-off-by)\s*:.*$",
    re.IGNORECASE,
)
# Lines tools write into squashed messages: their boilerplate, not the author's words.
_TOOL_LINE = re.compile(
    r"^\s*(\*\s+)?(\[pre-commit\.ci\].*|for more information, see https://pre-commit\.ci"
    r"|.*Generated with \[?Claude Code.*|This reverts commit .*)$",
    re.IGNORECASE,
)
_REF_LINE = re.compile(
    r"^\s*((fix(es|ed)?|close[sd]?|resolve[sd]?|refs?|see|related to|part of)\s*:?\s*)?"
    r"((\w[\w.-]*/[\w.-]+)?#\d+|gh-\d+|https?://\S+)[\s,.;]*$",
    re.IGNORECASE,
)
_INLINE_REF = re.compile(
    r"\s*\((?:(?:fix(?:es|ed)?|close[sd]?|refs?|see|pr|gh)\s*:?\s*)?(?:(?:\w[\w.-]*/[\w.-]+)?#\d+|gh-\d+)"
    r"(?:\s*,\s*(?:(?:\w[\w.-]*/[\w.-]+)?#\d+|gh-\d+))*\)"
    r"|\s*\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|refs?)\s*:?\s*(?:(?:\w[\w.-]*/[\w.-]+)?#\d+|gh-\d+)"
    r"|\s*(?:(?:\w[\w.-]*/[\w.-]+)?#\d+|\bgh-\d+)\b"
    r"|\s*\[(?:skip ci|ci skip|no ci|skip-ci)\]",
    re.IGNORECASE,
)
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_WORD = re.compile(r"[A-Za-z_$][\w$]*")
_CODE_LIKE = re.compile(r"_|[a-z][A-Z]|[A-Z]{2,}[a-z]|\d")


@dataclass(frozen=True)
class Language:
    """One manifest `[languages.NAME]` record."""

    name: str
    extensions: tuple[str, ...]
    imports: re.Pattern[str]
    import_continuations: re.Pattern[str]
    definitions: tuple[re.Pattern[str], ...]


@dataclass(frozen=True)
class Repo:
    """One manifest `[[repo]]` record."""

    name: str
    commit: str
    language: str
    split: str
    # The manifest's `max_tasks` for this repository, when it keeps fewer than `max_tasks_per_repo`
    # (a split spreading about 100 tasks a language over more projects).
    max_tasks: int | None = None


@dataclass(frozen=True)
class Manifest:
    seed: int
    max_commits: int
    max_tasks_per_repo: int
    max_tasks_per_file: int
    languages: dict[str, Language]
    repos: tuple[Repo, ...]


@dataclass(frozen=True)
class Commit:
    sha: str
    parents: tuple[str, ...]
    author: str
    message: str
    # (status letter, path) per changed file, renames shown as a delete and an add.
    changes: tuple[tuple[str, str], ...]


class ManifestError(ValueError):
    """Raised when the manifest is not one the builder can follow (unknown split or language,
    a repository listed twice or in both splits)."""


def load_manifest(text: str) -> Manifest:
    """Parse the manifest's TOML and check it.

    Raises:
        ManifestError: a repository has an unknown split or language, or is listed twice.
    """
    data = tomllib.loads(text)
    languages = {
        name: Language(
            name=name,
            extensions=tuple(spec["extensions"]),
            imports=re.compile(spec["imports"]),
            import_continuations=re.compile(spec["import_continuations"]),
            definitions=tuple(re.compile(p) for p in spec["definitions"]),
        )
        for name, spec in data["languages"].items()
    }
    repos = tuple(
        Repo(r["name"], r["commit"], r["language"], r["split"], r.get("max_tasks")) for r in data["repo"]
    )
    check_splits(repos, set(languages))
    build = data["build"]
    return Manifest(
        seed=int(build["seed"]),
        max_commits=int(build["max_commits"]),
        max_tasks_per_repo=int(build["max_tasks_per_repo"]),
        max_tasks_per_file=int(build["max_tasks_per_file"]),
        languages=languages,
        repos=repos,
    )


def check_splits(repos: Iterable[Repo], languages: set[str]) -> None:
    """Each repository is in exactly one known split, once: no project feeds two splits.

    Raises:
        ManifestError: an unknown split or language, or a repository listed twice.
    """
    seen: dict[str, str] = {}
    for repo in repos:
        if repo.split not in SPLITS:
            raise ManifestError(f"{repo.name}: split {repo.split!r} is not one of {SPLITS}")
        if repo.language not in languages:
            raise ManifestError(f"{repo.name}: language {repo.language!r} has no [languages] record")
        key = repo.name.lower()
        if key in seen:
            raise ManifestError(f"{repo.name} is listed twice ({seen[key]} and {repo.split})")
        seen[key] = repo.split


# ---------------------------------------------------------------- the message


def clean_message(raw: str) -> str | None:
    """The commit message as a question: subject and body as written, less trailers, issue and
    pull-request references, CI tags and tools' boilerplate (pre-commit.ci, "Generated with");
    None when the subject is not a real one (bookkeeping such as a merge, revert, version bump or
    typo fix; work in progress; only a ticket id or review chatter; or fewer than three words)."""
    lines = raw.strip().splitlines()
    if not lines:
        return None
    kept: list[str] = []
    for line in lines:
        if _TRAILER.match(line) or _REF_LINE.match(line) or _TOOL_LINE.match(line):
            continue
        kept.append(_INLINE_REF.sub("", line).rstrip())
    while kept and not kept[-1].strip():
        kept.pop()
    if not kept:
        return None
    subject = kept[0].strip()
    if (
        len(subject.split()) < MIN_SUBJECT_WORDS
        or _NOT_A_QUESTION.match(subject)
        or _VERSION_ONLY.match(subject)
        or not says_something(subject)
    ):
        return None
    body = "\n".join(kept[1:]).strip()
    body = re.sub(r"\n{3,}", "\n\n", body)
    return f"{subject}\n\n{body}" if body else subject


def says_something(subject: str) -> bool:
    """True when the subject has a word beyond ticket ids and the words that only say a change
    happened ("Fixed issue 156.", "[JavaDoc] Fix LANG-1793", "Addressed PR feedback" and GitHub's
    "Update src/app.rs" say nothing)."""
    words_only = _TICKET.sub(" ", subject)
    if _WEB_EDIT.match(words_only.strip()):
        return False
    return any(w.lower() not in _EMPTY_WORDS for w in _WORD.findall(words_only))


def is_bot(author: str) -> bool:
    """True for an author line (`name <email>`) of a bot account."""
    return bool(_BOT.search(author))


# ---------------------------------------------------------------- the change


@dataclass(frozen=True)
class Gold:
    gold: tuple[int, ...]
    critical: tuple[int, ...]
    changed: tuple[str, ...]  # every line the diff removes or adds, for the imports-only check


def gold_from_diff(diff: str, before: list[str]) -> Gold:
    """Gold and critical lines (1-based, in `before`) from a `git diff -U0` of one file.

    A hunk that removes lines makes those lines gold and critical. A pure insertion (`-a,0`: after
    line a) makes gold the nearest non-blank line at or before a and the nearest at or after a+1:
    where the new code goes, the lines an editor must find. Blank lines are never gold (the
    harness scores non-blank lines only).
    """
    gold: set[int] = set()
    critical: set[int] = set()
    changed: list[str] = []
    for line in diff.splitlines():
        m = _HUNK.match(line)
        if m:
            start = int(m.group(1))
            count = 1 if m.group(2) is None else int(m.group(2))
            if count:
                span = {i for i in range(start, start + count) if before[i - 1].strip()}
                gold |= span
                critical |= span
            else:
                gold |= _around(before, start)
            continue
        if line[:1] in "+-" and not line.startswith(("+++", "---")):
            changed.append(line[1:])
    return Gold(tuple(sorted(gold)), tuple(sorted(critical)), tuple(changed))


def _around(before: list[str], after_line: int) -> set[int]:
    """The nearest non-blank line at or above `after_line` and at or below the next one (1-based)."""
    out: set[int] = set()
    i = after_line
    while i >= 1 and not before[i - 1].strip():
        i -= 1
    if i >= 1:
        out.add(i)
    j = after_line + 1
    while j <= len(before) and not before[j - 1].strip():
        j += 1
    if j <= len(before):
        out.add(j)
    return out


def only_imports(changed: Iterable[str], language: Language) -> bool:
    """True when every non-blank changed line is an import or continues one, and one is an import."""
    lines = [c for c in changed if c.strip()]
    opens = [c for c in lines if language.imports.match(c)]
    return bool(opens) and all(
        language.imports.match(c) or language.import_continuations.match(c) for c in lines
    )


# ---------------------------------------------------------------- names


def defined_names(text_lines: Iterable[str], language: Language) -> set[str]:
    """The names the file defines, by the language's definition patterns (`a::b` gives a and b)."""
    names: set[str] = set()
    for line in text_lines:
        for pattern in language.definitions:
            m = pattern.search(line)
            if m and m.group(1):
                names.update(part for part in m.group(1).split("::") if part and part != "~")
    return names


def named_identifiers(question: str) -> set[str]:
    """The words of a question written as code: `snake_case`, `camelCase`/`PascalCase` with an inner
    capital, digits, quoted in backticks or quotes, called `name(`, `a.b` / `a::b` parts, or
    capitalised mid-sentence (a class name, not the first word of a sentence)."""
    out: set[str] = set()
    for m in _WORD.finditer(question):
        word, start, end = m.group(), m.start(), m.end()
        before = question[start - 1] if start else ""
        after = question[end] if end < len(question) else ""
        sentence_start = not question[:start].strip() or bool(re.search(r"[.!?:\n]\s*$", question[:start]))
        if (
            _CODE_LIKE.search(word)
            or (before and before in "`'\"")
            or (after and after in "(`'\"")
            or question[end : end + 2] == "::"
            or question[max(0, start - 2) : start] == "::"
            or before == "."
            or (after == "." and question[end + 1 : end + 2].isalpha())
            or (word[0].isupper() and not sentence_start)
        ):
            out.add(word)
    return out


def question_kind(question: str, names: set[str]) -> str:
    """`names_symbol` when the question names, as code, an identifier the file defines; else `plain`."""
    return "names_symbol" if named_identifiers(question) & names else "plain"


# ---------------------------------------------------------------- paths


def is_aside(path: str) -> bool:
    """A test, doc or changelog path: it may change beside the commit's one source file."""
    parts = path.lower().split("/")
    # .NET keeps tests in their own projects: `Newtonsoft.Json.Tests/`, `Autofac.Specification.Test/`.
    test_project = any(part.endswith(_TEST_PROJECT_SUFFIXES) for part in parts[:-1])
    return test_project or bool(_ASIDE_DIRS.intersection(parts[:-1])) or bool(_ASIDE_FILE.search(parts[-1]))


def source_file(changes: Iterable[tuple[str, str]], language: Language) -> str | None:
    """The commit's one modified source file of `language`, when every other change is aside."""
    sources = [
        (status, path)
        for status, path in changes
        if not is_aside(path)
        and path.endswith(language.extensions)
        and not _CONFIG_FILE.search(path.rsplit("/", 1)[-1])
    ]
    others = [path for status, path in changes if not is_aside(path) and (status, path) not in sources]
    if len(sources) != 1 or others or sources[0][0] != "M" or sources[0][1].endswith(".min.js"):
        return None
    return sources[0][1]


# ---------------------------------------------------------------- git


def _git(git_dir: Path, *args: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", *args], capture_output=True, check=True, text=True, errors="replace"
    ).stdout


def read_commits(git_dir: Path, commit: str, max_commits: int) -> Iterator[Commit]:
    """Non-merge commits from `commit` back, with their changed files (renames as delete + add)."""
    out = _git(
        git_dir,
        "log",
        commit,
        "--no-merges",
        "--no-renames",
        f"--max-count={max_commits}",
        "--format=%x1e%H%x1f%P%x1f%an <%ae>%x1f%B%x1d",
        "--name-status",
    )
    for record in out.split("\x1e")[1:]:
        head, _, files = record.partition("\x1d")
        sha, parents, author, message = head.split("\x1f", 3)
        changes = tuple(
            (fields[0][0], fields[-1])
            for fields in (line.split("\t") for line in files.strip().splitlines())
            if len(fields) >= 2
        )
        yield Commit(sha, tuple(parents.split()), author, message, changes)


def build_repo(git_dir: Path, repo: Repo, manifest: Manifest) -> tuple[list[dict[str, Any]], Counter[str]]:
    """The tasks of one repository (seeded sample), and why candidates were skipped."""
    language = manifest.languages[repo.language]
    why: Counter[str] = Counter()
    candidates: list[tuple[Commit, str, str]] = []
    for c in read_commits(git_dir, repo.commit, manifest.max_commits):
        if len(c.parents) != 1 or is_bot(c.author):
            why["merge or bot"] += 1
            continue
        path = source_file(c.changes, language)
        if path is None:
            why["not one source file"] += 1
            continue
        question = clean_message(c.message)
        if question is None:
            why["no real subject"] += 1
            continue
        candidates.append((c, path, question))
    candidates.sort(key=lambda cand: sample_key(manifest.seed, repo.name, cand[0].sha))
    tasks: list[dict[str, Any]] = []
    per_file: Counter[str] = Counter()
    max_tasks = manifest.max_tasks_per_repo if repo.max_tasks is None else repo.max_tasks
    for c, path, question in candidates:
        if len(tasks) >= max_tasks:
            break
        if per_file[path] >= manifest.max_tasks_per_file:
            why["file already has its tasks"] += 1
            continue
        task = build_task(git_dir, repo, language, c, path, question, why)
        if task is not None:
            per_file[path] += 1
            tasks.append(task)
    return tasks, why


def sample_key(seed: int, repo: str, sha: str) -> str:
    """A commit's place in its repository's seeded sample: a hash of the seed, repository and commit,
    so the sample keeps every task it had when a filter drops or admits other commits (a shuffle of
    the candidate list would draw another sample from any change to the list)."""
    return hashlib.sha256(f"{seed}:{repo}:{sha}".encode()).hexdigest()


def build_task(
    git_dir: Path, repo: Repo, language: Language, c: Commit, path: str, question: str, why: Counter[str]
) -> dict[str, Any] | None:
    """One task from one candidate commit, or None (the reason counted in `why`)."""
    parent = c.parents[0]
    try:
        before = source_lines(git_dir, parent, path)
    except UnusableFile as e:
        why[e.reason] += 1
        return None
    ws_diff = _git(git_dir, "diff", "-w", "--ignore-blank-lines", parent, c.sha, "--", path)
    if not ws_diff.strip():
        why["whitespace only"] += 1
        return None
    gold = gold_from_diff(_git(git_dir, "diff", "-U0", "--no-color", parent, c.sha, "--", path), before)
    if not gold.gold:
        why["no gold line"] += 1
        return None
    if len(gold.gold) > MAX_GOLD_LINES:
        why["change too large"] += 1
        return None
    if only_imports(gold.changed, language):
        why["imports only"] += 1
        return None
    return {
        "id": f"commit:{repo.name}@{c.sha[:12]}:{path}",
        "kind": "code",
        "source_type": "code",
        "goal_hint": question,
        "text": "\n".join(before),
        "gold": list(gold.gold),
        "critical": list(gold.critical),
        "path": path,
        "question_kind": question_kind(question, defined_names(before, language)),
        "repo": repo.name,
        "commit": c.sha,
        "language": repo.language,
    }


def git_dir_of(mirror_dir: Path, repo: Repo) -> Path:
    """Where `fetch github:owner/name` leaves a repository's git directory."""
    base = mirror_dir / repo.name.replace("/", "+")
    for git_dir in (base / "repo" / ".git", base / "repo"):  # some snapshots are clones with a work tree
        if git_dir.is_dir():
            return git_dir
    return base


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--manifest", type=Path, default=Path(__file__).with_name("manifest.toml"))
    ap.add_argument("--mirror-dir", type=Path, required=True, help="owner+name/repo git directories")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--language", action="append", help="only these languages (repeatable)")
    ap.add_argument("--split", choices=SPLITS, action="append", help="only these splits (repeatable)")
    args = ap.parse_args()
    manifest = load_manifest(args.manifest.read_text(encoding="utf-8"))
    by_set: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for repo in manifest.repos:
        if (args.language and repo.language not in args.language) or (
            args.split and repo.split not in args.split
        ):
            continue
        git_dir = git_dir_of(args.mirror_dir, repo)
        tasks, why = build_repo(git_dir, repo, manifest)
        kinds = Counter(t["question_kind"] for t in tasks)
        print(f"{repo.split:9s} {repo.language:6s} {repo.name:24s} {len(tasks):3d} tasks {dict(kinds)}")
        print(f"{'':9s} skipped: {dict(why)}")
        by_set.setdefault((repo.split, repo.language), []).extend(tasks)
    for (split, lang), tasks in sorted(by_set.items()):
        write_set(args.out / split / f"{lang}.jsonl", tasks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
