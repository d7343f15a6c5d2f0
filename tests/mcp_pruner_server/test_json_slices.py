"""`json_slices`: the same JSON as `json.loads` / `json.dumps`, cut at every possible place."""

from __future__ import annotations

import json
import mmap

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


@given(JSON_VALUES)
def test_the_writer_for_deep_values_writes_what_json_dumps_writes(value: object) -> None:
    assert "".join(json_slices._written_deep(value)) == json.dumps(value, ensure_ascii=False, allow_nan=False)


@pytest.mark.parametrize("depth", [600, 1_200, 5_000])
def test_a_value_nested_past_the_recursion_limit_is_written_whole(depth: int) -> None:
    # json.dumps stops at ~1000 levels, the placeholder walk at ~500: a RecursionError (a 500)
    value: object = ["abcdefghijkl", {"k": [1, 2, 3]}, 1.5, None]
    inner = '["abcdefghijkl", {"k": [1, 2, 3]}, 1.5, null]'
    for level in range(depth):
        value = {"k": value} if level % 2 else [value, True]
    expected = "".join('{"k": ' if level % 2 else "[" for level in reversed(range(depth))) + inner
    expected += "".join("}" if level % 2 else ", true]" for level in range(depth))
    assert json_slices.dumps_in_slices(value) == expected
    assert b"".join(json_slices.dumps_chunks(value)) == expected.encode()


def test_a_value_that_holds_itself_is_refused_not_written_forever() -> None:
    value: list[object] = [[1]]
    for _ in range(2_000):
        value = [value]
    value.append(value)
    with pytest.raises(ValueError, match="Circular reference"):
        json_slices.dumps_in_slices(value)


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


@pytest.mark.parametrize("depth", [900, 5_000])
def test_long_strings_are_put_back_and_joined_at_any_depth(depth: int) -> None:
    # both walks recursed and raised RecursionError from ~500 levels (a gateway reply's parse, the
    # whole strings the MCP SDK is handed)
    long_strings: dict[str, str | json_slices.LongText] = {"p": json_slices.LongText(["ab", "cd"])}
    value: object = "p"
    for level in range(depth):
        value = {"k": value, "p": 1} if level % 2 else [value]
    put_back = json_slices._put_back(value, long_strings)
    whole = json_slices.whole_value(put_back)
    for level in reversed(range(depth)):
        if level % 2:
            assert isinstance(whole, dict)
            assert isinstance(put_back, dict)
            assert list(whole) == ["k", "abcd"]  # a key that stands for a long string too
            whole, put_back = whole["k"], put_back["k"]
        else:
            assert isinstance(whole, list)
            assert isinstance(put_back, list)
            whole, put_back = whole[0], put_back[0]
    assert isinstance(put_back, json_slices.LongText)
    assert whole == "abcd"
    assert type(whole) is str


def _in_mmap(body: bytes) -> mmap.mmap:
    buffer = mmap.mmap(-1, len(body) + 7)  # longer than the body: only `size` bytes are read
    buffer.write(body)
    return buffer


@given(JSON_VALUES, st.booleans())
def test_utf8_bytes_parsed_in_slices_are_what_json_loads_reads(value: object, ascii_only: bool) -> None:
    body = json.dumps(value, ensure_ascii=ascii_only).encode()
    parsed = json_slices.loads_utf8_in_slices(_in_mmap(body), len(body), _refuse)
    assert parsed == json.loads(body)  # a LongText equals the str it holds
    # ... and is written back as json.dumps writes that str
    expected = json.dumps(json.loads(body), ensure_ascii=False, allow_nan=False).encode()
    assert b"".join(json_slices.dumps_chunks(parsed)) == expected


def test_a_long_string_of_utf8_bytes_stays_in_slices() -> None:
    text = 'é😀\\"' * 40
    body = json.dumps({"k": [text]}, ensure_ascii=False).encode()
    parsed = json_slices.loads_utf8_in_slices(body, len(body), _refuse)
    assert isinstance(parsed, dict)
    long_text = parsed["k"][0]
    assert isinstance(long_text, json_slices.LongText)
    assert len(long_text.slices) > 10
    assert all(len(piece) <= 5 for piece in long_text.slices)
    assert long_text == text
    assert text == long_text
    assert str(long_text) == text
    assert len(long_text) == len(text)
    assert long_text[3:77] == text[3:77]
    assert long_text[-9:] == text[-9:]
    assert not long_text.isascii()
    resliced = json_slices.LongText([text[:13], text[13:]])
    assert resliced == long_text
    assert hash(resliced) == hash(long_text)
    assert long_text != text[:-1] + "x"


@pytest.mark.parametrize(
    "body",
    [
        b'{"a": "abcdefghijkl',  # never closed
        b'{"a": "abc\\qdefghijkl"}',  # a bad escape
        b'{"a": "abcdefgh\x01ijkl"}',  # a raw control character
        b'{"a": "abcdefghijkl" "b"}',  # a bad skeleton
        b'{"a": "abcdefghijkl", "b": NaN}',  # not JSON
        b'{"a": "abcdefg\xff\xfehijkl"}',  # not UTF-8
    ],
)
def test_utf8_bytes_that_are_not_json_are_refused(body: bytes) -> None:
    with pytest.raises(ValueError, match=r"Unterminated|Invalid|Expecting|not JSON|can't decode"):
        json_slices.loads_utf8_in_slices(body, len(body), _refuse)


def test_separators_are_counted_outside_strings_a_slice_at_a_time() -> None:
    body = b'[{"a,b[c{": "x,y,,z\\",[{"}, 1, [2, "never closed, [{'
    separators = (b",", b"[", b"{")
    assert json_slices.count_in_slices(body, 0, len(body), separators) == sum(map(body.count, separators))
    assert json_slices.count_outside_strings(body, len(body), separators) == 6  # [ { , , [ ,
