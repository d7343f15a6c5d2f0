"""Helpers shared by the real-client interoperability tests.

A real server is spawned exactly as the runner spawns it (console script, `--port 0`, token in
its env) and its one ready line is read from stdout. Third-party clients run with a minimal,
isolated environment: their own temporary HOME, no inherited API keys (a key would make them
call their vendor), and every proxy variable pointed at a closed loopback port so anything they
try to send beyond loopback fails at once instead of hanging on the network.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
# `make test` installs the npm clients here (pinned in the Makefile).
NODE_BIN_DIR = REPO_ROOT / ".tools" / "node_modules" / ".bin"

SERVER_READY_TIMEOUT_S = 15.0  # the target is ~1 s; six engineers' suites share 2 cores under CI
SERVER_STOP_TIMEOUT_S = 5.0  # SIGTERM grace before the fixture SIGKILLs the server's group
CLIENT_TIMEOUT_S = 30.0  # one client run takes < 2 s here; well under pytest's 60 s per test
CLIENT_KILL_WAIT_S = 5.0  # reaping a client group after SIGKILL
STDERR_TAIL_CHARS = 4000  # how much of a process's stderr a failure message quotes

# Nothing listens on the discard port: a client's vendor traffic (telemetry, updates, plugin
# sync, model websockets) is refused in microseconds. Loopback is exempt so MCP still works.
DEAD_PROXY = "http://127.0.0.1:9"
LOOPBACK_HOSTS = "127.0.0.1,localhost,::1"

SERVER_NAME_IN_CLIENTS = "jeeves_pruner"
EXPECTED_TOOLS = ("read", "bash", "grep", "prune_text", "recover_text", "recover_range", "health")
# What `jeeves run` lets an agent's model see (the rest are for programs: `disabled_tools`, deferred).
MODEL_TOOLS = ("read", "bash", "grep", "recover_text")

# A code file where a question about one function should leave most of the file out.
TARGET_FUNCTION = "compute_invoice_total"
FOCUS_QUESTION = f"How does {TARGET_FUNCTION} apply the tax_rate to the invoice lines?"
SAMPLE_FILE = "billing.py"
SMALL_FILE = "notes.txt"
SMALL_TEXT = "first line\nsecond line\n"


def sample_code() -> str:
    """A 310-line module: many filler helpers and one function the focus question is about."""
    parts = ['"""Billing helpers."""', "", "import decimal", "import math", ""]
    for n in range(60):
        parts += [
            f"def helper_{n:04d}(value):",
            f'    """Filler helper number {n}."""',
            f"    scaled = value * {n + 1}",
            f"    return math.floor(scaled) + {n}",
            "",
        ]
        if n == 30:
            parts += [
                f"def {TARGET_FUNCTION}(lines, tax_rate):",
                '    """Sum the invoice lines and apply tax_rate once, rounded half-up to cents."""',
                "    subtotal = sum(decimal.Decimal(str(line.amount)) for line in lines)",
                "    taxed = subtotal * (1 + decimal.Decimal(str(tax_rate)))",
                '    return taxed.quantize(decimal.Decimal("0.01"), rounding=decimal.ROUND_HALF_UP)',
                "",
            ]
    return "\n".join(parts).rstrip("\n") + "\n"


def write_sample_tree(root: Path) -> None:
    """Fill the server's root with the files the tests read."""
    (root / SAMPLE_FILE).write_text(sample_code(), encoding="utf-8")
    (root / SMALL_FILE).write_text(SMALL_TEXT, encoding="utf-8")


@dataclass(frozen=True)
class ReadyLine:
    """The `mcp_pruner.ready` line the server prints on stdout once it listens."""

    url: str
    host: str
    port: int
    root: str
    pid: int


@dataclass
class RunningServer:
    """A real `jeeves-mcp-pruner` child process and what a client needs to reach it."""

    process: subprocess.Popen[bytes]
    ready: ReadyLine
    token: str
    root: Path
    stderr_path: Path
    # Every line the server wrote on stdout (the ready line first); filled by a drain thread.
    stdout_lines: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return self.ready.url

    @property
    def base_url(self) -> str:
        return f"http://{self.ready.host}:{self.ready.port}"


def tail(text: str) -> str:
    return text[-STDERR_TAIL_CHARS:]


def server_executable() -> Path:
    """The `jeeves-mcp-pruner` console script of the venv running the tests."""
    exe = Path(sys.executable).with_name("jeeves-mcp-pruner")
    if not exe.exists():
        pytest.fail(f"{exe} is missing: install the project with `make test` (pip install -e '.[dev]')")
    return exe


def jeeves_executable() -> Path:
    """The `jeeves` console script of the venv running the tests."""
    exe = Path(sys.executable).with_name("jeeves")
    if not exe.exists():
        pytest.fail(f"{exe} is missing: install the project with `make test` (pip install -e '.[dev]')")
    return exe


def server_env(token: str) -> dict[str, str]:
    """The server's environment: ours minus any vendor key, plus the bearer token it must require."""
    env = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_TOKEN", "_SECRET"))}
    env["JEEVES_MCP_PRUNER_TOKEN"] = token
    return env


