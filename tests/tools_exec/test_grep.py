from __future__ import annotations

import importlib
import os
import shutil
import stat
import sys
import threading
from pathlib import Path
from typing import Any, Literal

import anyio
import pytest

from tools_exec.errors import InvalidPathError, RgError, SpawnError, ToolTimeoutError
from tools_exec.grep import GrepMatch, GrepResult, find_rg, grep
from tools_exec.paths import resolve_inside

pytestmark = pytest.mark.anyio

# The module, not the `grep` function `tools_exec` re-exports under the same name.
grep_module = importlib.import_module("tools_exec.grep")

Engine = Literal["auto", "rg", "python"]
ENGINES: list[Engine] = ["rg", "python"]  # the two `auto` chooses between, each tested on its own


@pytest.fixture
def tree(root: Path) -> Path:
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("import os\n\ndef handler(request_id):\n    return request_id\n")
    (root / "src" / "flags.txt").write_text("--verbose\n-foo is a flag\nplain foo\n")
    (root / "docs").mkdir()
    (root / "docs" / "notes.md").write_text("Request_ID in caps\nnothing here\nrequest_id again\n")
    return root


async def _grep(root: Path, pattern: str, paths: list[str], engine: Engine, **kwargs: Any) -> GrepResult:
    with anyio.fail_after(10):
        return await grep(root, pattern, paths, engine=engine, **kwargs)


@pytest.mark.parametrize("engine", ENGINES)
async def test_matches_carry_root_relative_paths_lines_and_columns(tree: Path, engine: Engine) -> None:
    result = await _grep(tree, "request_id", ["."], engine)
    assert result.engine == engine
    assert result.matches == (
        GrepMatch("docs/notes.md", 3, 1, "request_id again"),
        GrepMatch("src/app.py", 3, 13, "def handler(request_id):"),
        GrepMatch("src/app.py", 4, 12, "    return request_id"),
    )
    assert result.match_count == 3
    assert not result.truncated
    assert result.paths == (".",)


async def test_both_engines_give_the_same_result_on_the_same_tree(tree: Path) -> None:
    for kwargs in ({}, {"case_sensitive": False}, {"context_lines": 1}, {"fixed_string": True}):
        by_rg = await _grep(tree, "request_id|foo", ["src", "docs"], "rg", **kwargs)
        by_python = await _grep(tree, "request_id|foo", ["src", "docs"], "python", **kwargs)
        assert by_rg.matches == by_python.matches, kwargs
        assert (by_rg.match_count, by_rg.truncated) == (by_python.match_count, by_python.truncated), kwargs


async def test_both_engines_truncate_alike_though_rg_may_pick_other_files_first(tree: Path) -> None:
    # rg searches files in parallel: which files fill the first `max_matches` is not fixed.
    by_rg = await _grep(tree, "request_id|foo", ["src", "docs"], "rg", max_matches=2)
    by_python = await _grep(tree, "request_id|foo", ["src", "docs"], "python", max_matches=2)
    assert (by_rg.match_count, by_rg.truncated) == (by_python.match_count, by_python.truncated) == (2, True)


@pytest.mark.parametrize("engine", ENGINES)
async def test_pattern_starting_with_a_dash_is_a_pattern_not_a_flag(tree: Path, engine: Engine) -> None:
    result = await _grep(tree, "-foo", ["src"], engine)
    assert [match.text for match in result.matches] == ["-foo is a flag"]
    result = await _grep(tree, "--verbose", ["src"], engine)
    assert [match.text for match in result.matches] == ["--verbose"]


@pytest.mark.parametrize("engine", ENGINES)
async def test_fixed_string_takes_regex_characters_literally(root: Path, engine: Engine) -> None:
    (root / "a.txt").write_text("a.c\nabc\n")
    assert [m.text for m in (await _grep(root, "a.c", ["."], engine)).matches] == ["a.c", "abc"]
    assert [m.text for m in (await _grep(root, "a.c", ["."], engine, fixed_string=True)).matches] == ["a.c"]


