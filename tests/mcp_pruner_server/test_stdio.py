"""`--stdio`: the real server process over its stdin/stdout, driven by the official SDK client."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import psutil
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError
from mcp.types import TextContent

from mcp_pruner_server.pruning.model_view import MODEL_MARKER
from mcp_pruner_server.stdio_session import LOADING_EVENT
from tests.mcp_pruner_server.server_fixtures import PATIENT_ENGINE_MS
from tests.mcp_pruner_server.stdio_process import StdioServer, stdio_server, wait_for_file
from tests.rpc_examples import initialize

pytestmark = pytest.mark.anyio

CLIENT_TIMEOUT_S = 30.0  # a whole session takes ~1 s; two cores shared by several suites
EXIT_TIMEOUT_S = 10.0  # stdin EOF to process exit (the engine workers are not even started)
POLL_S = 0.05  # how often the test looks for the file the bash call writes
INVALID_PARAMS = -32602
QUESTION = "Where is the tax computed?"
OVERSIZED_LINE_MIB = 48  # three times the bound: a server holding it would grow by that much
# One function the question is about among many that it is not.
CODE = "\n".join(
    [f"def helper_{n}(x):\n    return x + {n}\n" for n in range(40)]
    + ["def compute_tax(amount):\n    return amount * 0.2\n"]
    + [f"def other_{n}(x):\n    return x - {n}\n" for n in range(40)]
)


def server_argv(*extra: str) -> list[str]:
    return [sys.executable, "-m", "mcp_pruner_server", "--stdio", *extra]


def sdk_server(root: Path, *extra: str) -> StdioServerParameters:
    """The server as the SDK's `stdio_client` spawns it (in `root`), with a patient engine (these
    tests assert a pruned result) and this test's private ledger: the SDK passes a server only
    HOME, PATH and the like, plus what is given here."""
    argv = server_argv(*extra)
    env = {"JEEVES_PRUNER_TIMEOUT_MS": PATIENT_ENGINE_MS, "XDG_STATE_HOME": os.environ["XDG_STATE_HOME"]}
    return StdioServerParameters(command=argv[0], args=argv[1:], cwd=root, env=env)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "billing.py").write_text(CODE, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_the_sdk_client_reads_pruned_over_stdio_and_recovers_the_rest(root: Path, mode: str) -> None:
    with (root / "stderr.log").open("w") as errlog, anyio.fail_after(CLIENT_TIMEOUT_S):
        async with Client(stdio_client(sdk_server(root), errlog=errlog), mode=mode) as client:
            names = [tool.name for tool in (await client.list_tools()).tools]
            read = await client.call_tool("read", {"path": "billing.py", "context_focus_question": QUESTION})
            structured: dict[str, Any] = read.structured_content or {}
            recover = {
                "prune_id": structured["pruning"]["prune_id"],
                "ranges": [{"start_line": 1, "end_line": 1_000_000}],
                "include_line_numbers": False,
            }
            recovered = await client.call_tool("recover_text", recover)

    assert names[:3] == ["read", "bash", "grep"]
    assert structured["pruning"]["applied"] is True, structured["pruning"]
    assert "def compute_tax(amount):" in structured["content"]
    assert (recovered.structured_content or {})["raw_text"] == CODE


async def test_unknown_resources_and_prompts_are_invalid_params_not_unknown_methods(root: Path) -> None:
    argv = server_argv("--root", str(root))
    params = StdioServerParameters(command=argv[0], args=argv[1:])
    codes: list[int] = []
    with (root / "stderr.log").open("w") as errlog, anyio.fail_after(CLIENT_TIMEOUT_S):
        async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
            with pytest.raises(MCPError) as resource:
                await client.read_resource("file:///nowhere")
            codes.append(resource.value.code)
            with pytest.raises(MCPError) as prompt:
                await client.get_prompt("nothing")
            codes.append(prompt.value.code)

    assert codes == [INVALID_PARAMS, INVALID_PARAMS]


def test_stdin_eof_cancels_the_running_call_kills_its_process_and_exits_0(root: Path) -> None:
    # The command says where it is, then outlives any reasonable test unless it is killed.
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": "bash", "arguments": {"cmd": "echo $$ > sleeper.pid; exec sleep 120"}},
    }
    frames = [initialize(), {"jsonrpc": "2.0", "method": "notifications/initialized"}, call]
    pid_file = root / "sleeper.pid"
    with (root / "stderr.log").open("wb") as stderr:
        process = subprocess.Popen(
            server_argv(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, cwd=root
        )
        assert process.stdin is not None
        assert process.stdout is not None
        process.stdin.write("".join(json.dumps(frame) + "\n" for frame in frames).encode())
        process.stdin.flush()
        first = json.loads(process.stdout.readline())  # the initialize answer: the server is serving
        deadline = time.monotonic() + EXIT_TIMEOUT_S
        while not pid_file.is_file() or not pid_file.read_text().strip():
            assert time.monotonic() < deadline, "the bash call never started"
            assert process.poll() is None
            time.sleep(POLL_S)  # a file appearing has no event to wait on
        sleeper = int(pid_file.read_text())

        process.stdin.close()
        with process.stdout:
            rest = process.stdout.read()
        code = process.wait(timeout=EXIT_TIMEOUT_S)

    assert code == 0, (root / "stderr.log").read_text()[-2000:]
    assert first["id"] == 1
    # Only protocol frames on stdout: the cancelled call's error answer, if the SDK sent it.
    assert all(json.loads(line)["jsonrpc"] == "2.0" for line in rest.decode().splitlines())
    assert not psutil.pid_exists(sleeper) or psutil.Process(sleeper).status() == psutil.STATUS_ZOMBIE
    events = [json.loads(line)["event"] for line in (root / "stderr.log").read_text().splitlines()]
    assert events[0] == "mcp_pruner.stdio_ready"
    assert "mcp_pruner.exiting" in events


def test_jeeves_serve_stdio_is_the_same_server(root: Path) -> None:
    jeeves = [
        sys.executable,
        "-c",
        "from runner.cli import app; app()",
        "serve",
        "--stdio",
        "--root",
        str(root),
    ]

    done = subprocess.run(
        jeeves, input=(json.dumps(initialize(7)) + "\n").encode(), capture_output=True, timeout=EXIT_TIMEOUT_S
    )

    assert done.returncode == 0, done.stderr.decode()[-2000:]
    answer = json.loads(done.stdout)
    assert answer["result"]["serverInfo"]["name"] == "jeeves-mcp-pruner"
    assert json.loads(done.stderr.decode().splitlines()[0])["data"]["root"] == str(root)


async def test_result_view_text_answers_with_the_models_plain_text_only(root: Path) -> None:
    params = sdk_server(root, "--result-view", "text")
    with (root / "stderr.log").open("w") as errlog, anyio.fail_after(CLIENT_TIMEOUT_S):
        async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
            listing = await client.list_tools()
            read = await client.call_tool("read", {"path": "billing.py", "context_focus_question": QUESTION})

    assert all(tool.output_schema is None for tool in listing.tools)
    assert read.structured_content is None
    (content,) = read.content
    assert isinstance(content, TextContent)
    text = content.text
    assert re.search(r"^\d+ def compute_tax\(amount\):$", text, re.MULTILINE)
    assert any(MODEL_MARKER.match(line) for line in text.split("\n"))


def _sleeper_call(request_id: int, cmd: str) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": "bash", "arguments": {"cmd": cmd, "timeout_ms": 120_000}},
    }


# The shell writes its own pid and its two children's once they run, then waits for them.
FAMILY = "sleep 120 & echo $! >> kids; sleep 120 & echo $! >> kids; echo $$ > shell.pid; wait"


def _family(root: Path, server: StdioServer) -> list[psutil.Process]:
    shell = int(wait_for_file(root / "shell.pid", CLIENT_TIMEOUT_S, server))
    kids = [int(pid) for pid in (root / "kids").read_text().split()]
    return [psutil.Process(pid) for pid in [shell, *kids]]


def _all_gone(processes: list[psutil.Process]) -> list[psutil.Process]:
    """The processes still alive after `EXIT_TIMEOUT_S` (zombies count as gone)."""
    _, alive = psutil.wait_procs(processes, timeout=EXIT_TIMEOUT_S)
    return [p for p in alive if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_ends_the_server_and_its_command_while_stdin_stays_open(
    root: Path, signum: signal.Signals
) -> None:
    with stdio_server(root) as server:
        server.handshake()
        server.send(_sleeper_call(2, FAMILY))
        family = _family(root, server)

        server.process.send_signal(signum)  # stdin stays open: the client did not go away
        code = server.process.wait(timeout=EXIT_TIMEOUT_S)

        assert code == 0, server.stderr()[-2000:]
        assert not _all_gone(family)
        reasons = [e["data"]["reason"] for e in server.events() if e["event"] == "mcp_pruner.exiting"]
        assert reasons[:1] == [signum.name.lower()]


def test_a_sigkilled_server_leaves_no_process_of_its_running_bash_call(root: Path) -> None:
    with stdio_server(root) as server:
        server.handshake()
        server.send(_sleeper_call(2, FAMILY))
        family = _family(root, server)

        server.process.kill()  # SIGKILL: the server cleans up nothing itself
        server.process.wait(timeout=EXIT_TIMEOUT_S)

        assert not _all_gone(family)


def test_bad_frames_are_answered_and_logged_and_the_server_keeps_serving(root: Path) -> None:
    frames = [
        b"{not json\n",
        b'[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]\n',  # a batch
        b'{"jsonrpc": "2.0", "id": true, "method": "ping"}\n',
        b'{"jsonrpc": "2.0", "id": 1.5, "method": "ping"}\n',
        b'{"jsonrpc": "2.0", "id": NaN, "method": "ping"}\n',
        b'"just a string"\n',
    ]
    with stdio_server(root) as server:
        server.handshake()
        for frame in frames:
            server.send(frame)
        server.send({"jsonrpc": "2.0", "id": "after", "method": "ping"})
        answers = []
        while (answer := server.answer())["id"] != "after":
            answers.append(answer)
        refused = [e for e in server.events() if e["event"] == "mcp_pruner.stdio_refused"]

    assert [a["error"]["code"] for a in answers] == [-32700, -32600, -32600, -32600, -32700, -32600]
    assert all(a["id"] is None for a in answers)
    assert answer["result"] == {}
    assert len(refused) == len(frames)


def test_an_oversized_line_is_refused_unread_and_pings_are_answered_after_it(root: Path) -> None:
    chunk = b"x" * (1 << 20)
    with stdio_server(root) as server:
        server.handshake()
        rss_before = psutil.Process(server.process.pid).memory_info().rss
        server.send(b'{"jsonrpc": "2.0", "id": 5, "method": "ping", "pad": "')
        for _ in range(OVERSIZED_LINE_MIB):
            server.send(chunk)
        server.send(b'"}\n')
        refusal = server.answer()
        server.send({"jsonrpc": "2.0", "id": 6, "method": "ping"})
        pong = server.answer()
        grown = psutil.Process(server.process.pid).memory_info().rss - rss_before

    assert refusal["id"] is None
    assert refusal["error"]["code"] == -32003
    assert "at most 16777216 bytes" in refusal["error"]["message"]
    assert pong == {"jsonrpc": "2.0", "id": 6, "result": {}}
    assert grown < OVERSIZED_LINE_MIB * (1 << 20) // 2, grown  # never held, let alone parsed


# What only a tool call needs, or HTTP: none of it may be imported to answer the handshake.
NOT_FOR_THE_HANDSHAKE = (
    "mcp",
    "mcp_types",
    "pydantic",
    "starlette",
    "uvicorn",
    "httpx",
    "click",
    "typer",
    "rich",
    "structlog",
    "tree_sitter",
    "mcp_pruner_server.pruning.engine",
    "mcp_pruner_server.pipeline.dispatcher",
    "mcp_pruner_server.pruner_service",
)


def test_the_handshake_is_answered_before_the_sdk_http_or_the_engine_is_imported(root: Path) -> None:
    with stdio_server(root, python_flags=("-X", "importtime")) as server:
        server.handshake()
        server.send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        names = [tool["name"] for tool in server.answer_to(2)["result"]["tools"]]
        server.send(_sleeper_call(3, "echo loaded"))  # answered once the tools have loaded
        loaded = server.answer_to(3)
        stderr = server.stderr()

    before_loading = stderr[: stderr.index(LOADING_EVENT)]
    imported = {line.split("|")[-1].strip() for line in before_loading.splitlines() if "import time:" in line}
    assert names[:3] == ["read", "bash", "grep"]
    assert "loaded" in loaded["result"]["content"][0]["text"]
    assert "mcp_pruner_server.stdio_session" in imported  # the import lines are there
    assert sorted(imported.intersection(NOT_FOR_THE_HANDSHAKE)) == []
    assert "mcp_pruner_server.pipeline.dispatcher" in stderr  # loaded after the handshake


def test_a_bash_child_cannot_read_the_stdio_servers_secrets_from_its_parents_environ(root: Path) -> None:
    secrets = {"OPENAI_API_KEY": "sk-stdio-leak", "DATABASE_URL": "postgres://app:pg-stdio-leak@db/app"}
    with stdio_server(root, env={**os.environ, **secrets}) as server:
        server.handshake()
        server.send(_sleeper_call(2, "tr '\\0' '\\n' < /proc/$PPID/environ"))
        answer = server.answer_to(2)

    printed = json.dumps(answer)
    assert "PATH=" in printed  # the parent's environment was read: the secrets are what is missing
    assert "sk-stdio-leak" not in printed
    assert "pg-stdio-leak" not in printed
