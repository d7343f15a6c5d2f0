import threading
import tracemalloc

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_pruner_server import recovery
from mcp_pruner_server.errors import InvalidRangeError, PruneIdNotFoundError
from mcp_pruner_server.jsonrpc import domain_rpc_error
from mcp_pruner_server.pruning.text import split_lines
from mcp_pruner_server.pruning.types import LINE_PREFIX_TEMPLATE
from mcp_pruner_server.recovery import (
    MAX_RECOVER_RANGES,
    RecoveryStore,
    new_prune_id,
)
from tests.json_paths import at


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make_store(clock: FakeClock | None = None, **bounds: int) -> RecoveryStore:
    return RecoveryStore(
        ttl_s=bounds.get("ttl_s", 60),
        max_entries=bounds.get("max_entries", 100),
        max_bytes=bounds.get("max_bytes", 1_000_000),
        clock=clock or FakeClock(),
    )


TEXT = "one\ntwo\nthree\nfour\nfive"


def test_recover_returns_the_requested_lines_with_original_numbers() -> None:
    store = make_store()
    store.put("prn_a", TEXT)
    got = store.recover("prn_a", [(2, 3)], include_line_numbers=True)
    assert got.raw_text == "2│ two\n3│ three"
    assert got.to_dict()["metadata"] == {
        "prune_id": "prn_a",
        "ranges": [{"start_line": 2, "end_line": 3}],
        "line_numbering": "original",
        "total_lines": 5,
    }


def test_recover_without_line_numbers_returns_raw_lines() -> None:
    store = make_store()
    store.put("prn_a", TEXT)
    assert store.recover("prn_a", [(4, 4)], include_line_numbers=False).raw_text == "four"


def test_ranges_are_concatenated_in_request_order_not_sorted() -> None:
    store = make_store()
    store.put("prn_a", TEXT)
    got = store.recover("prn_a", [(5, 5), (1, 2), (5, 5)], include_line_numbers=False)
    assert got.raw_text == "five\none\ntwo\nfive"


def test_end_line_past_the_text_is_clamped_and_reported_clamped() -> None:
    store = make_store()
    store.put("prn_a", TEXT)
    got = store.recover("prn_a", [(4, 999)], include_line_numbers=True)
    assert got.raw_text == "4│ four\n5│ five"
    assert got.ranges[0].end_line == 5


def test_a_trailing_newline_is_an_empty_last_line_like_the_engine_counts() -> None:
    store = make_store()
    store.put("prn_a", "a\nb\n")
    got = store.recover("prn_a", [(2, 9)], include_line_numbers=True)
    assert got.raw_text == "2│ b\n3│ "
    assert got.total_lines == 3


@pytest.mark.parametrize(
    ("ranges", "reason"),
    [
        ([], "at least one range"),
        ([(0, 2)], "start_line must be >= 1"),
        ([(3, 2)], "start_line must be <= end_line"),
        ([(6, 9)], "past the last line"),
        ([(1, 1)] * (MAX_RECOVER_RANGES + 1), "at most"),
    ],
)
def test_invalid_ranges_raise_invalid_range_with_rpc_code_and_data(
    ranges: list[tuple[int, int]], reason: str
) -> None:
    store = make_store()
    store.put("prn_a", TEXT)
    with pytest.raises(InvalidRangeError) as caught:
        store.recover("prn_a", ranges, include_line_numbers=False)
    err = at(domain_rpc_error(None, caught.value), "error", kind=dict)
    assert err["code"] == -32005
    assert err["message"] == "invalid_range"
    data = caught.value.data
    assert data["code"] == "invalid_range"
    assert data["prune_id"] == "prn_a"
    assert reason in str(data["reason"])


def test_unknown_id_raises_prune_id_not_found_with_the_documented_error_shape() -> None:
    store = make_store()
    with pytest.raises(PruneIdNotFoundError) as caught:
        store.recover("prn_nope", [(1, 1)], include_line_numbers=False)
    assert domain_rpc_error(None, caught.value)["error"] == {
        "code": -32004,
        "message": "prune_id_not_found",
        "data": {"code": "prune_id_not_found", "prune_id": "prn_nope"},
    }


def test_entries_expire_after_the_ttl_counted_from_put() -> None:
    clock = FakeClock()
    store = make_store(clock, ttl_s=10)
    store.put("prn_a", TEXT)
    clock.now += 9.9
    assert store.recover("prn_a", [(1, 1)], include_line_numbers=False).raw_text == "one"
    clock.now += 0.1
    with pytest.raises(PruneIdNotFoundError):
        store.recover("prn_a", [(1, 1)], include_line_numbers=False)
    assert store.stats().expirations == 1


def test_expired_entries_are_purged_on_put_and_free_their_bytes() -> None:
    clock = FakeClock()
    store = make_store(clock, ttl_s=10)
    store.put("prn_a", "x" * 100)
    clock.now += 11
    store.put("prn_b", "y")
    assert store.stats().entries == 1
    assert store.stats().bytes == 1


def test_entry_bound_evicts_the_least_recently_used() -> None:
    store = make_store(max_entries=2)
    store.put("prn_a", "a")
    store.put("prn_b", "b")
    store.recover("prn_a", [(1, 1)], include_line_numbers=False)  # a is now the most recent
    store.put("prn_c", "c")
    assert store.get("prn_a") == "a"
    assert store.get("prn_c") == "c"
    with pytest.raises(PruneIdNotFoundError):
        store.get("prn_b")
    assert store.stats().evictions == 1