@pytest.mark.parametrize("engine", ENGINES)
async def test_case_insensitive_search_finds_every_spelling(tree: Path, engine: Engine) -> None:
    sensitive = await _grep(tree, "request_id", ["docs"], engine)
    insensitive = await _grep(tree, "request_id", ["docs"], engine, case_sensitive=False)
    assert sensitive.match_count == 1
    assert insensitive.match_count == 2


@pytest.mark.parametrize("engine", ENGINES)
async def test_context_lines_are_marked_as_context(root: Path, engine: Engine) -> None:
    (root / "a.txt").write_text("one\ntwo\nTARGET\nfour\nfive\n")
    result = await _grep(root, "TARGET", ["a.txt"], engine, context_lines=1)
    assert result.matches == (
        GrepMatch("a.txt", 2, None, "two", "context"),
        GrepMatch("a.txt", 3, 1, "TARGET", "match"),
        GrepMatch("a.txt", 4, None, "four", "context"),
    )
    assert result.match_count == 1


@pytest.mark.parametrize("engine", ENGINES)
async def test_max_matches_truncates_only_when_there_were_more(root: Path, engine: Engine) -> None:
    (root / "a.txt").write_text("hit\n" * 10)
    capped = await _grep(root, "hit", ["."], engine, max_matches=3)
    exact = await _grep(root, "hit", ["."], engine, max_matches=10)
    assert (capped.match_count, capped.truncated) == (3, True)
    assert [match.line for match in capped.matches] == [1, 2, 3]
    assert (exact.match_count, exact.truncated) == (10, False)


async def test_rg_is_stopped_as_soon_as_max_matches_is_exceeded(root: Path) -> None:
    (root / "a.txt").write_text("hit\nhit\n")
    os.mkfifo(root / "never-written")  # rg would block reading it until the timeout (20 s)
    result = await _grep(root, "hit", ["a.txt", "never-written"], "rg", max_matches=1, timeout_ms=20_000)
    assert result.truncated  # returned before `_grep`'s 10 s hang guard: rg was stopped
    assert result.match_count == 1


@pytest.mark.parametrize("engine", ENGINES)
async def test_output_cap_truncates_and_keeps_the_head_of_a_huge_line(root: Path, engine: Engine) -> None:
    (root / "min.js").write_text("var x = 1;" * 100_000 + "\nvar y;\n")
    result = await _grep(root, "var", ["."], engine, max_output_bytes=2048)
    assert result.truncated
    assert result.match_count == 1
    assert 1000 < len(result.matches[0].text) <= 2048


@pytest.mark.parametrize("engine", ENGINES)
async def test_paths_are_resolved_from_cwd_inside_the_root(tree: Path, engine: Engine) -> None:
    result = await _grep(tree, "handler", ["app.py"], engine, cwd="src")
    assert result.paths == ("src/app.py",)
    assert [match.path for match in result.matches] == ["src/app.py"]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("path", ["..", "../outside.txt", "/etc", "link"])
async def test_paths_outside_the_root_are_refused(root: Path, engine: Engine, path: str) -> None:
    os.symlink(root.parent / "outside.txt", root / "link")
    with pytest.raises(InvalidPathError):
        await _grep(root, "secret", [path], engine)


@pytest.mark.parametrize("engine", ENGINES)
async def test_a_symlink_inside_a_searched_directory_is_not_followed(root: Path, engine: Engine) -> None:
    os.symlink(root.parent / "outside.txt", root / "link")
    result = await _grep(root, "secret", ["."], engine)
    assert result.matches == ()


@pytest.mark.parametrize("engine", ENGINES)
async def test_missing_path_is_invalid(root: Path, engine: Engine) -> None:
    with pytest.raises(InvalidPathError, match="no such file"):
        await _grep(root, "x", ["nope"], engine)


