"""Bulk byte work off the event loop, one thread at a time; spools released in the background.

Bulk work here is Python walking megabytes: reading a spooled capture back and counting its
line ends, reading a large file into a capture. It holds the GIL for most of its time, so
threads running it side by side do not go faster, they only make the event loop wait for the
GIL more often. Measured on this 2-core machine (an event loop ticking every 1 ms while 64 MiB
are read, written to a temporary file and counted, 10 times): 10 threads at once delayed the
ticks by p99 24-86 ms; one thread doing them in turn, by p99 1.5-7 ms. So `run_bulk` queues
every such job behind one worker thread per event loop (first come, first served).

Closing an unlinked 64 MiB spool frees its pages in the `close()` call: 4-8 ms measured, the
event loop's to pay when a tool call ends. Writing to a spool on disk can wait on the file
system too (a journal commit, pages under writeback): ten commands printing 64 MiB each right
after 80 MB of other files were written saw `/healthz` p99 40-62 ms, 13-19 ms with the spools on
tmpfs. So a spool's writes and its close go to one I/O thread (`spool_io`), in order, that holds
no GIL while the kernel works.
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
# Spool writes and closes are system calls (no GIL held): one thread keeps up with any number of
# captures, and one thread runs a capture's writes and its close in the order they were asked.
_spool_io = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jeeves-spool-io")


async def run_bulk(func: Callable[..., T], *args: Any) -> T:
    """`func(*args)` in a worker thread, after the bulk jobs queued before it."""
    try:
        limiter = _bulk_limiter.get()
    except LookupError:
        limiter = anyio.CapacityLimiter(BULK_THREADS)
        _bulk_limiter.set(limiter)
    return await anyio.to_thread.run_sync(func, *args, limiter=limiter)


def spool_io(func: Callable[..., T], *args: Any) -> Future[T]:
    """`func(*args)` in the spool I/O thread, after every job submitted before it."""
    return _spool_io.submit(func, *args)


def close_in_background(file: IO[bytes]) -> Future[None]:
    """Close `file` in the spool I/O thread (after its pending writes); done once it is closed."""
    return spool_io(file.close)
