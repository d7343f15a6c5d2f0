"""The commit-set builder: diff to gold lines, message cleaning, split checks, and its seeded sample
drawn from a real git repository made here."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[3] / "benchmarks" / "sets"))
import build_commit_sets
from build_commit_sets import (
    ManifestError,
    Repo,
    build_repo,
    check_splits,
    clean_message,
    defined_names,
    gold_from_diff,
    is_bot,
    load_manifest,
    only_imports,
    question_kind,
    source_file,
)

MANIFEST = Path(__file__).parents[3] / "benchmarks" / "sets" / "manifest.toml"
BEFORE = ["import os", "", "def a():", "    return 1", "", "", "def b():", "    x = 2", "    return x"]


def test_a_rewritten_hunk_makes_its_old_lines_gold_and_critical() -> None:
    diff = "@@ -8,2 +8,3 @@ def b():\n-    x = 2\n-    return x\n+    x = 3\n+    y = x\n+    return y\n"
    gold = gold_from_diff(diff, BEFORE)
    assert gold.gold == (8, 9)
    assert gold.critical == (8, 9)


def test_a_single_line_hunk_without_a_count_is_one_line() -> None:
    gold = gold_from_diff("@@ -4 +4 @@\n-    return 1\n+    return 2\n", BEFORE)
    assert gold.gold == (4,)


def test_a_pure_insertion_is_gold_by_its_nonblank_neighbours_and_critical_by_nothing() -> None:
    # Inserted after line 5 (blank): the neighbours are line 4 above and line 7 below.
    gold = gold_from_diff("@@ -5,0 +6,2 @@\n+def c():\n+    pass\n", BEFORE)
    assert gold.gold == (4, 7)
    assert gold.critical == ()


def test_blank_lines_a_hunk_removes_are_not_gold() -> None:
    gold = gold_from_diff("@@ -4,3 +4,1 @@\n-    return 1\n-\n-\n+    return 0\n", BEFORE)
    assert gold.gold == (4,)


def test_a_change_of_imports_only_is_recognised_and_one_with_code_is_not() -> None:
    python = load_manifest(MANIFEST.read_text()).languages["python"]
    assert only_imports(["import os", "from a import (", "    b,", ")"], python)
    assert not only_imports(["import os", "x = compute()"], python)
    assert not only_imports(["    b,"], python)  # a continuation with no import is code


def test_trailers_issue_references_and_ci_tags_leave_the_message() -> None:
    raw = (
        "Fix the cache key for nested fixtures (#1234)\n\n"
        "The key ignored the scope, see #99.\n\n"
        "Fixes #1200\n"
        "Signed-off-by: A Person <a@example.org>\n"
        "Co-authored-by: B <b@example.org>\n"
    )
    assert clean_message(raw) == "Fix the cache key for nested fixtures\n\nThe key ignored the scope, see."


def test_bookkeeping_subjects_and_short_ones_are_not_questions() -> None:
    for raw in (
        "Merge branch 'main'",
        "Bump version to 1.2",
        "Fix typo in docs",
        'Revert "x y z"',
        "cleanup",
    ):
        assert clean_message(raw) is None, raw
    assert clean_message("[skip ci] Handle empty header values") == "Handle empty header values"


def test_bot_authors_are_recognised() -> None:
    assert is_bot("dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>")
    assert not is_bot("Jane Doe <jane@example.org>")


def test_one_source_file_beside_tests_and_docs_is_a_candidate_and_two_are_not() -> None:
    go = load_manifest(MANIFEST.read_text()).languages["go"]
    beside = (("M", "node.go"), ("M", "node_test.go"), ("A", "docs/notes.md"), ("M", "CHANGELOG.md"))
    assert source_file(beside, go) == "node.go"
    assert source_file((("M", "node.go"), ("M", "page.go")), go) is None
    assert source_file((("M", "node.go"), ("M", "go.mod")), go) is None
    assert source_file((("A", "node.go"),), go) is None  # an added file has no "before"


def test_a_translation_catalog_is_not_a_source_file_and_may_change_beside_one() -> None:
    php = load_manifest(MANIFEST.read_text()).languages["php"]
    assert source_file([("M", "app/i18n/vi/entities.php")], php) is None
    assert source_file([("M", "src/Carbon/Lang/lt.php")], php) is None
    assert source_file([("M", "app/Models/Entry.php"), ("M", "resources/lang/en/entries.php")], php) == (
        "app/Models/Entry.php"
    )


def test_a_message_naming_a_defined_function_as_code_is_names_symbol() -> None:
    python = load_manifest(MANIFEST.read_text()).languages["python"]
    names = defined_names(["def parse_args(argv):", "class Runner:", "    def run(self):"], python)
    assert {"parse_args", "Runner", "run"} <= names
    assert question_kind("Handle empty argv in parse_args", names) == "names_symbol"
    assert question_kind("Let the Runner retry once", names) == "names_symbol"
    assert question_kind("Run the hooks in order", names) == "plain"  # `Run` opens the sentence


def test_a_repository_in_both_splits_or_an_unknown_split_is_refused() -> None:
    dev = Repo("o/a", "0" * 40, "python", "dev")
    with pytest.raises(ManifestError):
        check_splits([dev, Repo("O/A", "1" * 40, "python", "untouched")], {"python"})
    with pytest.raises(ManifestError):
        check_splits([Repo("o/b", "0" * 40, "python", "heldout")], {"python"})
    check_splits([dev, Repo("o/b", "0" * 40, "python", "untouched")], {"python"})


def test_the_shipped_manifest_has_every_split_in_every_language() -> None:
    manifest = load_manifest(MANIFEST.read_text())
    for language in manifest.languages:
        splits = {r.split for r in manifest.repos if r.language == language}
        assert splits == {"dev", "untouched", "train", "fresh", "fresh2"}, language


def test_a_repository_in_train_and_fresh_is_refused() -> None:
    with pytest.raises(ManifestError):
        check_splits([Repo("o/a", "0" * 40, "go", "train"), Repo("o/a", "0" * 40, "go", "fresh")], {"go"})


def test_tool_boilerplate_in_a_squashed_message_is_left_out() -> None:
    raw = (
        "Narrower typing on Factory\n\n* Narrower typing on Factory\n\n"
        "* [pre-commit.ci] auto fixes from pre-commit.com hooks\n\n"
        "for more information, see https://pre-commit.ci\n\n"
        "🤖 Generated with [Claude Code](https://claude.ai/code)\n"
    )
    assert clean_message(raw) == "Narrower typing on Factory\n\n* Narrower typing on Factory"


def test_a_dotnet_test_project_beside_the_source_file_counts_as_tests() -> None:
    csharp = load_manifest(MANIFEST.read_text()).languages["csharp"]
    changes = (
        ("M", "Src/Json/JsonReader.cs"),
        ("M", "Src/Json.Tests/ReaderTests.cs"),
        ("M", "Src/Json.Tests/Data.cs"),
    )
    assert source_file(changes, csharp) == "Src/Json/JsonReader.cs"


def test_messages_that_are_only_a_ticket_id_wip_or_review_chatter_are_not_questions() -> None:
    for raw in (
        "Fixed issue 156.",
        "[JavaDoc] Fix LANG-1793",
        "- Fixed IOC-91",
        "Comments from r723.",
        "Addressed PR feedback",
        "address more review comments",
        "WIP: parser rework in progress",
        "[WIP] parser rework in progress",
    ):
        assert clean_message(raw) is None, raw


def test_version_bumps_in_any_tense_are_not_questions() -> None:
    for raw in (
        "Bumped to version 0.8.4.1",
        "bumping to 2.0.1 to work around Rack",
        "Intermediate version 0.4.12.1.",
        "Update to 1.2.3",
        "Run 'cargo fmt'",
    ):
        assert clean_message(raw) is None, raw


def test_githubs_web_editor_subject_is_not_a_question() -> None:
    assert clean_message("Edited lib/generators/templates/devise.rb via GitHub") is None
    assert clean_message("Update src/bin/bat/clap_app.rs for PR 2309") is None
    assert clean_message("Update error serializer for nested causes") is not None


def test_a_subject_with_a_ticket_id_and_words_is_a_question() -> None:
    for raw in (
        "LANG-771 Fix DateUtils.ceiling increment on exact boundary",
        "Fix Issue 1340. Bring back default behavior for the binder",
        "Fix Python 3 issue with errors arg",
        "Use global constant if available for libpq version",
    ):
        assert clean_message(raw) is not None, raw


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=True, text=True).stdout


def _twelve_one_file_commits(tmp_path: Path) -> Path:
    """A git repository with twelve candidate commits, each changing one line of its own module."""
    repo = tmp_path / "r"
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "dev@example.org")
    _git(repo, "config", "user.name", "A Developer")
    for i in range(12):  # one file per commit: the per-file cap plays no part
        (repo / f"mod{i}.py").write_text("".join(f"def f{j}():\n    return {j}\n\n" for j in range(40)))
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "Add the modules")
    for i in range(12):
        path = repo / f"mod{i}.py"
        path.write_text(path.read_text().replace("return 7\n", "return 70\n"))
        _git(repo, "commit", "-q", "-am", f"Return seventy from f7 in module {i}")
    return repo


def test_a_repositorys_own_max_tasks_keeps_the_head_of_its_sample(tmp_path: Path) -> None:
    repo = _twelve_one_file_commits(tmp_path)
    manifest = replace(load_manifest(MANIFEST.read_text()), max_tasks_per_repo=8)
    head = _git(repo, "rev-parse", "HEAD").strip()
    uncapped = build_repo(repo / ".git", Repo("o/r", head, "python", "fresh2"), manifest)[0]
    every = [t["commit"] for t in uncapped]
    capped = build_repo(repo / ".git", Repo("o/r", head, "python", "fresh2", max_tasks=3), manifest)[0]
    assert len(every) == 8
    assert [t["commit"] for t in capped] == every[:3]


def test_a_manifest_repository_may_set_its_own_max_tasks() -> None:
    record = f'\n[[repo]]\nname = "o/capped"\ncommit = "{"0" * 40}"\nlanguage = "go"\nsplit = "fresh2"\n'
    manifest = load_manifest(MANIFEST.read_text() + record + "max_tasks = 7\n")
    assert [r.max_tasks for r in manifest.repos if r.name == "o/capped"] == [7]
    assert {r.max_tasks for r in manifest.repos if r.split == "dev"} == {None}


def test_a_filter_dropping_one_commit_leaves_the_rest_of_the_sample_in_place(tmp_path: Path) -> None:
    repo = _twelve_one_file_commits(tmp_path)
    manifest = replace(load_manifest(MANIFEST.read_text()), max_tasks_per_repo=5)
    spec = Repo("o/r", _git(repo, "rev-parse", "HEAD").strip(), "python", "train")
    before = [t["commit"] for t in build_repo(repo / ".git", spec, manifest)[0]]
    assert len(before) == 5
    dropped = before[2]
    dropped_subject = _git(repo, "log", "-1", "--format=%s", dropped).strip()
    stricter = build_commit_sets.clean_message

    def clean_message_without_one(raw: str) -> str | None:
        return None if raw.strip() == dropped_subject else stricter(raw)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(build_commit_sets, "clean_message", clean_message_without_one)
        after = [t["commit"] for t in build_repo(repo / ".git", spec, manifest)[0]]
    assert len(after) == 5
    assert set(before) - set(after) == {dropped}


def test_a_leading_type_or_scope_does_not_hide_bookkeeping() -> None:
    for raw in ("docs(mainpage): fix typo", "Config: update version nr to next", "chore: bump deps"):
        assert clean_message(raw) is None, raw
    assert clean_message("fix(middleware): reset ContentLength after gzip decompression") is not None
    assert clean_message("remote: merge if-statements") is not None  # a merge of code, not of branches
    assert clean_message("Merge branch 'main' into parser") is None


def test_who_sent_the_patch_is_not_what_it_is_about() -> None:
    for raw in (
        "- Applied Tyler Burd's patch for AR-242.",
        "Fixed AR-208. Patch submitted by Michael Thomas.",
        "Fixing  IOC-ISSUE-83, applying patch from alwin",
    ):
        assert clean_message(raw) is None, raw
    assert clean_message("Applied Bill Pierce's patch fixing AR-179: support Any properties") is not None
