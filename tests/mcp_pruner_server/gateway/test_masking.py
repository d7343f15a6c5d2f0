"""Observation masking, pure (docs/http.md#gateway): long strings, nested JSON, the envelope."""

from __future__ import annotations

import copy
import re
import tracemalloc

from hypothesis import given
from hypothesis import strategies as st

from mcp_pruner_server.gateway.masking import (
    MaskOptions,
    StringMasker,
    Text,
    mask_response,
    middle_utf8_bytes,
    render_masked,
    split_long_string,
    transform_long_strings,
)
from mcp_pruner_server.gateway.service import RecoverableMasker
from mcp_pruner_server.recovery import RecoveryStore
from tests.json_paths import at

OPTIONS = MaskOptions()
MARKER = re.compile(
    r"\n\.\.\. \[KIMI_PROXY_OBSERVATION_MASKED original_chars=(\d+) head=(\d+) tail=(\d+) id=(\S+)\] \.\.\.\n"
)


def masker(prune_id: str = "prn_TEST") -> tuple[list[str], StringMasker]:
    middles: list[str] = []

    def mask(text: Text) -> str:
        parts = split_long_string(text, OPTIONS)
        middles.append(parts.middle)
        return render_masked(parts, prune_id)

    return middles, mask


def test_a_10000_char_string_keeps_head_and_tail_around_the_seed_marker() -> None:
    text = "H" * 2000 + "~" * 6000 + "T" * 2000
    middles, mask = masker()
    masked = transform_long_strings(text, OPTIONS.max_chars, mask)
    assert isinstance(masked, str)
    marker = MARKER.search(masked)
    assert marker is not None
    assert marker.groups() == ("10000", "2000", "2000", "prn_TEST")
    assert len(masked) <= OPTIONS.max_chars + len(marker.group(0))
    assert masked.startswith("H" * 2000 + "\n... [KIMI_PROXY_OBSERVATION_MASKED")
    assert masked.endswith("] ...\n" + "T" * 2000)
    assert "~" not in masked
    assert middles == ["~" * 6000]


def test_strings_up_to_max_chars_are_returned_as_the_same_object() -> None:
    text = "x" * OPTIONS.max_chars
    _, mask = masker()
    assert transform_long_strings(text, OPTIONS.max_chars, mask) is text


def test_a_nested_dict_with_lists_is_masked_at_every_depth_and_the_input_is_untouched() -> None:
    long_a, long_b = "a" * 5000, "b" * 9000
    untouched = {"deep": [{"x": 1, "y": "short"}], "n": None, "f": 1.5, "t": True}
    value = {
        "content": [{"type": "text", "text": long_a}, {"type": "text", "text": "ok"}],
        "nested": {"level": {"list": [1, [long_b]]}},
        "untouched": untouched,
    }
    before = copy.deepcopy(value)
    middles, mask = masker()
    masked = transform_long_strings(value, OPTIONS.max_chars, mask)
    assert value == before  # the input is never mutated
    assert isinstance(masked, dict)
    assert masked["untouched"] is untouched  # shared, not copied
    assert masked["content"][1] is at(value, "content", 1)
    assert MARKER.search(masked["content"][0]["text"]) is not None
    assert MARKER.search(masked["nested"]["level"]["list"][1][0]) is not None
    assert masked["nested"]["level"]["list"][0] == 1
    assert sorted(map(len, middles)) == [1000, 5000]


def test_a_value_without_long_strings_comes_back_as_the_same_object() -> None:
    value = {"a": [{"b": "c" * 100}] * 50, "d": list(range(100))}
    _, mask = masker()
    assert transform_long_strings(value, OPTIONS.max_chars, mask) is value


def test_base64_is_treated_as_a_plain_string() -> None:
    blob = "QUJD" * 3000
    _, mask = masker()
    masked = transform_long_strings({"blob": blob}, OPTIONS.max_chars, mask)
    assert isinstance(masked, dict)
    assert masked["blob"].startswith(blob[:2000])
    assert masked["blob"].endswith(blob[-2000:])


