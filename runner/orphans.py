"""Processes the run left behind: found under the runner (a child subreaper) and killed.

A `bash` tool child runs in its own session, so `killpg` on the server never reaches it; if
the server dies mid-call the child is orphaned. `jeeves run` makes itself a child subreaper
(`runner.prctl`), so such orphans re-parent to it rather than to init, and at shutdown every
remaining descendant that is not kept (the provider's tree) is SIGKILLed and reaped — which
includes what the agent itself left in the background after exiting, like a terminal session
that closes. Only for a process that owns its children: in a shared process (tests) the sweep
would hit processes of other work.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Collection
from dataclasses import dataclass

import anyio
import psutil

# SIGKILL is immediate; this only bounds the reaping of processes stuck in the kernel.
REAP_TIMEOUT_S = 2.0
# Pause between reaping passes: a grandchild re-parents to us only once its parent is reaped.
REAP_POLL_S = 0.01


def _tree(pid: int) -> set[int]:
    try:
        process = psutil.Process(pid)
        return {pid, *(child.pid for child in process.children(recursive=True))}
    except psutil.Error:
        return {pid}


def _reaped(pid: int) -> bool:
    """Reap `pid` if it is our dead child; whether it is gone for good.

    A victim's own child re-parents to us only once that victim is reaped: until then it is
    someone else's zombie and stays pending.
    """
    with contextlib.suppress(ChildProcessError):
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            return True
    return not psutil.pid_exists(pid)


@dataclass(frozen=True)
class Sweep:
    """What `kill_orphans` found: processes it killed, and processes that had already exited
    and only waited to be reaped (a child of the agent that outlived its parent by moments
    re-parents to this subreaper and exits: nothing was left running)."""

    killed: tuple[int, ...]
    killed_names: tuple[str, ...]
    reaped: tuple[int, ...]
    reaped_names: tuple[str, ...]


def _name(process: psutil.Process) -> str:
    try:
        return process.name()
    except psutil.Error:
        return "?"


async def kill_orphans(keep: Collection[int]) -> Sweep:
    """SIGKILL every descendant of this process except `keep` and their descendants; reap them
    and the descendants that had exited already."""
    kept: set[int] = set()
    for pid in keep:
        kept |= _tree(pid)
    try:
        descendants = psutil.Process().children(recursive=True)
    except psutil.Error:
        return Sweep((), (), (), ())
    killed: dict[int, str] = {}
    reaped: dict[int, str] = {}
    for process in descendants:
        if process.pid in kept:
            continue
        name = _name(process)
        with contextlib.suppress(psutil.Error):
            if process.status() != psutil.STATUS_ZOMBIE:
                process.kill()
                killed[process.pid] = name
                continue
        reaped[process.pid] = name  # already dead: only reap it
    pending = set(killed) | set(reaped)
    with anyio.move_on_after(REAP_TIMEOUT_S):
        while pending:
            pending = {pid for pid in pending if not _reaped(pid)}
            if pending:
                await anyio.sleep(REAP_POLL_S)
    return Sweep(
        tuple(sorted(killed)),
        tuple(killed[pid] for pid in sorted(killed)),
        tuple(sorted(reaped)),
        tuple(reaped[pid] for pid in sorted(reaped)),
    )
