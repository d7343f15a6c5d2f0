"""A SIGKILL of `jeeves run` leaves nothing behind (`runner.watchdog`): the agent's background and
foreground children, a daemon started through the `bash` tool, the scratch directory."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

from runner.watchdog import KILL_GRACE_S, WATCH_INTERVAL_S
from tests.runner.runner_support import JEEVES

# Processes started by the agent must be up before the kill: a hang here is a broken agent.
STARTED_TIMEOUT_S = 30.0
# The guarantee (watchdog doc): the grace, a poll, and a wide margin for a loaded machine.
CLEANED_UP_S = KILL_GRACE_S + WATCH_INTERVAL_S + 5.0
POLL_S = 0.05

AGENT = textwrap.dedent(
    """
    import json, os, subprocess, sys, urllib.request
    background = subprocess.Popen(["sleep", "301"])
    url = os.environ["JEEVES_MCP_URL"].removesuffix("/mcp") + "/rpc"
    cmd = "setsid sleep 302 > /dev/null 2>&1 < /dev/null & echo $!"
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "bash", "arguments": {"cmd": cmd}}}
    request = urllib.request.Request(url, json.dumps(body).encode(), {
        "content-type": "application/json",
        "authorization": "Bearer " + os.environ["JEEVES_MCP_TOKEN"]})
    answer = json.load(urllib.request.urlopen(request, timeout=20))
    daemon = int(answer["result"]["structuredContent"]["stdout"])
    foreground = subprocess.Popen(["sleep", "303"])
    with open(sys.argv[1] + ".tmp", "w") as out:
        json.dump({"background": background.pid, "daemon": daemon, "foreground": foreground.pid}, out)
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    foreground.wait()
    """
)


def gone_within(pids: dict[str, int], timeout_s: float) -> dict[str, int]:
    """The pids still running (not zombies) after `timeout_s`; the survivors are then killed."""
    processes = {}
    for name, pid in pids.items():
        try:
            processes[name] = psutil.Process(pid)
        except psutil.NoSuchProcess:
            continue
    _, alive = psutil.wait_procs(list(processes.values()), timeout=timeout_s)
    survivors = {}
    for name, process in processes.items():
        if process in alive:
            try:
                if process.status() == psutil.STATUS_ZOMBIE:
                    continue
                survivors[name] = process.pid
                process.kill()  # the test fails, without leaving it running
            except psutil.NoSuchProcess:
                continue
    return survivors


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="the watchdog reads /proc")
def test_sigkill_of_jeeves_run_leaves_no_process_and_no_scratch_dir(tmp_path: Path) -> None:
    agent = tmp_path / "agent.py"
    agent.write_text(AGENT)
    pids_file = tmp_path / "pids.json"
    scratch_parent = tmp_path / "tmp"
    scratch_parent.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("JEEVES_")}
    env["TMPDIR"] = str(scratch_parent)
    env["JEEVES_MCP_PRUNER_PROBE_INTERVAL_MS"] = "50"
    argv = [
        *JEEVES,
        "run",
        "-p",
        "command",
        "--cwd",
        str(tmp_path),
        "--",
        sys.executable,
        str(agent),
        str(pids_file),
    ]
    runner = subprocess.Popen(
        argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        for _ in range(int(STARTED_TIMEOUT_S / POLL_S)):  # a file: only visible by looking
            if pids_file.exists() or runner.poll() is not None:
                break
            time.sleep(POLL_S)
        assert pids_file.exists(), "the agent never reported its processes"
        pids = json.loads(pids_file.read_text())
        assert any(scratch_parent.iterdir()), "no scratch directory to clean up"
        runner.send_signal(signal.SIGKILL)
        runner.wait(timeout=STARTED_TIMEOUT_S)
        cleanup_ends = time.monotonic() + CLEANED_UP_S
        assert gone_within(pids, CLEANED_UP_S) == {}
        # The directories go after the processes: on a loaded machine, a moment later.
        while any(scratch_parent.iterdir()) and time.monotonic() < cleanup_ends:
            time.sleep(POLL_S)  # a directory's removal is only visible by looking
        assert list(scratch_parent.iterdir()) == []
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()


def watchdogs() -> set[int]:
    found = set()
    for process in psutil.process_iter(["cmdline"]):
        cmdline = process.info["cmdline"] or []
        if "runner.watchdog" in cmdline:
            found.add(process.pid)
    return found


def test_a_run_that_ends_by_itself_disarms_its_watchdog_and_kills_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "still-here"
    env = {k: v for k, v in os.environ.items() if not k.startswith("JEEVES_")}
    before = watchdogs()
    argv = [
        *JEEVES,
        "run",
        "--no-pruner",
        "-p",
        "command",
        "--",
        "sh",
        "-c",
        f"echo $JEEVES_RUN_ID > {marker}",
    ]
    out = subprocess.run(
        argv, env=env, capture_output=True, text=True, cwd=tmp_path, timeout=STARTED_TIMEOUT_S
    )
    assert out.returncode == 0, out.stderr
    assert marker.read_text().strip().startswith("ses_")  # the agent carried the run's marker
    assert "run.watchdog_unavailable" not in out.stderr
    assert "run.orphans_killed" not in out.stderr  # the sweep spares the live watchdog
    leftover = watchdogs() - before
    _, alive = psutil.wait_procs(
        [psutil.Process(pid) for pid in leftover if psutil.pid_exists(pid)], timeout=5
    )
    assert alive == []  # told "done", it exited on its own
