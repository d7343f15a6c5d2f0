from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tools_exec.text import (
    CappedBuffer,
    InvalidUtf8Count,
    OutputBudget,
    cut_utf8,
    decode_lossy,
    split_output,
    strip_line_ending,
)


@given(st.text(), st.integers(min_value=0, max_value=64))
def test_cut_utf8_never_splits_a_character(text: str, limit: int) -> None:
    data = text.encode()
    cut = cut_utf8(data, limit)
    assert data.startswith(cut)
    assert len(cut) <= limit
    assert len(cut) >= min(len(data), limit) - 3
    cut.decode("utf-8")  # strict: raises if a sequence was split


def test_decode_lossy_replaces_undecodable_bytes() -> None:
    assert decode_lossy(b"ok \xff\xfe end") == "ok \ufffd\ufffd end"


def test_strip_line_ending_removes_lf_and_crlf_only() -> None:
    assert strip_line_ending("a\r\n") == "a"
    assert strip_line_ending("a\n") == "a"
    assert strip_line_ending("a \t") == "a \t"


def test_two_buffers_share_one_budget_and_count_everything() -> None:
    budget = OutputBudget(10)
    out, err = CappedBuffer(budget), CappedBuffer(budget)
    out.feed(b"123456")
    err.feed(b"abcdef")
    out.feed(b"more")
    assert out.raw() == b"123456"
    assert err.raw() == b"abcd"
    assert (out.total_bytes, err.total_bytes) == (10, 6)
    assert err.truncated
    assert out.truncated


def test_capped_text_drops_a_character_the_cap_cut_in_half() -> None:
    buffer = CappedBuffer(OutputBudget(4))
    buffer.feed("abcé".encode())  # 'é' is 2 bytes: the cap keeps only its lead byte
    assert buffer.raw() == b"abc\xc3"
    assert buffer.text() == "abc"


def test_capped_text_keeps_a_character_that_fits_exactly() -> None:
    buffer = CappedBuffer(OutputBudget(5))
    buffer.feed("abcé!".encode())
    assert buffer.text() == "abcé"


def test_uncapped_text_keeps_invalid_bytes_as_replacement_characters() -> None:
    buffer = CappedBuffer(OutputBudget(100))
    buffer.feed(b"a\xffb")
    assert buffer.text() == "a\ufffdb"
    assert not buffer.truncated


@pytest.mark.parametrize(
    ("stdout_bytes", "stderr_bytes", "kept"),
    [
        (100, 100, (100, 100)),  # both fit
        (10_000, 12, (3_988, 12)),  # stdout floods: stderr keeps its message
        (10_000, 10_000, (3_000, 1_000)),  # both flood: stderr's quarter
        (500, 10_000, (500, 3_500)),  # stderr floods: takes what stdout leaves
        (0, 10_000, (0, 4_000)),
    ],
)
def test_split_output_reserves_a_quarter_for_stderr(
    stdout_bytes: int, stderr_bytes: int, kept: tuple[int, int]
) -> None:
    assert split_output(stdout_bytes, stderr_bytes, 4_000, stderr_reserve=1_000) == kept


def _invalid_bytes(*chunks: bytes) -> int:
    count = InvalidUtf8Count()
    for chunk in chunks:
        count.feed(chunk)
    count.finish()
    return count.invalid_bytes


def test_invalid_utf8_count_counts_latin1_bytes_but_not_a_real_replacement_character() -> None:
    latin1 = "Größe: 3 € über café\n".encode("latin-1", "replace")
    assert _invalid_bytes(latin1) == 4  # ö ß ü é (Latin-1 has no €: written as "?")
    assert _invalid_bytes("ok \ufffd ö 😀\n".encode()) == 0


@given(st.text(), st.integers(min_value=0, max_value=40))
def test_invalid_utf8_count_is_zero_for_utf8_split_anywhere(text: str, at: int) -> None:
    data = text.encode("utf-8", "replace")  # a lone surrogate is not text: written as "?"
    assert _invalid_bytes(data[:at], data[at:]) == 0


def test_invalid_utf8_count_counts_a_character_cut_by_the_end_of_the_stream() -> None:
    assert _invalid_bytes(b"ok \xf0\x9f", b"\x98") == 3


def test_invalid_utf8_count_skips_a_character_cut_by_a_gap() -> None:
    count = InvalidUtf8Count()
    count.feed(b"head \xe2\x82")  # the head ends inside a character the gap cut
    count.restart(b"\xac tail \xff\n")  # the tail starts inside one
    count.finish()
    assert count.invalid_bytes == 1
