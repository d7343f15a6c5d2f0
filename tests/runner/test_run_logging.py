"""`jeeves run` when its log cannot be written: the agent still runs, its exit code is the run's,
and the orphan sweep still runs (issue 16: `--log-file /dev/full` and a stderr read by
`2> >(head -n1)` both ended the run with exit 1, the second leaving a `sleep` behind)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import psutil

from runner.events import EventLog
from tests.runner.runner_support import JEEVES

STEP_BOUND_S = 20
AGENT_EXIT = 5


def sleep_is_gone(pid: int) -> bool:
    try:
        psutil.Process(pid).wait(timeout=5)  # swept at the end of the run: gone by now or soon
    except psutil.NoSuchProcess:
        pass
    except psutil.TimeoutExpired:
        psutil.Process(pid).kill()  # left behind: the test fails, without leaving it running
        return False
    return True


def env_without_jeeves() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("JEEVES_")}


def test_a_log_file_that_cannot_be_written_does_not_stop_the_agent(tmp_path: Path) -> None:
    marker = tmp_path / "agent-ran"
    agent = ["sh", "-c", f"touch {marker}; exit {AGENT_EXIT}"]
    argv = [*JEEVES, "run", "--no-pruner", "-p", "command", "--log-file", "/dev/full", "--", *agent]
    out = subprocess.run(
        argv, capture_output=True, text=True, cwd=tmp_path, env=env_without_jeeves(), timeout=STEP_BOUND_S
    )
    assert marker.exists()
    assert out.returncode == AGENT_EXIT, out.stderr
    assert "Traceback" not in out.stderr


def test_a_stderr_reader_that_goes_away_keeps_the_exit_code_and_the_sweep(tmp_path: Path) -> None:
    pid_file = tmp_path / "sleep.pid"
    agent = ["sh", "-c", f"sleep 300 & echo $! > {pid_file}; exit {AGENT_EXIT}"]
    argv = [*JEEVES, "run", "--no-pruner", "-p", "command", "--", *agent]
    process = subprocess.Popen(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp_path, env=env_without_jeeves()
    )
    assert process.stderr is not None
    process.stderr.readline()  # `2> >(head -n1)`: the first line, then the reader is gone
    process.stderr.close()
    assert process.wait(timeout=STEP_BOUND_S) == AGENT_EXIT
    assert sleep_is_gone(int(pid_file.read_text()))


def test_an_event_whose_write_fails_is_counted_and_kept(tmp_path: Path) -> None:
    with open("/dev/full", "w", encoding="utf-8", buffering=1) as stream:
        log = EventLog(stream)
        log.emit("run.one")
        log.emit("run.two")
    assert log.write_failures == 1  # then /dev/null: nothing fails twice, close() included
    assert log.names() == ["run.one", "run.two"]
