"""The SSE reader keeps each event's `data` and nothing else, gathered as bytes."""

import tracemalloc

from hypothesis import given
from hypothesis import strategies as st

from mcp_pruner_server.gateway.sse import SseEventReader


def read_events(data: bytes, cuts: list[int] | None = None) -> list[str]:
    """The events' data, `data` fed in chunks cut at `cuts`."""
    reader = SseEventReader()
    events: list[bytearray] = []
    start = 0
    for cut in sorted(set(cuts or [])):
        events += reader.feed(data[start:cut])
        start = cut
    events += reader.feed(data[start:])
    tail = reader.finish()
    return [event.decode() for event in [*events, *([tail] if tail is not None else [])]]


def lines(*each: str) -> bytes:
    return "".join(line + "\n" for line in each).encode()


def test_data_lines_of_one_event_are_joined_with_newlines() -> None:
    assert read_events(lines('data: {"a":', "data: 1}", "")) == ['{"a":\n1}']


def test_comments_event_names_and_ids_are_skipped() -> None:
    stream = lines(": keep-alive", "", "event: message", "id: 4", "retry: 10", "data: x", "")
    assert read_events(stream) == ["x"]


def test_only_one_leading_space_is_dropped() -> None:
    assert read_events(lines("data:  two", "", "data:none", "")) == [" two", "none"]


def test_data_alone_on_its_line_is_an_empty_data_line() -> None:
    assert read_events(lines("data", "data: x", "", "data", "")) == ["\nx", ""]


def test_fields_that_only_start_like_data_are_skipped() -> None:
    assert read_events(lines("dat: 1", "datax: 2", "database", "data: 3", "")) == ["3"]


def test_an_event_cut_off_by_the_end_of_the_stream_is_still_read() -> None:
    assert read_events(b"data: last") == ["last"]
    assert read_events(b"data: last\n") == ["last"]


def test_blank_lines_without_data_produce_no_event() -> None:
    assert read_events(lines("", "", "event: ping", "")) == []


def test_lines_end_at_crlf_lf_or_cr_even_when_a_chunk_cuts_them() -> None:
    stream = "data: é1\r\ndata: 2\rdata: 3\n\ndata: last".encode()
    for cut in range(len(stream) + 1):
        assert read_events(stream, [cut]) == ["é1\n2\n3", "last"], cut


@given(
    st.lists(st.lists(st.text(alphabet=st.characters(exclude_characters="\r\n", codec="utf-8")), min_size=1)),
    st.lists(st.integers(0, 400)),
    st.sampled_from(["\n", "\r\n", "\r"]),
    st.sampled_from(["data: ", "data:"]),
)
def test_events_come_back_whole_whatever_the_chunks(
    events: list[list[str]], cuts: list[int], eol: str, prefix: str
) -> None:
    stream = "".join("".join(prefix + line + eol for line in event) + eol for event in events).encode()
    expected = [
        "\n".join(line[1:] if prefix == "data:" and line.startswith(" ") else line for line in event)
        for event in events
    ]
    assert read_events(stream, cuts) == expected


def test_a_huge_one_line_event_is_held_once_while_it_is_read() -> None:
    # one 8 MB `data:` line fed in 64 KiB chunks, as a 64 MB tool result arrives: the reader
    # holds the event's bytes and nothing else (line parts, the joined line and its value
    # were 3 copies of it before)
    size, chunk = 8 << 20, 64 << 10
    stream = b"data: " + b"x" * size + b"\n\n"
    reader = SseEventReader()
    events: list[bytearray] = []
    tracemalloc.start()
    try:
        for start in range(0, len(stream), chunk):
            events += reader.feed(stream[start : start + chunk])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [len(event) for event in events] == [size]
    assert peak < 1.3 * size  # the bytearray's growth slack, no second copy
