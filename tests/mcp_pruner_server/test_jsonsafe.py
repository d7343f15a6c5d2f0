"""`jsonsafe`: NaN/Infinity, huge integers and lone surrogates never reach a response body."""

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_pruner_server import jsonsafe
from mcp_pruner_server.http.responses import SafeJSONResponse
from mcp_pruner_server.jsonsafe import (
    MAX_SAFE_INTEGER,
    dumps,
    dumps_bytes,
    rpc_dumps_bytes,
    sanitize,
    strict_loads,
)
from tests.mcp_pruner_server.server_fixtures import strict_json


def test_non_finite_floats_become_their_names_as_strings() -> None:
    assert sanitize([math.nan, math.inf, -math.inf, 1.5]) == ["NaN", "Infinity", "-Infinity", 1.5]


def test_integers_beyond_2_53_become_decimal_strings_and_safe_ones_stay_numbers() -> None:
    values = [MAX_SAFE_INTEGER, -MAX_SAFE_INTEGER, MAX_SAFE_INTEGER + 1, -(2**64), 10**30]
    assert sanitize(values) == [
        MAX_SAFE_INTEGER,
        -MAX_SAFE_INTEGER,
        "9007199254740992",
        "-18446744073709551616",
        "1" + "0" * 30,
    ]


def test_lone_surrogates_in_values_and_keys_become_replacement_characters() -> None:
    value = {"k\udc80": ["a\ud800b", "ok é", "\U0001f600"]}
    assert sanitize(value) == {"k\ufffd": ["a\ufffdb", "ok é", "\U0001f600"]}
    assert dumps_bytes(value).decode("utf-8") == '{"k\ufffd": ["a\ufffdb", "ok é", "\U0001f600"]}'


def test_booleans_stay_booleans_and_tuples_become_lists() -> None:
    assert sanitize({"t": True, "f": False, "n": None, "tuple": (1, "x")}) == {
        "t": True,
        "f": False,
        "n": None,
        "tuple": [1, "x"],
    }


def test_non_string_keys_are_written_as_json_writes_them() -> None:
    assert json.loads(dumps({7: "a", 2.5: "b", None: "c", True: "d", math.nan: "e"})) == {
        "7": "a",
        "2.5": "b",
        "null": "c",
        "true": "d",
        "NaN": "e",
    }


def test_an_unexpected_object_is_written_as_its_string() -> None:
    class Odd:
        def __str__(self) -> str:
            return "odd\udcff"

    assert sanitize({"x": Odd()}) == {"x": "odd\ufffd"}


def test_the_starlette_response_renders_strict_json() -> None:
    response = SafeJSONResponse({"ratio": math.nan, "id": 2**60, "text": "\ud83d"})
    assert strict_json(bytes(response.body)) == {"ratio": "NaN", "id": str(2**60), "text": "\ufffd"}


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF)),
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(st.text(alphabet=st.characters(codec=None), max_size=5), children, max_size=5)
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_any_python_json_value_dumps_to_strict_json(value: object) -> None:
    strict_json(dumps_bytes(value))


def test_a_json_rpc_answer_echoes_an_integer_id_exactly_and_sanitizes_the_rest() -> None:
    big = 2**70
    single = json.loads(rpc_dumps_bytes({"jsonrpc": "2.0", "id": big, "result": {"n": big}}))
    batch = json.loads(rpc_dumps_bytes([{"id": big, "result": math.nan}, {"id": "a\ud800", "result": 1}]))
    assert single == {"jsonrpc": "2.0", "id": big, "result": {"n": str(big)}}
    assert batch == [{"id": big, "result": "NaN"}, {"id": "a\ufffd", "result": 1}]


def test_strict_loads_answers_json_nested_past_the_recursion_limit_as_not_json() -> None:
    with pytest.raises(ValueError, match="nests too deeply"):
        strict_loads(b"[" * 100_000)


WEIRD_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()
    | st.text(alphabet=st.sampled_from(["a", "\ud800", "é", "\udfff"])),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(st.text(max_size=3) | st.integers() | st.none() | st.booleans(), inner, max_size=4)
    ),
    max_leaves=25,
)


@given(WEIRD_VALUES)
def test_the_walk_for_deep_values_gives_what_the_recursive_walk_gives(value: object) -> None:
    expected = jsonsafe._sanitize(value)
    assert jsonsafe._sanitize_deep(value) == expected
    assert json.dumps(jsonsafe._sanitize_deep(value)) == json.dumps(expected)  # same key order too


@pytest.mark.parametrize("depth", [600, 900, 5_000])
def test_a_value_nested_past_the_recursive_walk_is_made_safe_whole(depth: int) -> None:
    # json.loads reads ~1000 levels; the walk stopped at ~500 with a RecursionError (a 500)
    value: object = [math.nan, 2**60, "\ud800", (1,), {3: None}]
    expected: object = ["NaN", str(2**60), "\ufffd", [1], {"3": None}]
    for level in range(depth):
        value = {"k": value} if level % 2 else [value]
        expected = {"k": expected} if level % 2 else [expected]
    safe = sanitize(value)
    for level in reversed(range(depth)):  # compared level by level: `==` itself recurses
        assert isinstance(safe, dict) if level % 2 else isinstance(safe, list)
        assert isinstance(expected, dict) if level % 2 else isinstance(expected, list)
        safe, expected = (safe["k"], expected["k"]) if level % 2 else (safe[0], expected[0])  # type: ignore[index, call-overload]
    assert safe == expected


@pytest.mark.parametrize("depth", [600, 5_000])
def test_a_value_nested_past_the_recursive_walk_is_written_as_strict_json(depth: int) -> None:
    # sanitize() took any depth; the writer behind it raised RecursionError from ~500 levels
    value: object = [math.nan, 2**60]
    for level in range(depth):
        value = {"k": value} if level % 2 else [value]
    text = jsonsafe.dumps(value)
    opening = "".join('{"k": ' if level % 2 else "[" for level in reversed(range(depth)))
    closing = "".join("}" if level % 2 else "]" for level in range(depth))
    assert text == f'{opening}["NaN", "{2**60}"]{closing}'
    assert b"".join(jsonsafe.rpc_dumps_chunks(value)) == text.encode()


@pytest.mark.parametrize("shape", ["list", "dict", "deep inside"])
def test_a_value_that_contains_itself_is_refused_not_copied_forever(shape: str) -> None:
    # the recursive walk ran out of frames and the stack walk then copied the cycle until memory ran out
    loop: list[object] = []
    if shape == "list":
        loop.append(loop)
        value: object = loop
    elif shape == "dict":
        looped: dict[str, object] = {}
        looped["self"] = looped
        value = looped
    else:
        loop.append({"k": [1, loop]})
        value = [[loop]] * 3
    with pytest.raises(ValueError, match="Circular reference"):
        sanitize(value)


def test_a_value_shared_by_two_branches_is_no_cycle() -> None:
    shared: object = [math.nan]
    for _ in range(700):  # past the recursive walk's frames: the stack walk, which tracks cycles
        shared = [shared]
    assert json.loads(jsonsafe.dumps({"a": shared, "b": shared})).keys() == {"a", "b"}
