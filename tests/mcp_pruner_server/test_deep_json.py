"""`deep_json`: what `json.loads` reads, and a copy-on-write walk, at any depth."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_pruner_server.deep_json import loads_deep, rewritten

TEXT = st.text(alphabet=st.sampled_from(["a", "\\", '"', "\n", "\x01", "é", "😀", "\ud800", " ", "/", "\t"]))
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | TEXT,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=30,
)
_CONSTANTS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def _same(a: object, b: object) -> bool:
    return json.dumps(a, sort_keys=False) == json.dumps(b, sort_keys=False)  # NaN == NaN, key order


@given(JSON_VALUES, st.booleans(), st.sampled_from(["", " ", "\n\t ", "  \r\n"]))
def test_a_text_is_read_as_json_loads_reads_it(value: object, ascii_only: bool, space: str) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only, indent=1 if space else None)
    text = space + text + space
    assert _same(loads_deep(text, _CONSTANTS.__getitem__), json.loads(text))


@pytest.mark.parametrize(
    "text",
    [
        *('{"a": 1', "[1, 2", "[1,]", '{"a" 1}', "{1: 2}", "[1] 2", "", "nul", '"\x01"', "[01]", "[1.]"),
        *('{"a": 1,}', "[1 2]", '{"a": 1 "b": 2}', "[1, 2}", '{"a": 1]'),
    ],
)
def test_a_text_that_is_not_json_is_refused_as_json_loads_refuses_it(text: str) -> None:
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)
    with pytest.raises(json.JSONDecodeError):
        loads_deep(text, _CONSTANTS.__getitem__)


@pytest.mark.parametrize("depth", [5_000, 100_000])
def test_a_text_nested_past_the_c_parsers_limit_is_read_whole(depth: int) -> None:
    text = '{"k": ' * depth + '["leaf", 1.5, NaN]' + "}" * depth
    value = loads_deep(text, _CONSTANTS.__getitem__)
    for _ in range(depth):
        assert isinstance(value, dict)
        assert list(value) == ["k"]
        value = value["k"]
    assert isinstance(value, list)
    assert value[:2] == ["leaf", 1.5]
    assert math.isnan(value[2])


def test_the_walk_copies_only_the_path_to_what_changed_at_any_depth() -> None:
    untouched = {"x": [1, "short"]}
    value: object = ["LONG"]
    for _ in range(5_000):
        value = {"deep": value, "side": untouched}
    out = rewritten(value, str, lambda text: text.lower() if text == "LONG" else text)
    assert out is not value
    walk_in, walk_out = value, out
    for _ in range(5_000):
        assert isinstance(walk_in, dict)
        assert isinstance(walk_out, dict)
        assert walk_out["side"] is untouched  # shared, not copied
        walk_in, walk_out = walk_in["deep"], walk_out["deep"]
    assert (walk_in, walk_out) == (["LONG"], ["long"])  # the input is untouched


def test_the_walk_gives_the_value_itself_when_nothing_changed() -> None:
    value = {"a": [{"b": "c"}, []], "d": {}}
    assert rewritten(value, str, lambda text: text, lambda node: node) is value


def test_the_walk_renames_keys_after_their_values() -> None:
    value = {"k": {"inner": "v"}}
    out = rewritten(value, str, str.upper, lambda node: {key.upper(): item for key, item in node.items()})
    assert out == {"K": {"INNER": "V"}}
