"""`jsonsafe`: NaN/Infinity, huge integers and lone surrogates never reach a response body."""

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