@pytest.mark.parametrize("engine", ENGINES)
async def test_invalid_regex_is_an_rg_error(root: Path, engine: Engine) -> None:
    (root / "a.txt").write_text("x\n")
    with pytest.raises(RgError) as caught:
        await _grep(root, "(unclosed", ["."], engine)
    assert caught.value.code == "rg_error"
    assert caught.value.exit_code == 2
    assert "regex" in caught.value.message.lower()


@pytest.mark.parametrize("engine", ENGINES)
async def test_binary_files_are_skipped_while_walking(root: Path, engine: Engine) -> None:
    (root / "blob.bin").write_bytes(b"needle\0binary")
    (root / "text.txt").write_text("needle\n")
    result = await _grep(root, "needle", ["."], engine)
    assert [match.path for match in result.matches] == ["text.txt"]


async def test_rg_timeout_kills_the_search_and_returns_the_partial_result(root: Path) -> None:
    (root / "a.txt").write_text("hit\n")
    os.mkfifo(root / "never-written")
    with pytest.raises(ToolTimeoutError) as caught:
        await _grep(root, "hit", ["a.txt", "never-written"], "rg", timeout_ms=300)
    partial = caught.value.partial
    assert isinstance(partial, GrepResult)
    # A search that ignored its timeout would block on the FIFO until `_grep`'s fail_after; how
    # soon after the timeout it returns: benchmarks/bench_tools.py.
    assert partial.truncated
    assert partial.engine == "rg"


async def test_python_search_timeout_returns_the_partial_result(root: Path) -> None:
    (root / "big.txt").write_text("hit\n" * 200_000)
    with pytest.raises(ToolTimeoutError) as caught:
        await _grep(root, "hit", ["."], "python", timeout_ms=1, max_matches=5000)
    assert isinstance(caught.value.partial, GrepResult)
    assert caught.value.partial.engine == "python"


@pytest.mark.parametrize("entries", ["empty files", "empty directories"])
async def test_python_search_honours_the_timeout_while_walking_a_tree_without_lines(
    root: Path, entries: str
) -> None:
    # No line is ever read here: only checks per file and per directory can notice the deadline.
    for index in range(1500):
        if entries == "empty files":
            (root / f"f{index}.txt").touch()
        else:
            (root / f"d{index}").mkdir()
    with pytest.raises(ToolTimeoutError):
        await _grep(root, "hit", ["."], "python", timeout_ms=1)


