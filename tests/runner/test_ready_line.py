from __future__ import annotations

import json

import pytest

from runner.ready_line import MAX_LINE_CHARS, MAX_PENDING_BYTES, LineSplitter, ReadyLine, parse_ready_line

READY = {
    "event": "mcp_pruner.ready",
    "host": "127.0.0.1",
    "port": 4321,
    "url": "http://127.0.0.1:4321/mcp",
    "root": "/r",
    "pid": 9,
}


def test_the_ready_line_is_recognised_and_anything_else_is_not() -> None:
    expected = ReadyLine("127.0.0.1", 4321, "http://127.0.0.1:4321/mcp", 9)
    assert parse_ready_line(json.dumps(READY), "127.0.0.1") == expected
    assert parse_ready_line("Uvicorn running on http://127.0.0.1:4321", "127.0.0.1") is None
    assert parse_ready_line(json.dumps({**READY, "event": "mcp_pruner.sdk_ready"}), "127.0.0.1") is None
    assert parse_ready_line(json.dumps({**READY, "port": "4321"}), "127.0.0.1") is None


@pytest.mark.parametrize(
    ("fields", "expected_host"),
    [
        ({"url": "http://[::1/mcp"}, "127.0.0.1"),
        ({"url": "http://127.0.0.1:99999/mcp"}, "127.0.0.1"),
        ({"port": 99999, "url": "http://127.0.0.1:99999/mcp"}, "127.0.0.1"),
        ({"port": 0, "url": "http://127.0.0.1:0/mcp"}, "127.0.0.1"),
        ({"url": "http://127.0.0.1/mcp"}, "127.0.0.1"),
        ({"url": "https://127.0.0.1:4321/mcp"}, "127.0.0.1"),
        ({"url": "http://127.0.0.2:4321/mcp"}, "127.0.0.1"),
        ({"host": "10.0.0.1", "url": "http://10.0.0.1:4321/mcp"}, "127.0.0.1"),
        ({"host": "example.com", "url": "http://example.com:4321/mcp"}, "localhost"),
        ({}, "::1"),
    ],
)
def test_a_ready_line_naming_anything_but_plain_http_on_our_loopback_host_is_not_one(
    fields: dict[str, object], expected_host: str
) -> None:
    assert parse_ready_line(json.dumps({**READY, **fields}), expected_host) is None


def test_ipv6_and_localhost_ready_lines_are_accepted() -> None:
    ipv6 = {**READY, "host": "::1", "url": "http://[::1]:4321/mcp"}
    assert parse_ready_line(json.dumps(ipv6), "::1") is not None
    assert parse_ready_line(json.dumps(READY), "localhost") is not None  # localhost binds 127.0.0.1


def test_the_base_url_comes_from_the_advertised_url_ipv6_included() -> None:
    assert ReadyLine("127.0.0.1", 4321, "http://127.0.0.1:4321/mcp", None).base_url == "http://127.0.0.1:4321"
    assert ReadyLine("::1", 5, "http://[::1]:5/mcp", None).base_url == "http://[::1]:5"


def test_the_line_splitter_keeps_partial_lines_and_stays_bounded() -> None:
    splitter = LineSplitter()
    assert splitter.feed(b"one\ntw") == ["one"]
    assert splitter.feed(b"o\n") == ["two"]
    flood = splitter.feed(b"x" * (MAX_PENDING_BYTES + 1))
    assert len(flood) == 1
    assert len(flood[0]) == MAX_LINE_CHARS
    assert splitter.flush() == []
