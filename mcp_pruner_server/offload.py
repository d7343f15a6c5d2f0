"""CPU work the event loop must not do when it is large: parsing, encoding, rendering.

`run_off_loop_if_large(fn, size)` runs `fn` inline for small inputs (a thread hop costs more
than the work) and in a worker thread past `OFF_LOOP_BYTES`, so one big body does not stall
`/healthz` and every other request. `in_abandoned_thread(fn)` runs a long import (the full
app, the MCP SDK) in a daemon thread a shutdown does not wait for. `json_request_body` is the
JSON encoding of an outgoing request body, for callers that hand httpx the bytes (`content=`)
instead of `json=`.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable
from typing import Final, TypeVar

import anyio
import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread

# Same threshold as the dispatcher's off-loop serialization: below it a thread hop (~50 µs)
# costs more than the JSON work it would move; a 246 KB body costs ~24 ms on the loop.
OFF_LOOP_BYTES: Final = 64 * 1024

T = TypeVar("T")


async def run_off_loop_if_large(fn: Callable[[], T], size: int, threshold: int = OFF_LOOP_BYTES) -> T:
    """`fn()`, in a worker thread when `size` (bytes or chars of its input) is over `threshold`.

    The thread is not abandoned on cancellation: the work is bounded by its input and its
    result (or exception) is what the caller needs.
    """
    if size <= threshold:
        return fn()
    return await anyio.to_thread.run_sync(fn)


async def in_abandoned_thread(fn: Callable[[], T], *, name: str) -> T:
    """`fn()` in a daemon thread of its own named `name`; a cancelled caller stops waiting for
    it, and the process exits without it (a worker thread of anyio, abandoned or not, is joined
    at exit).

    Raises:
        Exception: what `fn` raised.
    """
    done = anyio.Event()
    token = anyio.lowlevel.current_token()
    outcome: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(fn())
        except BaseException as exc:  # handed to the caller
            failure.append(exc)
        with contextlib.suppress(RuntimeError):  # the loop is gone: nobody waits any more
            anyio.from_thread.run_sync(done.set, token=token)

    threading.Thread(target=run, name=name, daemon=True).start()
    await done.wait()
    if failure:
        raise failure[0]
    return outcome[0]


def json_request_body(payload: object) -> bytes:
    """Compact UTF-8 JSON, as httpx's `json=` encodes it; NaN/Infinity are refused.

    A lone surrogate (from a `\\ud800` escape in a request) cannot be UTF-8: such a payload is
    written with `\\u` escapes instead, which any JSON parser reads back.

    Raises:
        ValueError: `payload` holds NaN or an infinity.
        TypeError: `payload` holds a value JSON cannot represent.
    """
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(payload, ensure_ascii=True, separators=(",", ":"), allow_nan=False).encode()