def _read_ready_line(process: subprocess.Popen[bytes], stderr_path: Path) -> str:
    """Wait for the first stdout line, failing fast if the server dies or stays silent."""
    assert process.stdout is not None
    deadline = time.monotonic() + SERVER_READY_TIMEOUT_S
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        while not selector.select(timeout=max(0.0, deadline - time.monotonic())):
            if time.monotonic() >= deadline:
                pytest.fail(
                    f"server printed no ready line within {SERVER_READY_TIMEOUT_S} s; stderr:\n"
                    + tail(stderr_path.read_text(errors="replace"))
                )
    line = process.stdout.readline().decode("utf-8", errors="replace")
    if not line:
        process.wait(timeout=SERVER_STOP_TIMEOUT_S)
        pytest.fail(
            f"server exited ({process.returncode}) before its ready line; stderr:\n"
            + tail(stderr_path.read_text(errors="replace"))
        )
    return line


def parse_ready_line(line: str) -> ReadyLine:
    """Parse and check the ready line's shape (docs/http.md#ready-line)."""
    payload = json.loads(line)
    assert payload["event"] == "mcp_pruner.ready", payload
    assert payload["url"] == f"http://{payload['host']}:{payload['port']}/mcp", payload
    return ReadyLine(
        url=payload["url"],
        host=payload["host"],
        port=int(payload["port"]),
        root=payload["root"],
        pid=int(payload["pid"]),
    )


def _drain(stream: IO[bytes], sink: list[str]) -> None:
    # The server must not write anything else on stdout, but if it does it must never block.
    for raw in iter(stream.readline, b""):
        sink.append(raw.decode("utf-8", errors="replace"))


@contextlib.contextmanager
def running_server(root: Path, log_dir: Path, token: str) -> Iterator[RunningServer]:
    """Spawn the real server on a free loopback port and stop it (group included) afterwards."""
    stderr_path = log_dir / "server.stderr.log"
    argv = [str(server_executable()), "--host", "127.0.0.1", "--port", "0", "--root", str(root)]
    argv += ["--log-format", "json"]
    with stderr_path.open("wb") as stderr_file:
        # stdin stays an open pipe: the server may treat EOF on stdin as "my parent is gone".
        process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr_file,
            env=server_env(token),
            start_new_session=True,
        )
    assert process.stdout is not None
    drain: threading.Thread | None = None
    try:
        first = _read_ready_line(process, stderr_path)
        server = RunningServer(process, parse_ready_line(first), token, root, stderr_path, [first])
        drain = threading.Thread(target=_drain, args=(process.stdout, server.stdout_lines), daemon=True)
        drain.start()
        yield server
    finally:
        _stop(process)
        if drain is not None:
            drain.join(timeout=CLIENT_KILL_WAIT_S)  # EOF now that the whole group is gone
        process.stdout.close()


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.stdin is not None:
        with contextlib.suppress(OSError):
            process.stdin.close()
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=SERVER_STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
    # Whatever the server left in its group (a `bash` tool child) goes with it.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=CLIENT_KILL_WAIT_S)


def client_env(
    home: Path, extra: Mapping[str, str] | None = None, *, dead_proxies: bool = True
) -> dict[str, str]:
    """A from-scratch environment for a third-party client: isolated HOME, no keys, dead proxies.

    `dead_proxies=False` is for a client that talks to nothing but the URL it is given and
    refuses to start when a proxy is configured (the Inspector CLI).
    """
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "TMPDIR": str(home),
        "DO_NOT_TRACK": "1",
        "NO_UPDATE_NOTIFIER": "1",
        "CI": "1",
    }
    if dead_proxies:
        for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
            env[name] = env[name.lower()] = DEAD_PROXY
        env["NO_PROXY"] = env["no_proxy"] = LOOPBACK_HOSTS
    env.update(extra or {})
    return env


@dataclass(frozen=True)
class ClientRun:
    """What a one-shot client invocation printed."""

    argv: list[str]
    returncode: int
    stdout: str
    stderr: str

    def describe(self) -> str:
        return (
            f"{self.argv[0]} exited {self.returncode}\n"
            f"stdout:\n{tail(self.stdout)}\nstderr:\n{tail(self.stderr)}"
        )


def run_client(argv: list[str], *, env: Mapping[str, str], cwd: Path) -> ClientRun:
    """Run a client to completion in its own process group, killing the group on timeout."""
    process = subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(env),
        cwd=cwd,
        start_new_session=True,
    )
    try:
        out, err = process.communicate(timeout=CLIENT_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        kill_group(process.pid)
        out, err = process.communicate(timeout=CLIENT_KILL_WAIT_S)
        pytest.fail(f"{argv[0]} did not finish within {CLIENT_TIMEOUT_S} s\nstderr:\n{tail(err.decode())}")
    finally:
        # A client's own helpers (the npm wrapper's native child, a daemon) must not outlive it.
        kill_group(process.pid)
    return ClientRun(argv, process.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"))


def kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def node_client(name: str) -> Path:
    """An npm client installed by `make test`; a clear failure (not a skip) when it is missing."""
    path = NODE_BIN_DIR / name
    if not path.exists():
        pytest.fail(f"{path} is missing: `make test` installs the pinned npm clients into .tools/")
    return path
