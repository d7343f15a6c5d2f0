"""`jeeves serve` reads the settings `jeeves run` reads when a flag does not say otherwise."""

from __future__ import annotations

import json
import os
import selectors
import socket
import subprocess
import sys
from pathlib import Path

from tests.rpc_examples import initialize

JEEVES = (sys.executable, "-c", "from runner.cli import app; app()")
READY_TIMEOUT_S = 15.0  # healthy in ~1 s; a shared 2-core machine


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def ready_line(tmp_path: Path, *flags: str, env: dict[str, str]) -> dict[str, object]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("JEEVES_")}
    process = subprocess.Popen(
        [*JEEVES, "serve", *flags],
        cwd=tmp_path,
        env={**base, "HOME": str(tmp_path), **env},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdout is not None
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            assert selector.select(READY_TIMEOUT_S), "no ready line"
        line: dict[str, object] = json.loads(process.stdout.readline())
        return line
    finally:
        process.kill()
        process.wait(timeout=READY_TIMEOUT_S)
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()


def test_the_port_comes_from_the_runners_variable_and_the_root_from_the_working_directory(
    tmp_path: Path,
) -> None:
    port = free_port()

    ready = ready_line(tmp_path, env={"JEEVES_MCP_PRUNER_PORT": str(port)})

    assert ready["port"] == port
    assert ready["root"] == str(tmp_path.resolve())


def test_a_flag_wins_over_the_config_file(tmp_path: Path) -> None:
    from_file = free_port()
    (tmp_path / "jeeves.toml").write_text(f"[mcp_pruner]\nport = {from_file}\n", encoding="utf-8")

    ready = ready_line(tmp_path, "--port", "0", env={})
    without_flag = ready_line(tmp_path, env={})

    assert ready["port"] not in (0, from_file)
    assert without_flag["port"] == from_file


def test_a_bad_setting_is_a_usage_error_naming_where_it_came_from(tmp_path: Path) -> None:
    base = {k: v for k, v in os.environ.items() if not k.startswith("JEEVES_")}
    done = subprocess.run(
        [*JEEVES, "serve"],
        cwd=tmp_path,
        env={**base, "JEEVES_MCP_PRUNER_PORT": "abc"},
        capture_output=True,
        text=True,
        timeout=READY_TIMEOUT_S,
        check=False,
    )

    assert done.returncode == 2
    assert done.stderr.strip() == "jeeves serve: port='abc' (env:JEEVES_MCP_PRUNER_PORT): expected an integer"


def serve_stdio_once(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`jeeves serve --stdio` in `tmp_path` answering one `initialize`, then stdin's EOF."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("JEEVES_")}
    return subprocess.run(
        [*JEEVES, "serve", "--stdio"],
        cwd=tmp_path,
        env={**base, **env},
        input=json.dumps(initialize()) + "\n",
        capture_output=True,
        text=True,
        timeout=READY_TIMEOUT_S,
        check=False,
    )


def test_a_pruning_mistake_is_one_plain_line_and_the_server_still_starts(tmp_path: Path) -> None:
    done = serve_stdio_once(tmp_path, {"JEEVES_PRUNING_BACKEND": "foo"})

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["id"] == 1
    assert done.stderr.splitlines()[0] == (
        "jeeves serve: pruning disabled, tools answer unpruned: JEEVES_PRUNING_BACKEND=foo: "
        "expected one of heuristic | http | deepinfra | cloud"
    )


def test_a_remote_host_with_allow_remote_reaches_the_server_which_wants_a_token(tmp_path: Path) -> None:
    base = {k: v for k, v in os.environ.items() if not k.startswith("JEEVES_")}
    done = subprocess.run(
        [*JEEVES, "serve", "--host", "0.0.0.0", "--allow-remote"],
        cwd=tmp_path,
        env=base,
        capture_output=True,
        text=True,
        timeout=READY_TIMEOUT_S,
        check=False,
    )

    # Not the runner's "loopback only" usage error: the server's own refusal (no token).
    assert done.returncode == 2
    assert "jeeves serve: host=" not in done.stderr
    assert json.loads(done.stderr.splitlines()[-1])["event"] == "mcp_pruner.start_failed"


def test_stdio_starts_whatever_port_the_config_file_says(tmp_path: Path) -> None:
    (tmp_path / "jeeves.toml").write_text('[mcp_pruner]\nport = "eighty"\nprot = 1\n', encoding="utf-8")
    done = serve_stdio_once(tmp_path, {"HOME": str(tmp_path)})

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["id"] == 1
    assert "unknown key prot in [mcp_pruner] (did you mean port?)" in done.stderr.splitlines()[0]