async def test_missing_rg_falls_back_to_the_python_searcher(
    tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty_bin = tmp_path / "empty-bin"
    empty_bin.mkdir()
    monkeypatch.setattr(sys, "executable", str(empty_bin / "python"))
    monkeypatch.setenv("PATH", str(empty_bin))
    assert find_rg() is None
    result = await _grep(tree, "request_id", ["."], "auto")
    assert result.engine == "python"
    assert result.match_count == 3


def test_the_wheel_rg_next_to_python_is_found_first() -> None:
    found = find_rg()
    assert found == str(Path(sys.executable).parent / "rg")


async def test_missing_rg_binary_is_a_spawn_error(tree: Path) -> None:
    with pytest.raises(SpawnError):
        await _grep(tree, "x", ["."], "auto", rg_path=str(tree / "no-rg"))


async def test_unexecutable_rg_is_a_spawn_error(tree: Path) -> None:
    fake = tree / "rg"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(stat.S_IRUSR)
    with pytest.raises(SpawnError):
        await _grep(tree, "x", ["."], "auto", rg_path=str(fake))


@pytest.mark.parametrize(
    ("pattern", "paths", "kwargs", "message"),
    [
        ("", ["."], {}, "pattern"),
        ("a\0b", ["."], {}, "NUL"),
        ("x", [], {}, "paths"),
        ("x", ".", {}, "paths"),
        ("x", ["."], {"max_matches": 0}, "max_matches"),
        ("x", ["."], {"context_lines": -1}, "context_lines"),
        ("x", ["."], {"timeout_ms": 0}, "timeout_ms"),
    ],
)
async def test_nonsense_arguments_are_value_errors(
    root: Path, pattern: str, paths: list[str], kwargs: dict[str, Any], message: str
) -> None:
    with anyio.fail_after(5), pytest.raises(ValueError, match=message):
        await grep(root, pattern, paths, **kwargs)  # kwargs: ill-typed on purpose


@pytest.mark.parametrize("cwd", ["..", "/tmp", "src/app.py", "missing"])
async def test_cwd_outside_the_root_or_not_a_directory_is_invalid(tree: Path, cwd: str) -> None:
    with pytest.raises(InvalidPathError):
        await _grep(tree, "x", ["."], "auto", cwd=cwd)


async def test_crlf_lines_lose_their_carriage_return_in_both_engines(root: Path) -> None:
    (root / "dos.txt").write_bytes(b"one\r\nneedle two\r\n")
    for engine in ENGINES:
        result = await _grep(root, "needle", ["."], engine)
        assert result.matches == (GrepMatch("dos.txt", 2, 1, "needle two"),), engine


async def test_invalid_utf8_in_a_file_is_replaced_in_both_engines(root: Path) -> None:
    (root / "latin1.txt").write_bytes("needle caf\xe9\n".encode("latin-1"))
    for engine in ENGINES:
        result = await _grep(root, "needle", ["."], engine)
        assert [match.text for match in result.matches] == ["needle caf\ufffd"], engine


async def test_a_match_on_a_line_longer_than_any_buffer_is_kept_by_both_engines(root: Path) -> None:
    # 17 MiB: longer than the old 16 MiB line bound, after which rg's match was silently dropped.
    line = b"needle " + b"x" * (17 * 1_048_576)
    (root / "huge.txt").write_bytes(line + b"\nneedle short\n")
    results = {
        engine: await _grep(root, "needle", ["."], engine, max_output_bytes=4096) for engine in ENGINES
    }
    for engine, result in results.items():
        assert (result.match_count, result.truncated) == (1, True), engine
        assert result.matches[0].text.startswith("needle xxx"), engine
        assert len(result.matches[0].text) == 4096 - len("huge.txt") - 16, engine  # the head, up to the cap
    assert results["rg"].matches == results["python"].matches


async def test_a_file_name_with_a_newline_is_reported_whole_by_both_engines(root: Path) -> None:
    (root / "a\nb.txt").write_text("needle one\n")
    (root / "c.txt").write_text("needle two\n")
    (root / "blob.bin").write_bytes(b"needle\0binary\n")  # named explicitly: rg prints a note for it
    for engine in ENGINES:
        result = await _grep(root, "needle", ["blob.bin", "a\nb.txt", "c.txt"], engine)
        assert result.matches == (
            GrepMatch("a\nb.txt", 1, 1, "needle one"),
            GrepMatch("c.txt", 1, 1, "needle two"),
        ), engine
        walked = await _grep(root, "needle", ["."], engine)
        assert [match.path for match in walked.matches] == ["a\nb.txt", "c.txt"], engine


async def test_paths_are_resolved_off_the_event_loop(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[bool] = []

    def spy_resolve(root: Path, user_path: str) -> Path:  # a spy: the real resolution runs
        threads.append(threading.current_thread() is threading.main_thread())
        return resolve_inside(root, user_path)

    monkeypatch.setattr(grep_module, "resolve_inside", spy_resolve)
    await _grep(tree, "request_id", ["src", "docs"], "rg")
    assert threads == [False, False]


def test_finding_rg_again_touches_no_file(monkeypatch: pytest.MonkeyPatch) -> None:
    first = find_rg()

    def no_filesystem(*args: object, **kwargs: object) -> bool:  # a fault: any lookup now fails the test
        raise AssertionError("find_rg looked at the filesystem again")

    monkeypatch.setattr(os, "access", no_filesystem)  # the modules grep_rg looks things up with
    monkeypatch.setattr(shutil, "which", no_filesystem)
    assert find_rg() == first
