"""The shared line-splitting rule, UTF-8 size and token estimate."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mcp_pruner_server.pruning.text import estimate_tokens, split_lines, utf8_size


@given(st.text())
def test_split_lines_round_trips_any_text_byte_for_byte(text: str) -> None:
    assert "\n".join(split_lines(text)) == text


def test_crlf_stays_in_the_line_and_a_trailing_newline_is_a_last_empty_line() -> None:
    assert split_lines("a\r\nb\n") == ["a\r", "b", ""]


def test_the_token_estimate_is_about_four_characters_per_token() -> None:
    assert (estimate_tokens(""), estimate_tokens("abcd"), estimate_tokens("abcde")) == (0, 1, 2)


@given(st.text(alphabet=st.characters(codec=None, exclude_categories=())))
def test_utf8_size_counts_bytes_like_encoding_with_surrogatepass(text: str) -> None:
    assert utf8_size(text) == len(text.encode("utf-8", "surrogatepass"))


def test_utf8_size_counts_across_its_chunk_boundaries() -> None:
    text = ("é" * 1000 + "a\ud800€𝄞") * 700  # ~700k chars: several chunks, cut mid-run
    assert utf8_size(text) == len(text.encode("utf-8", "surrogatepass"))