def test_byte_bound_evicts_until_the_new_text_fits() -> None:
    store = make_store(max_bytes=10)
    store.put("prn_a", "aaaa")
    store.put("prn_b", "bbbb")
    store.put("prn_c", "ccccc")  # 13 > 10: evict a, then 9 fits
    assert store.stats().bytes == 9
    with pytest.raises(PruneIdNotFoundError):
        store.get("prn_a")
    assert store.get("prn_b") == "bbbb"


def test_bytes_are_counted_in_utf8() -> None:
    store = make_store(max_bytes=4)
    assert store.put("prn_a", "éé")  # 4 bytes
    assert not store.put("prn_b", "ééé")  # 6 bytes


@pytest.mark.parametrize("unit", ["a", "é"])
def test_put_measures_a_text_without_copying_it_whole(unit: str) -> None:
    text = unit * (8 << 20)
    store = make_store(max_bytes=64 << 20)
    tracemalloc.start()
    try:
        assert store.put("prn_big", text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert store.stats().bytes == len(text.encode())
    assert peak < 2 << 20  # the whole encoded copy would be 8-16 MiB


def test_a_text_larger_than_the_whole_store_is_refused_without_evicting_others() -> None:
    store = make_store(max_bytes=10)
    store.put("prn_a", "small")
    assert store.put("prn_big", "x" * 11) is False
    assert store.get("prn_a") == "small"
    with pytest.raises(PruneIdNotFoundError):
        store.get("prn_big")


def test_put_under_an_existing_id_replaces_the_text_and_its_bytes() -> None:
    store = make_store()
    store.put("prn_a", "long text")
    store.put("prn_a", "x")
    assert store.get("prn_a") == "x"
    assert store.stats().bytes == 1


def test_concurrent_puts_from_threads_keep_the_bounds() -> None:
    store = make_store(max_entries=50, max_bytes=10_000)

    def writer(n: int) -> None:
        for i in range(200):
            store.put(f"prn_{n}_{i}", "z" * 37)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stats = store.stats()
    assert stats.entries == 50
    assert stats.bytes == 50 * 37


def test_new_prune_ids_are_unique_prefixed_and_sort_by_time() -> None:
    ids = [new_prune_id() for _ in range(200)]
    assert len(set(ids)) == 200
    assert all(i.startswith("prn_") and len(i) == 30 for i in ids)
    assert new_prune_id(prefix="msk_").startswith("msk_")
    first, later = ids[0], new_prune_id()
    assert first[4:14] <= later[4:14]  # the time part (48 bits = first 10 chars)


lines_text = st.lists(st.text(alphabet=st.characters(exclude_characters="\n"), max_size=8), max_size=30).map(
    "\n".join
) | st.text(max_size=200)


@given(text=lines_text, cuts=st.lists(st.integers(min_value=1, max_value=40), max_size=6))
def test_ranges_covering_the_text_reproduce_it_byte_for_byte(text: str, cuts: list[int]) -> None:
    store = make_store()
    store.put("prn_p", text)
    total = len(split_lines(text))
    bounds = sorted({c for c in cuts if c <= total} | {1})
    ranges = [(s, e - 1) for s, e in zip(bounds, [*bounds[1:], total + 1], strict=True)]
    assert store.recover("prn_p", ranges, include_line_numbers=False).raw_text == text


def test_an_answer_larger_than_the_output_cap_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(recovery, "MAX_RECOVER_OUTPUT_CHARS", 50)
    store = make_store()
    store.put("prn_a", TEXT)
    assert store.recover("prn_a", [(1, 5)], include_line_numbers=False).raw_text
    with pytest.raises(InvalidRangeError, match="more than 50 chars"):
        store.recover("prn_a", [(1, 5)] * 3, include_line_numbers=False)


@given(
    lines=st.lists(st.text(alphabet="ab│é\r", max_size=5), min_size=1, max_size=30),
    ranges=st.lists(st.tuples(st.integers(1, 35), st.integers(0, 40)), min_size=1, max_size=5),
    numbers=st.booleans(),
)
def test_the_answer_is_measured_exactly_before_it_is_built(
    lines: list[str], ranges: list[tuple[int, int]], numbers: bool
) -> None:
    text = "\n".join(lines)
    store = RecoveryStore(ttl_s=60, max_entries=4, max_bytes=1 << 20)
    store.put("p", text)
    ranges = [(start, start + extra) for start, extra in ranges if start <= len(lines)]
    if not ranges:
        return
    served = recovery._clamp_ranges("p", ranges, len(lines))
    built = store.recover("p", ranges, numbers).raw_text
    assert recovery._answer_chars(lines, served, numbers) == len(built)


def test_a_thousand_whole_text_ranges_past_the_budget_fail_before_building(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = RecoveryStore(ttl_s=60, max_entries=4, max_bytes=1 << 20)
    store.put("p", "a\n" * 32000)
    built: list[int] = []
    template = LINE_PREFIX_TEMPLATE

    class Counting(str):
        def format(self, *args: object, **kwargs: object) -> str:
            built.append(1)
            return template.format(*args, **kwargs)

    # A spy on the line numbering: the review's request used to number millions of lines first.
    monkeypatch.setattr(recovery, "LINE_PREFIX_TEMPLATE", Counting(template))
    with pytest.raises(InvalidRangeError):
        store.recover("p", [(1, 10**9)] * 1000, True)
    assert len(built) <= 1  # the template's own length, measured once
