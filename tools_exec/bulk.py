"""Bulk byte work off the event loop, one thread at a time; spools released in the background.

Bulk work here is Python walking megabytes: reading a spooled capture back and counting its
line ends, reading a large file into a capture. It holds the GIL for most of its time, so
threads running it side by side do not go faster, they only make the event loop wait for the
GIL more often. Measured on this 2-core machine (an event loop ticking every 1 ms while 64 MiB
are read, written to a temporary file and counted, 10 times): 10 threads at once delayed the
ticks by p99 24-86 ms; one thread doing them in turn, by p99 1.5-7 ms. So `run_bulk` queues
every such job behind one worker thread per event loop (first come, first served).

Closing an unlinked 64 MiB spool frees its pages in the `close()` call: 4-8 ms measured, the
event loop's to pay when a tool call ends. `close_in_background` hands that to a thread that
holds no GIL while the kernel works.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import IO, Any, TypeVar

import anyio
import anyio.to_thread
from anyio.lowlevel import RunVar

T = TypeVar("T")

BULK_THREADS = 1
"""Bulk jobs running at once, per event loop: they serialize on the GIL anyway (module doc)."""

_bulk_limiter: RunVar[anyio.CapacityLimiter] = RunVar("tools_exec_bulk_limiter")
# Closing a file is a system call (no GIL held): one thread keeps up with any number of calls.
_closer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jeeves-spool-close")


async def run_bulk(func: Callable[..., T], *args: Any) -> T:
    """`func(*args)` in a worker thread, after the bulk jobs queued before it."""
    try:
        limiter = _bulk_limiter.get()
    except LookupError:
        limiter = anyio.CapacityLimiter(BULK_THREADS)
        _bulk_limiter.set(limiter)
    return await anyio.to_thread.run_sync(func, *args, limiter=limiter)


def close_in_background(file: IO[bytes]) -> Future[None]:
    """Close `file` in the closer thread; the future completes once it is closed."""
    return _closer.submit(file.close)
