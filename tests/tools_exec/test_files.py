from __future__ import annotations

import os
import threading
import tracemalloc
from pathlib import Path
from typing import Any

import anyio
import psutil
import pytest

from tools_exec import files as files_module
from tools_exec.errors import InvalidPathError, IoError, NotFoundError
from tools_exec.files import read_text
from tools_exec.limits import READ_INLINE_MAX_BYTES

pytestmark = pytest.mark.anyio


def _numbered(count: int) -> str:
    return "".join(f"line {n}\n" for n in range(1, count + 1))


async def test_whole_file_is_read_with_a_root_relative_path(root: Path) -> None:
    (root / "src").mkdir()
    (root / "src" / "a.txt").write_text(_numbered(3))
    with anyio.fail_after(5):
        result = await read_text(root, "src/a.txt")
    assert result.path == "src/a.txt"
    assert result.content == _numbered(3)
    assert not result.truncated
    assert result.bytes == result.file_bytes == len(_numbered(3))
    assert result.start_line == 1


async def test_line_range_is_one_based_and_inclusive(root: Path) -> None:
    (root / "a.txt").write_text(_numbered(10))
    with anyio.fail_after(5):
        result = await read_text(root, "a.txt", start_line=3, end_line=5)
    assert result.content == "line 3\nline 4\nline 5\n"
    assert result.start_line == 3


async def test_line_range_past_the_end_is_clamped(root: Path) -> None:
    (root / "a.txt").write_text(_numbered(4))
    with anyio.fail_after(5):
        tail = await read_text(root, "a.txt", start_line=3, end_line=99)
        beyond = await read_text(root, "a.txt", start_line=50)
    assert tail.content == "line 3\nline 4\n"
    assert beyond.content == ""
    assert not beyond.truncated


async def test_line_range_spanning_many_chunks_is_exact(root: Path) -> None:
    (root / "big.txt").write_text(_numbered(100_000))
    with anyio.fail_after(5):
        result = await read_text(root, "big.txt", start_line=70_000, end_line=70_002)
    assert result.content == "line 70000\nline 70001\nline 70002\n"


async def test_last_line_without_newline_is_kept(root: Path) -> None:
    (root / "a.txt").write_text("one\ntwo")
    with anyio.fail_after(5):
        result = await read_text(root, "a.txt", start_line=2)
    assert result.content == "two"


async def test_binary_file_is_an_io_error(root: Path) -> None:
    (root / "blob.bin").write_bytes(b"ELF\0\x01\x02" + b"x" * 100)
    with anyio.fail_after(5), pytest.raises(IoError, match="binary file"):
        await read_text(root, "blob.bin")


async def test_nul_after_the_sniff_window_does_not_make_a_file_binary(root: Path) -> None:
    (root / "late.txt").write_bytes(b"a" * 9000 + b"\0")
    with anyio.fail_after(5):
        result = await read_text(root, "late.txt")
    assert result.bytes == 9001


async def test_invalid_utf8_is_replaced_not_fatal(root: Path) -> None:
    (root / "latin1.txt").write_bytes("caf\xe9\n".encode("latin-1"))
    with anyio.fail_after(5):
        result = await read_text(root, "latin1.txt")
    assert result.content == "caf\ufffd\n"


async def test_cap_cuts_on_a_utf8_boundary(root: Path) -> None:
    (root / "accents.txt").write_text("é" * 1000)
    with anyio.fail_after(5):
        result = await read_text(root, "accents.txt", max_output_bytes=1025)
    assert result.truncated
    head, marker, tail = result.content.split("\n")
    assert (head, tail) == ("é" * 256, "é" * 256)  # half the cap each, both cut between characters
    assert marker == "⟦TRUNCATED: 976 bytes not shown⟧"
    assert result.bytes == 1024


async def test_cap_cuts_on_a_utf8_boundary_that_straddles_two_chunks(root: Path) -> None:
    # 'é' at offset 65535 straddles the first and second 64 KiB chunks.
    (root / "straddle.txt").write_bytes(b"a" * 65535 + "é".encode() + b"z" * 10)
    with anyio.fail_after(5):
        result = await read_text(root, "straddle.txt", max_output_bytes=65536)
    assert result.truncated
    assert result.content.startswith("a" * 32768 + "\n⟦TRUNCATED: ")
    assert result.content.endswith("aé" + "z" * 10)
    assert "\ufffd" not in result.content