def test_the_envelope_keeps_jsonrpc_id_and_error_code_and_message() -> None:
    long = "z" * 8000
    response = {"jsonrpc": "2.0", "id": 7, "result": {"text": long}}
    error = {"jsonrpc": "2.0", "id": "x", "error": {"code": -32000, "message": long, "data": {"trace": long}}}
    _, mask = masker()
    masked = mask_response(response, OPTIONS.max_chars, mask)
    masked_error = mask_response(error, OPTIONS.max_chars, mask)
    assert isinstance(masked, dict)
    assert isinstance(masked_error, dict)
    assert (masked["jsonrpc"], masked["id"], set(masked)) == ("2.0", 7, {"jsonrpc", "id", "result"})
    assert MARKER.search(masked["result"]["text"]) is not None
    assert masked_error["error"]["code"] == -32000
    assert masked_error["error"]["message"] == long  # only result and error.data are observations
    assert MARKER.search(masked_error["error"]["data"]["trace"]) is not None
    assert at(error, "error", "data", "trace") == long


def test_a_batch_is_masked_item_by_item_and_untouched_items_are_shared() -> None:
    small = {"jsonrpc": "2.0", "id": 1, "result": {}}
    batch = [small, {"jsonrpc": "2.0", "id": 2, "result": "q" * 4001}]
    _, mask = masker()
    masked = mask_response(batch, OPTIONS.max_chars, mask)
    assert isinstance(masked, list)
    assert masked[0] is small
    assert MARKER.search(masked[1]["result"]) is not None


def test_an_unrecoverable_middle_says_so_in_the_marker() -> None:
    parts = split_long_string("x" * 5000, OPTIONS)
    assert "id=unavailable]" in render_masked(parts, None)


def test_zero_tail_keeps_only_the_head() -> None:
    options = MaskOptions(max_chars=10, head_chars=4, tail_chars=0)
    parts = split_long_string("0123456789abcdef", options)
    assert (parts.head, parts.middle, parts.tail) == ("0123", "456789abcdef", "")


@given(
    text=st.text(min_size=0, max_size=300),
    max_chars=st.integers(1, 50),
    head=st.integers(0, 25),
    tail=st.integers(0, 25),
)
def test_head_middle_and_tail_always_rebuild_the_original(
    text: str, max_chars: int, head: int, tail: int
) -> None:
    options = MaskOptions(max_chars=max(max_chars, head + tail), head_chars=head, tail_chars=tail)
    if len(text) <= options.max_chars:
        return
    parts = split_long_string(text, options)
    assert parts.head + parts.middle + parts.tail == text
    assert (len(parts.head), len(parts.tail)) == (head, tail)
    assert parts.middle  # a masked string always hides something


def test_a_middle_is_measured_in_utf8_bytes_without_cutting_it() -> None:
    for char, width in (("a", 1), ("é", 2), ("€", 3), ("\U0001f600", 4)):
        text = "h" * OPTIONS.head_chars + char * 10_000 + "t" * OPTIONS.tail_chars
        assert middle_utf8_bytes(text, OPTIONS) == 10_000 * width
    emoji = "\U0001f600" * (OPTIONS.head_chars + 1_000_000 + OPTIONS.tail_chars)
    assert 40_000 < middle_utf8_bytes(emoji, OPTIONS, at_most=40_000) < 4_000_000  # stopped early
    assert middle_utf8_bytes("short", OPTIONS) == 0


def test_an_emoji_middle_too_big_for_the_store_is_never_sliced() -> None:
    # 1M emoji: 1M characters fit a 2 MiB store by count, its 4 MB of UTF-8 do not. Slicing the
    # middle only to have the store refuse it was one more copy of the string in memory.
    text = "\U0001f600" * 1_000_000
    store = RecoveryStore(60, 100, 2 << 20)
    masker = RecoverableMasker(store, OPTIONS, max_bytes=2 << 20)
    tracemalloc.start()
    try:
        masked = masker(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert "id=unavailable" in masked
    assert masker.unstored == 1
    assert peak < 1_000_000  # measuring holds 2 x 256 KiB at most; a sliced middle was ~4 MB
