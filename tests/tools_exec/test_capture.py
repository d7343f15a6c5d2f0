"""`HeadTailCapture`: the whole stream when it fits, else head + one marker line + tail, all counted."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import threading

import pytest

from tools_exec.capture import HeadTailCapture


def _lines(first: int, last: int) -> bytes:
    return b"".join(b"line %d\n" % i for i in range(first, last + 1))


def _feed(capture: HeadTailCapture, data: bytes, chunk: int = 4096) -> None:
    for at in range(0, len(data), chunk):
        capture.feed(data[at : at + chunk])


def test_a_stream_that_fits_comes_back_whole() -> None:
    capture = HeadTailCapture(100, 100)
    _feed(capture, _lines(1, 10))
    cut = capture.text(1000)
    assert (cut.text, cut.omitted) == (_lines(1, 10).decode(), None)
    capture.close()


def test_a_cut_keeps_whole_lines_and_one_marker_that_counts_what_it_hides() -> None:
    data = _lines(1, 1000)
    capture = HeadTailCapture(len(data), len(data))
    _feed(capture, data)
    cut = capture.text(400, head_share=0.25)
    head, tail = cut.text.partition("⟦")[0], cut.text.rpartition("⟧\n")[2]
    assert cut.omitted is not None
    assert head == _lines(1, head.count("\n")).decode()
    assert tail == _lines(1001 - tail.count("\n"), 1000).decode()
    assert len(head) <= 100 < len(tail) <= 300
    first, count = cut.omitted.first_line, cut.omitted.lines
    assert first == head.count("\n") + 1
    assert first + count == 1001 - tail.count("\n")
    assert (
        f"⟦TRUNCATED: lines {first}-{first + count - 1} ({count} lines, {cut.omitted.bytes} bytes)"
        in cut.text
    )
    assert cut.omitted.bytes == len(data) - len(head) - len(tail)
    capture.close()


def test_beyond_head_and_tail_the_middle_is_dropped_and_still_counted() -> None:
    data = _lines(1, 100_000)
    capture = HeadTailCapture(1000, 2000)
    _feed(capture, data)
    assert capture.truncated
    assert capture.total_bytes == len(data)
    cut = capture.full()
    assert cut.omitted is not None
    assert cut.text.endswith("line 100000\n")
    shown = cut.text.replace(cut.omitted.marker() + "\n", "")
    assert shown.count("\n") + cut.omitted.lines == 100_000
    capture.close()


def test_a_large_head_is_spooled_to_an_unlinked_file_and_released_on_close() -> None:
    capture = HeadTailCapture(64 << 20, 1024, spool_after=64 * 1024)
    _feed(capture, _lines(1, 100_000), chunk=65536)
    assert capture.spooled_to_disk()
    fd = capture._head.fileno()  # the spool's file: already unlinked, nothing to leave behind
    assert os.fstat(fd).st_nlink == 0
    spool = os.readlink(f"/proc/self/fd/{fd}")
    assert capture.full().text == _lines(1, 100_000).decode()
    capture.close()
    assert capture.closed
    capture.close()  # idempotent
    capture.wait_released(timeout=5)  # closed by the spool I/O thread, off the caller's path
    assert not os.path.exists(f"/proc/self/fd/{fd}") or os.readlink(f"/proc/self/fd/{fd}") != spool


def test_a_spool_on_disk_is_closed_by_the_spool_io_thread_not_by_the_caller() -> None:
    capture = HeadTailCapture(64 << 20, 1024, spool_after=64 * 1024)
    _feed(capture, _lines(1, 20_000), chunk=65536)
    spool = capture._head
    closed_in: list[str] = []

    def close() -> None:  # what the spool I/O thread runs: the spool's own close, recorded
        closed_in.append(threading.current_thread().name)
        type(spool).close(spool)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(spool, "close", close)
        capture.close()
        capture.wait_released(timeout=5)
    assert [name.split("_")[0] for name in closed_in] == ["jeeves-spool-io"]
    assert spool.closed


def test_writes_to_a_spool_on_disk_run_in_the_spool_io_thread_in_order() -> None:
    capture = HeadTailCapture(64 << 20, 1024, spool_after=64 * 1024)
    _feed(capture, _lines(1, 20_000), chunk=65536)  # past spool_after: on disk
    assert capture.spooled_to_disk()
    spool = capture._head
    written_in: list[str] = []

    def write(data: bytes) -> int:  # the spool's own write, recorded
        written_in.append(threading.current_thread().name)
        return type(spool).write(spool, data)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(spool, "write", write)
        _feed(capture, _lines(20_001, 40_000), chunk=4096)
        assert capture.full().text == _lines(1, 40_000).decode()  # every write landed, in order
    assert written_in
    assert {name.split("_")[0] for name in written_in} == {"jeeves-spool-io"}
    capture.close()


def test_a_spool_write_that_fails_is_raised_to_the_reader() -> None:
    capture = HeadTailCapture(64 << 20, 1024, spool_after=64 * 1024)
    _feed(capture, _lines(1, 20_000), chunk=65536)
    spool = capture._head

    def write(data: bytes) -> int:  # a full disk, which a test cannot make for real
        raise OSError(28, "No space left on device")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(spool, "write", write)
        _feed(capture, _lines(20_001, 21_000))  # feeding never fails: the writer never waits
        with pytest.raises(OSError, match="No space left"):
            capture.text(1 << 20)
    capture.close()


def test_an_in_memory_capture_is_closed_at_once() -> None:
    capture = HeadTailCapture(1000, 1000)
    _feed(capture, _lines(1, 10))
    capture.close()
    assert capture.closed
    assert capture._head.closed  # nothing to hand off: no file


def test_a_cut_inside_one_long_line_says_bytes_only_and_splits_no_character() -> None:
    capture = HeadTailCapture(10_000, 10_000)
    _feed(capture, "é".encode() * 3000)
    cut = capture.text(1001)
    head, marker, tail = cut.text.split("\n")
    assert set(head) == set(tail) == {"é"}
    assert marker == f"⟦TRUNCATED: {6000 - 2 * len(head) - 2 * len(tail)} bytes not shown⟧"
    capture.close()


def test_a_spooled_capture_is_read_by_another_process_through_its_source() -> None:
    capture = HeadTailCapture(64 << 20, 1024, spool_after=64 * 1024)
    _feed(capture, _lines(1, 50_000), chunk=65536)
    source = capture.source()
    assert source.head_path is not None  # by path: the reader never gets the bytes from us
    assert source.head == b""
    script = "import pickle, sys; sys.stdout.write(pickle.loads(sys.stdin.buffer.read()).read().text)"
    child = subprocess.run(
        [sys.executable, "-c", script],
        input=pickle.dumps(source),
        capture_output=True,
        check=True,
        timeout=30,
    )
    assert child.stdout == _lines(1, 50_000)
    capture.close()


def test_a_small_capture_travels_as_bytes() -> None:
    capture = HeadTailCapture(1000, 1000)
    _feed(capture, _lines(1, 10))
    source = capture.source()
    assert (source.head_path, source.read().text) == (None, _lines(1, 10).decode())
    capture.close()
