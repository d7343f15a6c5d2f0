"""`json_slices`: the same JSON as `json.loads` / `json.dumps`, cut at every possible place."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_pruner_server import json_slices

# Strings of the characters that make cuts hard: escapes, quotes, pairs, multi-byte characters.
HARD_TEXT = st.text(alphabet=st.sampled_from(["a", "\\", '"', "\n", "\x01", "é", "😀", "\u2028", " ", "/"]))
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | HARD_TEXT,
    lambda inner: st.lists(inner, max_size=8) | st.dictionaries(HARD_TEXT, inner, max_size=5),
    max_leaves=30,
)


def _refuse(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


@pytest.fixture(autouse=True)
def tiny_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    """Slices of a few characters: every string and list is long, every cut is exercised."""
    monkeypatch.setattr(json_slices, "SLICE_CHARS", 5)
    monkeypatch.setattr(json_slices, "SLICE_ITEMS", 2)


@given(JSON_VALUES, st.booleans())
def test_a_body_parsed_in_slices_is_what_json_loads_reads(value: object, ascii_only: bool) -> None:
    body = json.dumps(value, ensure_ascii=ascii_only).encode()  # pairs as \ud83d\ude00 escapes too
    text = json_slices.decode_in_slices(body)
    assert json_slices.loads_in_slices(text, _refuse) == json.loads(body)


@given(JSON_VALUES)
def test_a_value_written_in_slices_is_what_json_dumps_writes(value: object) -> None:
    expected = json.dumps(value, ensure_ascii=False, allow_nan=False)
    assert json_slices.dumps_in_slices(value) == expected
    assert b"".join(json_slices.dumps_chunks(value)) == expected.encode()


@pytest.mark.parametrize(
    "body",
    [
        '{"a": "abcdefghijkl',  # never closed
        '{"a": "abcdefghijkl\\',  # a lone backslash last
        '{"a": "abc\\qdefghijkl"}',  # a bad escape
        '{"a": "abcdefgh\x01ijkl"}',  # a raw control character
        '{"a": "abcdefghijkl" "b"}',  # a bad skeleton
        '{"a": "abcdefghijkl", "b": NaN}',  # not JSON
    ],
)
def test_a_body_that_is_not_json_is_refused_as_json_loads_refuses_it(body: str) -> None:
    with pytest.raises(ValueError, match=r"Unterminated|Invalid|Expecting|not JSON"):
        json.loads(body, parse_constant=_refuse)
    with pytest.raises(ValueError, match=r"Unterminated|Invalid|Expecting|not JSON"):
        json_slices.loads_in_slices(body, _refuse)


@pytest.mark.parametrize("depth", [600, 900])
def test_a_deeply_nested_body_with_a_long_string_is_read_as_json_loads_reads_it(depth: int) -> None:
    # json's C parser reads ~1000 levels; the walk that puts long strings back once stopped at ~500
    # ("the JSON nests too deeply" for a body json.loads reads)
    from mcp_pruner_server.jsonsafe import strict_loads

    body = "[" * depth + json.dumps("x" * (2 * json_slices.SLICE_CHARS)) + "]" * depth
    assert strict_loads(body.encode()) == json.loads(body)
