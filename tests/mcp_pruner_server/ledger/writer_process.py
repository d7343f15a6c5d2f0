"""The ledger's writer process as a test finds it: a child of a real stdio server."""

from __future__ import annotations

import contextlib
import time

import psutil

from mcp_pruner_server.ledger.channel import WRITER_MODULE
from tests.mcp_pruner_server.stdio_process import StdioServer

WAIT_TIMEOUT_S = 60.0  # a spawn or an exit on two cores shared by several suites: well under this
WAIT_STEP_S = 0.05  # a process appearing or exiting has no event to wait on: looked at this often
QUESTION = "Where is the tax computed?"


def writer_of(server: StdioServer) -> psutil.Process:
    """The server's ledger writer process (started by its first tool call)."""
    deadline = time.monotonic() + WAIT_TIMEOUT_S  # a spawn on two loaded cores: well under this
    while True:
        for child in psutil.Process(server.process.pid).children():
            with contextlib.suppress(psutil.Error):
                if WRITER_MODULE in child.cmdline():
                    return child
        assert time.monotonic() < deadline, f"no ledger writer; stderr:\n{server.stderr()[-2000:]}"
        time.sleep(WAIT_STEP_S)


def suspend(process: psutil.Process) -> None:
    """SIGSTOP `process` and return once it is stopped: a signal takes effect when the process next
    runs, and one woken in `read` by it takes what the pipe holds first (on loaded cores, records
    sent meanwhile)."""
    process.suspend()
    deadline = time.monotonic() + WAIT_TIMEOUT_S
    while process.status() != psutil.STATUS_STOPPED:
        assert time.monotonic() < deadline, f"{process} not stopped"
        time.sleep(WAIT_STEP_S)


def until_dead(process: psutil.Process) -> None:
    """Return once `process` has exited (a zombie until its parent reaps it: its pipes are closed)."""
    deadline = time.monotonic() + WAIT_TIMEOUT_S
    with contextlib.suppress(psutil.NoSuchProcess):
        while process.status() != psutil.STATUS_ZOMBIE:
            assert time.monotonic() < deadline, f"{process} still runs"
            time.sleep(WAIT_STEP_S)


def read_call(request_id: int) -> dict[str, object]:
    arguments = {"path": "billing.py", "context_focus_question": QUESTION}
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": "read", "arguments": arguments},
    }