def _write_huge_file(path: Path, mebibytes: int) -> None:
    line = b"x" * 1023 + b"\n"
    with open(path, "wb") as handle:
        for _ in range(mebibytes):
            handle.write(line * 1024)


async def test_huge_file_with_small_cap_costs_no_more_memory_than_the_cap(root: Path) -> None:
    _write_huge_file(root / "huge.log", 64)
    tracemalloc.start()
    try:
        with anyio.fail_after(5):
            result = await read_text(root, "huge.log", max_output_bytes=4096)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.truncated
    assert result.bytes == 4096  # two whole lines from the head, two from the tail
    assert result.omitted is not None
    assert (result.omitted.first_line, result.omitted.lines) == (3, 64 * 1024 - 4)
    assert result.file_bytes == 64 * 1024 * 1024
    assert peak < 2 * 1024 * 1024, f"peak allocation {peak} bytes for a 4 KiB read"


async def test_missing_file_is_not_found(root: Path) -> None:
    with anyio.fail_after(5), pytest.raises(NotFoundError):
        await read_text(root, "nope.txt")


async def test_directory_is_not_a_regular_file(root: Path) -> None:
    (root / "dir").mkdir()
    with anyio.fail_after(5), pytest.raises(InvalidPathError, match="not a regular file"):
        await read_text(root, "dir")


async def test_fifo_is_refused_without_blocking(root: Path) -> None:
    os.mkfifo(root / "pipe")
    with anyio.fail_after(5), pytest.raises(InvalidPathError, match="not a regular file"):
        await read_text(root, "pipe")


async def test_symlink_escape_is_refused(root: Path) -> None:
    os.symlink(root.parent / "outside.txt", root / "leak.txt")
    with anyio.fail_after(5), pytest.raises(InvalidPathError):
        await read_text(root, "leak.txt")


async def test_dotdot_escape_is_refused(root: Path) -> None:
    with anyio.fail_after(5), pytest.raises(InvalidPathError):
        await read_text(root, "../outside.txt")


@pytest.mark.parametrize(("start", "end"), [(0, None), (None, 0), (5, 4)])
async def test_nonsense_line_numbers_are_value_errors(root: Path, start: int | None, end: int | None) -> None:
    (root / "a.txt").write_text("x\n")
    with anyio.fail_after(5), pytest.raises(ValueError, match="line"):
        await read_text(root, "a.txt", start_line=start, end_line=end)


async def test_a_large_file_is_read_off_the_event_loop_and_a_small_one_inline(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    on_loop_thread: dict[str, bool] = {}
    real_scan = files_module._scan

    def spy_scan(handle: Any, shown: str, *args: Any) -> None:  # a spy: the real read runs
        on_loop_thread[shown] = threading.current_thread() is threading.main_thread()
        real_scan(handle, shown, *args)

    monkeypatch.setattr(files_module, "_scan", spy_scan)
    (root / "small.txt").write_text("x\n" * 100)
    (root / "large.txt").write_text("x\n" * READ_INLINE_MAX_BYTES)
    with anyio.fail_after(5):
        await read_text(root, "small.txt")
        await read_text(root, "large.txt")
    # Measured: the hop costs more than a small read (/rpc read p50 1.08 -> 0.93 ms without it).
    assert on_loop_thread == {"small.txt": True, "large.txt": False}


def _write_sparse(path: Path, size: int) -> None:
    """A sparse file of `size` bytes: lines at both ends, a hole between (no disk used)."""
    with open(path, "wb") as handle:
        handle.write(b"first line\nsecond line\n" + b"filler line\n" * 1000)  # text past the sniff window
        handle.seek(size)
        handle.write(b"\nERROR the last line\n")


async def test_a_huge_file_is_read_as_its_head_and_its_tail_without_a_scan(root: Path) -> None:
    _write_sparse(root / "sparse.log", 4 << 30)
    read_before = psutil.Process().io_counters().read_chars  # this process's read() bytes, all threads
    with anyio.fail_after(20):
        result = await read_text(root, "sparse.log", max_output_bytes=4096)
    # A scan reads all 4 GiB; the head and the tail are KBs (plus any module a first call imports).
    assert psutil.Process().io_counters().read_chars - read_before < 64 << 20
    assert result.content.startswith("first line\nsecond line\n")
    assert result.content.endswith("\nERROR the last line\n")
    assert result.omitted is not None
    assert result.omitted.lines == 0  # not counted: the marker gives bytes only
    assert "bytes not shown⟧" in result.content
    assert result.bytes + result.omitted.bytes == result.file_bytes
