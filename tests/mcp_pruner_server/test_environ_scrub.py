"""The server's secrets stay out of reach of its `bash` children, /proc/$PPID/environ included."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import httpx
import pytest

from mcp_pruner_server.environ_scrub import forget_secrets
from tests.mcp_pruner_server.server_fixtures import READY_TIMEOUT_S, read_ready_line, server_argv

TOKEN = "tok-scrub-0123456789abcdef"
SECRETS = {
    "JEEVES_MCP_PRUNER_TOKEN": TOKEN,
    "OPENAI_API_KEY": "sk-openai-leak",
    "DATABASE_URL": "postgres://app:pg-leak@db.internal/app",
}
LEAKS = (TOKEN, "sk-openai-leak", "pg-leak")
READ_PARENT = "tr '\\0' '\\n' < /proc/$PPID/environ; echo; tr '\\0' ' ' < /proc/$PPID/cmdline"
AS_NOBODY = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]


def bash_as_a_child_of_the_server(user: str) -> dict[str, Any]:
    """Start the real server as `user` with secrets in its environment; run READ_PARENT through
    its `bash` tool; the tool's result."""
    root = Path(tempfile.mkdtemp(prefix="jeeves-scrub-"))
    root.chmod(0o755)  # `nobody` must enter it
    argv = [*(AS_NOBODY if user == "nobody" else []), *server_argv(root)]
    env = {**os.environ, **SECRETS, "HOME": str(root)}
    process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    try:
        assert process.stdout is not None
        ready = read_ready_line(process.stdout)
        body = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "bash", "arguments": {"cmd": READ_PARENT}},
        }
        response = httpx.post(
            f"http://127.0.0.1:{ready['port']}/rpc",
            json=body,
            headers={"authorization": f"Bearer {TOKEN}"},  # the server still knows its token
            timeout=30,
        )
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()["result"]["structuredContent"]
        return result
    finally:
        process.kill()
        process.wait(timeout=READY_TIMEOUT_S)
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()


@pytest.mark.skipif(os.geteuid() != 0, reason="starting the server as root and as nobody needs root")
@pytest.mark.parametrize("user", ["root", "nobody"])
def test_a_bash_child_cannot_read_the_servers_secrets_from_its_parents_environ(user: str) -> None:
    result = bash_as_a_child_of_the_server(user)
    printed = result["stdout"] + result["stderr"]
    assert "mcp_pruner" in printed or "jeeves-mcp-pruner" in printed  # $PPID is the server
    for leak in LEAKS:
        assert leak not in printed, user
    if user == "nobody":  # not even readable: the server is not dumpable
        assert "Permission denied" in result["stderr"]
    else:  # readable by root, but the entries are blanked; the others are still there
        assert "HOME=" in result["stdout"]


def test_forgetting_secrets_removes_them_from_a_mapping_under_the_childrens_rule() -> None:
    env = {
        **SECRETS,
        "PATH": "/bin",
        "SSH_AUTH_SOCK": "/tmp/agent",
        "JEEVES_MCP_PRUNER_ENV_ALLOW": "SSH_AUTH_SOCK",
    }
    forgotten = forget_secrets(env)
    assert forgotten == sorted(SECRETS)
    assert env == {
        "PATH": "/bin",
        "SSH_AUTH_SOCK": "/tmp/agent",
        "JEEVES_MCP_PRUNER_ENV_ALLOW": "SSH_AUTH_SOCK",
    }
