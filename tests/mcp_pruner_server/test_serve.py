"""The real `jeeves-mcp-pruner` process: ready line, stderr events, exit with the parent, SIGTERM grace."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Mapping
from pathlib import Path

import anyio
import httpx
import psutil
import pytest

from tests.json_paths import at
from tests.mcp_pruner_server.server_fixtures import READY_TIMEOUT_S, child_server, server_argv

TOKEN = "tok-" + "e2e" * 4
# The server polls its parent every 0.5 s; ten times that is a hang, not slowness.
EXIT_TIMEOUT_S = 10.0


def rpc_call(
    base_url: str, name: str, arguments: Mapping[str, object], token: str | None = None
) -> dict[str, object]:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }
    response = httpx.post(f"{base_url}/rpc", json=body, headers=headers, timeout=30)
    assert response.status_code == 200, response.text
    result: dict[str, object] = response.json()["result"]["structuredContent"]
    return result


def test_the_ready_line_is_the_only_stdout_and_stderr_is_json_events(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha\n")
    stderr_path = tmp_path.parent / f"{tmp_path.name}-stderr.log"
    with stderr_path.open("wb") as stderr, child_server(tmp_path, stderr=stderr) as server:
        ready = server.ready
        assert set(ready) == {"event", "host", "port", "url", "root", "pid"}
        assert ready["event"] == "mcp_pruner.ready"
        assert ready["url"] == f"http://127.0.0.1:{ready['port']}/mcp"
        assert ready["root"] == str(tmp_path.resolve())
        assert ready["pid"] == server.process.pid
        assert httpx.get(f"{server.base_url}/healthz", timeout=10).json()["ok"] is True
        assert rpc_call(server.base_url, "read", {"path": "a.txt"})["content"] == "alpha\n"
        assert server.process.stdin is not None
        server.process.stdin.close()  # EOF: the runner is gone
        assert server.process.wait(timeout=EXIT_TIMEOUT_S) == 0
        assert server.process.stdout is not None
        assert server.process.stdout.read() == b""  # nothing after the ready line
    events = [json.loads(line) for line in stderr_path.read_text().splitlines()]
    assert all({"ts", "level", "event"} <= set(e) for e in events)
    names = [e["event"] for e in events]
    assert "tool.exec_ok" in names
    assert names[-1] == "mcp_pruner.stopped"
    assert next(e["data"] for e in events if e["event"] == "mcp_pruner.exiting") == {"reason": "stdin_eof"}


def test_the_token_guards_the_real_socket_and_never_reaches_bash(tmp_path: Path) -> None:
    env = {"JEEVES_MCP_PRUNER_TOKEN": TOKEN, "OPENAI_API_KEY": "sk-leak-check"}
    with child_server(tmp_path, env=env) as server:
        refused = httpx.post(f"{server.base_url}/rpc", json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        result = rpc_call(server.base_url, "bash", {"cmd": "env; echo done"}, token=TOKEN)
    assert refused.status_code == 401
    stdout = result["stdout"]
    assert isinstance(stdout, str)
    assert stdout.endswith("done\n")
    assert TOKEN not in stdout
    assert "sk-leak-check" not in stdout


async def wait_until_not_listening(port: int) -> None:
    """Wait for uvicorn to close its listening socket: the first step of its SIGTERM shutdown."""
    while True:
        try:
            stream = await anyio.connect_tcp("127.0.0.1", port)
        except OSError:
            return
        await stream.aclose()
        await anyio.sleep(0.02)  # polling a real condition: the server has no event for it


def release_fifo(path: Path) -> None:
    """Let a command blocked in `read < path` go on (its open for reading is already waiting)."""
    fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)  # ENXIO if no reader: the command is gone
    try:
        os.write(fd, b"go\n")
    finally:
        os.close(fd)


@pytest.mark.anyio
async def test_sigterm_lets_an_in_flight_request_finish_then_exits_0(tmp_path: Path) -> None:
    started, release = tmp_path / "started.fifo", tmp_path / "release.fifo"
    os.mkfifo(started)
    os.mkfifo(release)
    with child_server(tmp_path) as server:
        # The command says it runs, then waits for the test: it finishes only once the server
        # is already shutting down, whatever the machine's speed.
        cmd = "echo running > started.fifo; read go < release.fifo; echo finished"
        answer: dict[str, object] = {}

        async def call() -> None:
            answer.update(await anyio.to_thread.run_sync(rpc_call, server.base_url, "bash", {"cmd": cmd}))

        async with anyio.create_task_group() as tg:
            tg.start_soon(call)
            with anyio.fail_after(READY_TIMEOUT_S):
                assert await anyio.to_thread.run_sync(started.read_text) == "running\n"
                server.process.send_signal(signal.SIGTERM)
                await wait_until_not_listening(server.ready["port"])
            release_fifo(release)
        code = await anyio.to_thread.run_sync(lambda: server.process.wait(timeout=EXIT_TIMEOUT_S))
    assert answer["stdout"] == "finished\n"
    assert code == 0


def test_the_server_exits_by_itself_when_its_parent_dies(tmp_path: Path) -> None:
    # A parent that starts the server (stdin /dev/null: only the parent watch can notice),
    # relays its ready line, then waits to be killed.
    parent_code = textwrap.dedent(
        f"""
        import subprocess, sys
        child = subprocess.Popen({server_argv(tmp_path)!r}, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        sys.stdout.write(child.stdout.readline().decode()); sys.stdout.flush()
        sys.stdin.read()
        """
    )
    parent = subprocess.Popen(
        [sys.executable, "-c", parent_code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=os.environ
    )
    try:
        assert parent.stdout is not None
        ready = json.loads(parent.stdout.readline())
        server = psutil.Process(ready["pid"])
        assert server.ppid() == parent.pid
        assert httpx.get(f"http://127.0.0.1:{ready['port']}/healthz", timeout=10).status_code == 200
        parent.kill()
        parent.wait(timeout=EXIT_TIMEOUT_S)
        server.wait(timeout=EXIT_TIMEOUT_S)  # raises psutil.TimeoutExpired if it outlives its parent
        assert not server.is_running()
    finally:
        if parent.poll() is None:
            parent.kill()
        for stream in (parent.stdin, parent.stdout):
            if stream is not None:
                stream.close()
        parent.wait(timeout=EXIT_TIMEOUT_S)


def test_allow_remote_without_a_token_names_the_variable_users_export(tmp_path: Path) -> None:
    argv = [*server_argv(tmp_path), "--allow-remote"]
    argv[argv.index("127.0.0.1")] = "0.0.0.0"
    env = {k: v for k, v in os.environ.items() if not k.startswith("JEEVES_")}
    done = subprocess.run(argv, capture_output=True, env=env, timeout=READY_TIMEOUT_S, check=False)

    assert done.returncode == 2
    assert b"set JEEVES_MCP_TOKEN" in done.stderr


def test_a_non_loopback_host_is_refused_without_allow_remote(tmp_path: Path) -> None:
    argv = [*server_argv(tmp_path)]
    argv[argv.index("127.0.0.1")] = "0.0.0.0"
    done = subprocess.run(argv, capture_output=True, timeout=READY_TIMEOUT_S, check=False)
    assert done.returncode == 2
    assert done.stdout == b""
    assert b"--host" in done.stderr


def test_engine_worker_processes_die_with_the_server_even_on_sigkill(tmp_path: Path) -> None:
    text = "\n".join(f"INFO step {n}" for n in range(300)) + "\nERROR boom"
    options = {
        "max_prune_ratio": 0.9,
        "min_keep_lines": 1,
        "timeout_ms": 5000,
        "annotate_lines": False,
        "include_markers": True,
    }
    with child_server(tmp_path) as server:
        pruned = rpc_call(
            server.base_url,
            "prune_text",
            {"text": text, "goal_hint": "error", "source_type": "logs", "options": options},
        )
        workers = psutil.Process(server.process.pid).children(recursive=True)
        server.process.kill()
        server.process.wait(timeout=EXIT_TIMEOUT_S)
    assert at(pruned, "stats", "pruned_lines", kind=int) > 0
    assert workers  # the prune ran in an engine worker process
    _gone, alive = psutil.wait_procs(workers, timeout=EXIT_TIMEOUT_S)
    assert alive == []


def test_jeeves_serve_runs_the_same_server_with_text_logs(tmp_path: Path) -> None:
    jeeves = Path(sys.executable).with_name("jeeves")
    stderr_path = tmp_path.parent / f"{tmp_path.name}-serve-stderr.log"
    argv = [str(jeeves), "serve", "--port", "0", "--root", str(tmp_path), "--log-format", "text"]
    with stderr_path.open("wb") as stderr:
        process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
        assert process.stdout is not None
        try:
            ready = json.loads(process.stdout.readline())
            health = httpx.get(f"http://127.0.0.1:{ready['port']}/health", timeout=10).json()
            assert process.stdin is not None
            process.stdin.close()
            assert process.wait(timeout=EXIT_TIMEOUT_S) == 0
        finally:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=EXIT_TIMEOUT_S)
            process.stdout.close()
    assert ready["event"] == "mcp_pruner.ready"
    assert health["status"] == "healthy"
    first = stderr_path.read_text().splitlines()[0]
    assert first.startswith("ts=")
    assert "event='mcp_pruner.ready'" in first


@pytest.mark.anyio
async def test_a_request_outliving_the_sigterm_grace_gets_a_json_rpc_error_and_its_processes_die(
    tmp_path: Path,
) -> None:
    started = tmp_path / "started.fifo"
    os.mkfifo(started)
    with child_server(tmp_path) as server:
        cmd = "echo running > started.fifo; sleep 60"
        body = {
            "jsonrpc": "2.0",
            "id": 9,
            "method": "tools/call",
            "params": {"name": "bash", "arguments": {"cmd": cmd}},
        }
        answers: list[httpx.Response] = []

        async def call() -> None:
            async with httpx.AsyncClient(timeout=30) as client:
                answers.append(await client.post(f"{server.base_url}/rpc", json=body))

        async with anyio.create_task_group() as tg:
            tg.start_soon(call)
            with anyio.fail_after(READY_TIMEOUT_S):
                assert await anyio.to_thread.run_sync(started.read_text) == "running\n"
            children = psutil.Process(server.process.pid).children(recursive=True)
            server.process.send_signal(signal.SIGTERM)
        code = await anyio.to_thread.run_sync(lambda: server.process.wait(timeout=EXIT_TIMEOUT_S))
    assert code == 0
    (answer,) = answers
    assert answer.status_code == 503
    assert answer.json()["error"]["code"] == -32603
    assert answer.json()["id"] == 9  # the id was known: the client can match the answer
    _gone, alive = psutil.wait_procs(children, timeout=EXIT_TIMEOUT_S)
    assert alive == []  # bash and its sleep were killed with the request


# What only the SDK, a gateway upstream or a tool call needs: none of it may be imported before
# the server listens (`http/startup_app.py` answers /healthz and the handshake without it).
NOT_BEFORE_LISTENING = (
    "mcp",
    "mcp_types",
    "pydantic",
    "httpx",
    "httpcore",
    "starlette.applications",
    "starlette.routing",
    "starlette.responses",
    "mcp_pruner_server.http.app",
    "mcp_pruner_server.server_parts",
    "mcp_pruner_server.pipeline.dispatcher",
    "mcp_pruner_server.pruner_service",
    "mcp_pruner_server.pruning",
    "mcp_pruner_server.gateway",
    "tools_exec",
)


def test_the_server_listens_and_lists_its_tools_on_mcp_before_the_sdk_or_the_full_app_is_imported(
    tmp_path: Path,
) -> None:
    stderr_path = tmp_path.parent / f"{tmp_path.name}-importtime.log"
    argv = [
        sys.executable,
        "-X",
        "importtime",
        "-m",
        "mcp_pruner_server",
        "--port",
        "0",
        "--root",
        str(tmp_path),
    ]
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    listing = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    # `arguments: null` is a tool call the core leaves to the SDK: the server then waits for it
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": "health", "arguments": None},
    }
    with (
        stderr_path.open("wb") as stderr,
        subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr) as process,
    ):
        try:
            assert process.stdout is not None
            assert process.stdin is not None
            url = json.loads(process.stdout.readline())["url"]
            tools = httpx.post(url, json=listing, headers=headers, timeout=READY_TIMEOUT_S).json()
            called = httpx.post(url, json=call, headers=headers, timeout=READY_TIMEOUT_S).json()
            process.stdin.close()  # EOF: the server exits
            assert process.wait(timeout=EXIT_TIMEOUT_S) == 0
        finally:
            if process.poll() is None:
                process.kill()
    log = stderr_path.read_text()
    before = log[: log.index('"mcp_pruner.ready"')]
    imported = {line.split("|")[-1].strip() for line in before.splitlines() if "import time:" in line}

    assert [tool["name"] for tool in tools["result"]["tools"]][:3] == ["read", "bash", "grep"]
    assert called["result"]["structuredContent"]["status"] == "healthy"  # answered by the SDK
    assert "mcp_pruner_server.http.mcp_handshake" in imported  # the import lines are there
    assert sorted(imported.intersection(NOT_BEFORE_LISTENING)) == []
    assert "mcp_pruner_server.pipeline.dispatcher" in log[len(before) :]  # loaded once listening
    assert "mcp.server.streamable_http_manager" in log[len(before) :]


def test_the_first_tool_call_over_mcp_is_answered_while_the_sdk_still_loads(tmp_path: Path) -> None:
    (tmp_path / "billing.py").write_text(
        "".join(f"def helper_{n}(x):\n    return x + {n}\n\n" for n in range(60))
        + "def compute_tax(amount):\n    return amount * 0.2\n",
        encoding="utf-8",
    )
    stderr_path = tmp_path.parent / f"{tmp_path.name}-events.log"
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    arguments = {"path": "billing.py", "context_focus_question": "Where is the tax computed?"}
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "read", "arguments": arguments},
    }
    with stderr_path.open("wb") as stderr, child_server(tmp_path, stderr=stderr) as server:
        answer = httpx.post(f"{server.base_url}/mcp", json=call, headers=headers, timeout=READY_TIMEOUT_S)
        assert server.process.stdin is not None
        server.process.stdin.close()  # EOF: the server exits
        assert server.process.wait(timeout=EXIT_TIMEOUT_S) == 0
    log = stderr_path.read_text()

    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/json"
    # pruned, or at a high load the raw file (fail-open: the engine's first start past its budget)
    assert "def compute_tax(amount):" in answer.json()["result"]["content"][0]["text"]
    answered_at = log.index('"tool.respond_ok"')
    sdk_ready_at = log.find('"mcp_pruner.sdk_ready"')
    # before: the call waited for the SDK, whose `sdk_ready` came first
    assert sdk_ready_at == -1 or sdk_ready_at > answered_at, log


# What a server has imported when it prints its ready line, then the SDK stack it loads after
# it (`http/mcp_transport.py`): the seconds the second part takes, on this machine, now.
SDK_IMPORT_SECONDS = textwrap.dedent(
    """
    import time
    import uvicorn
    import mcp_pruner_server.http.app, mcp_pruner_server.server_parts
    began = time.perf_counter()
    import mcp_types, mcp.server.lowlevel.server, mcp.server.streamable_http_manager
    import mcp.server.transport_security, mcp.server.context, mcp.shared.exceptions
    print(time.perf_counter() - began)
    """
)


def test_sigterm_while_the_sdk_loads_exits_without_waiting_for_the_import(tmp_path: Path) -> None:
    sdk_import_s = float(
        subprocess.run(
            [sys.executable, "-c", SDK_IMPORT_SECONDS], capture_output=True, text=True, check=True
        ).stdout
    )
    with child_server(tmp_path) as server:  # the SDK starts loading once the ready line is out
        began = time.perf_counter()
        server.process.send_signal(signal.SIGTERM)
        code = server.process.wait(timeout=EXIT_TIMEOUT_S)
        stop_s = time.perf_counter() - began

    assert code == 0
    # before: the shutdown waited for the import to end, then stopped (longer than the import)
    assert stop_s < sdk_import_s, (stop_s, sdk_import_s)
