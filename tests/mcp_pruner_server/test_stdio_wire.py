"""`StdioWire` on real pipes: lines however they are cut, a bound on a line, a reader that left."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import anyio
import anyio.lowlevel
import pytest

from mcp_pruner_server.stdio_wire import MAX_LINE_BYTES, Oversized, StdioWire

pytestmark = pytest.mark.anyio

WIRE_TIMEOUT_S = 10.0


@pytest.fixture
def pipes() -> Iterator[tuple[int, int, int, int]]:
    """(server reads, client writes, server writes, client reads)."""
    inbound_r, inbound_w = os.pipe()
    outbound_r, outbound_w = os.pipe()
    yield inbound_r, inbound_w, outbound_w, outbound_r
    for fd in (inbound_r, inbound_w, outbound_w, outbound_r):
        with contextlib.suppress(OSError):  # the test closed it already
            os.close(fd)


async def _read_all(wire: StdioWire) -> list[bytes | Oversized]:
    with anyio.fail_after(WIRE_TIMEOUT_S):
        return [line async for line in wire.lines()]


async def test_lines_cut_anywhere_come_whole_and_blank_ones_are_skipped(
    pipes: tuple[int, int, int, int],
) -> None:
    server_in, client_out, server_out, _ = pipes
    wire = StdioWire(server_in, server_out)

    async def client() -> None:
        for piece in (b'{"a"', b": 1}\n\n  \n{", b'"b": 2}\r\n{"c": 3}'):
            os.write(client_out, piece)
            await anyio.lowlevel.checkpoint()
        os.close(client_out)

    async with anyio.create_task_group() as tg:
        tg.start_soon(client)
        lines = await _read_all(wire)

    assert lines == [b'{"a": 1}', b'{"b": 2}', b'{"c": 3}']


async def test_a_line_past_the_bound_is_reported_once_and_the_next_line_still_comes(
    pipes: tuple[int, int, int, int],
) -> None:
    server_in, client_out, server_out, _ = pipes
    wire = StdioWire(server_in, server_out)
    chunk = b"x" * (1 << 20)

    async def client() -> None:
        for _ in range(MAX_LINE_BYTES // len(chunk) + 2):
            await anyio.to_thread.run_sync(os.write, client_out, chunk)
        await anyio.to_thread.run_sync(os.write, client_out, b'\n{"after": true}\n')
        os.close(client_out)

    async with anyio.create_task_group() as tg:
        tg.start_soon(client)
        lines = await _read_all(wire)

    assert lines == [Oversized(MAX_LINE_BYTES), b'{"after": true}']


async def test_an_answer_to_a_client_that_stopped_reading_is_dropped_not_raised(
    pipes: tuple[int, int, int, int],
) -> None:
    server_in, _, server_out, client_in = pipes
    wire = StdioWire(server_in, server_out)
    os.close(client_in)

    with anyio.fail_after(WIRE_TIMEOUT_S):
        await wire.send(b'{"jsonrpc": "2.0", "id": 1, "result": {}}')
        await wire.send(b'{"jsonrpc": "2.0", "id": 2, "result": {}}')

    assert wire.stdout_closed
