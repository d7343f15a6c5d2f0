"""The guard in front of every route: token, Host/Origin, body size — all answered in JSON-RPC form."""

import contextlib
import json
import os
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import httpx
import pytest
from starlette.types import Message, Receive, Scope, Send

from mcp_pruner_server.http.app import build_app
from mcp_pruner_server.http.asgi import send_json_body
from mcp_pruner_server.http.request_guard import (
    SecurityMiddleware,
    is_loopback_host_header,
    is_loopback_origin,
)
from mcp_pruner_server.server_parts import build_parts
from mcp_pruner_server.settings import MAX_REQUEST_BODY_BYTES, ServerSettings
from tests.mcp_pruner_server.server_fixtures import (
    JSON_HEADERS,
    READY_TIMEOUT_S,
    child_server,
    in_process,
    server_argv,
)

pytestmark = pytest.mark.anyio
TOKEN = "s3cret-token"
LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
# Every route behind the token: (method, path, shape of its refusals).
AUTHENTICATED_ROUTES = [
    ("POST", "/rpc", "rpc"),
    ("POST", "/mcp", "rpc"),
    ("POST", "/prune", "rpc"),
    ("POST", "/api/mcp-gateway/files/rpc", "rpc"),
    ("GET", "/stats", "rpc"),
    ("GET", "/tools", "rest"),
    ("POST", "/execute", "rest"),
]


@contextlib.asynccontextmanager
async def bound_to(
    root: Path, host: str, url_host: str, *, token: str | None = None, allow_remote: bool = False
) -> AsyncIterator[httpx.AsyncClient]:
    """The app as `--host host` configures it, reached as `http://url_host:8000` (its Host header)."""
    settings = ServerSettings(root=root, host=host, token=token, allow_remote=allow_remote)
    app = build_app(build_parts(settings, env={}, engine_processes=False))
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url=f"http://{url_host}:8000") as client,
    ):
        yield client


@pytest.mark.parametrize(("method", "path", "shape"), AUTHENTICATED_ROUTES)
@pytest.mark.parametrize("authorization", [None, "Bearer nope", f"Basic {TOKEN}"])
async def test_without_the_right_token_every_authenticated_route_is_401(
    tmp_path: Path, method: str, path: str, shape: str, authorization: str | None
) -> None:
    headers = {**JSON_HEADERS, **({"authorization": authorization} if authorization else {})}
    async with in_process(tmp_path, token=TOKEN) as client:
        body = LIST if method == "POST" else None
        response = await client.request(method, path, json=body, headers=headers)
    assert response.status_code == 401
    assert response.headers["www-authenticate"].startswith("Bearer")
    answer = response.json()
    if shape == "rpc":
        assert answer["jsonrpc"] == "2.0"
        assert "Authorization: Bearer" in answer["error"]["message"]
        assert "JEEVES_MCP_TOKEN" in answer["error"]["message"]  # the variable users export
    else:
        assert answer["ok"] is False
        assert answer["error"]["code"] == "unauthorized"


async def test_the_health_routes_need_no_token(tmp_path: Path) -> None:
    async with in_process(tmp_path, token=TOKEN) as client:
        healthz = await client.get("/healthz")
        health = await client.get("/health")
    assert healthz.status_code == 200
    assert health.status_code == 200


async def test_the_right_bearer_token_passes_on_rpc_and_mcp(tmp_path: Path) -> None:
    auth = {"authorization": f"Bearer {TOKEN}"}
    async with in_process(tmp_path, token=TOKEN) as client:
        rpc = await client.post("/rpc", json=LIST, headers=auth)
        mcp = await client.post("/mcp", json=LIST, headers={**JSON_HEADERS, **auth})
    assert rpc.status_code == 200
    assert mcp.status_code == 200
    assert len(mcp.json()["result"]["tools"]) == 7


async def test_a_foreign_origin_is_403_and_a_foreign_host_is_421(tmp_path: Path) -> None:
    async with in_process(tmp_path) as client:
        origin = await client.post("/rpc", json=LIST, headers={"origin": "http://evil.example"})
        null_origin = await client.post("/mcp", json=LIST, headers={**JSON_HEADERS, "origin": "null"})
        host = await client.post("/rpc", json=LIST, headers={"host": "evil.example:8000"})
    async with in_process(tmp_path, token=TOKEN) as client:
        auth = {"authorization": f"Bearer {TOKEN}", "origin": "http://localhost:5173"}
        local_origin = await client.post("/rpc", json=LIST, headers=auth)
    assert origin.status_code == 403
    assert null_origin.status_code == 403
    assert host.status_code == 421
    assert origin.json()["error"]["message"].startswith("Forbidden")
    assert local_origin.status_code == 200  # with a token: a page cannot know it


async def test_without_a_token_no_browser_request_is_served_even_from_a_loopback_origin(
    tmp_path: Path,
) -> None:
    # A simple request (no preflight) from another local web app: it ran bash before (issue 16).
    marker = tmp_path / "marker"
    bash = {"name": "bash", "arguments": {"cmd": f"touch {marker}"}}
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": bash}
    async with in_process(tmp_path) as client:
        simple = await client.post(
            "/rpc",
            json=body,
            headers={"content-type": "text/plain", "origin": "http://localhost:8080"},
        )
        json_typed = await client.post("/rpc", json=body, headers={"origin": "http://localhost:8080"})
    assert (simple.status_code, json_typed.status_code) == (403, 403)
    assert simple.json()["error"]["code"] == -32002
    assert not marker.exists()


async def test_a_post_that_is_not_application_json_is_415_on_every_body_route(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    bash = {"name": "bash", "arguments": {"cmd": f"touch {marker}"}}
    body = b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": %s}' % json.dumps(bash).encode()
    async with in_process(tmp_path) as client:
        answers = {
            path: await client.post(path, content=body, headers={"content-type": "text/plain"})
            for path in ("/rpc", "/mcp", "/prune", "/execute", "/api/mcp-gateway/x/rpc")
        }
        charset = await client.post(
            "/rpc", content=body, headers={"content-type": "Application/JSON; charset=utf-8"}
        )
    assert {path: a.status_code for path, a in answers.items()} == dict.fromkeys(answers, 415)
    assert answers["/rpc"].json()["error"]["code"] == -32006
    assert answers["/execute"].json()["error"]["code"] == "unsupported_media_type"
    assert charset.status_code == 200
    assert marker.exists()  # only the JSON-typed call ran


async def test_a_body_over_the_limit_is_413_declared_or_streamed(tmp_path: Path) -> None:
    big = b"x" * (MAX_REQUEST_BODY_BYTES + 1)

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: chunked upload
        for i in range(0, len(big), 1 << 20):
            yield big[i : i + (1 << 20)]

    async with in_process(tmp_path) as client:
        declared = await client.post("/rpc", content=big, headers={"content-type": "application/json"})
        streamed = await client.post("/mcp", content=chunks(), headers=JSON_HEADERS)
        after = await client.post("/rpc", json=LIST)
    assert declared.status_code == 413
    assert streamed.status_code == 413
    assert "limit" in declared.json()["error"]["message"]
    assert after.status_code == 200  # and the server keeps serving


def test_loopback_host_and_origin_recognition() -> None:
    assert is_loopback_host_header("127.0.0.1:1234")
    assert is_loopback_host_header("127.0.0.2:1234")
    assert is_loopback_host_header("127.255.0.9")
    assert is_loopback_host_header("localhost")
    assert is_loopback_host_header("[::1]:80")
    assert is_loopback_host_header("[0:0:0:0:0:0:0:1]")
    assert not is_loopback_host_header("::1")  # unbracketed: not a Host header
    assert not is_loopback_host_header("128.0.0.1")
    assert not is_loopback_host_header("[::2]:80")
    assert not is_loopback_host_header("127.0.0.1.evil.example")
    assert not is_loopback_host_header("evil.example:80")
    assert is_loopback_origin("http://127.0.0.1:3000")
    assert is_loopback_origin("https://localhost")
    assert not is_loopback_origin("http://localhost.evil.example")
    assert not is_loopback_origin("file://")
    assert is_loopback_origin("http://127.0.0.2:3000")
    assert is_loopback_origin("http://[::1]:3000")


@pytest.mark.parametrize(("host", "url_host"), [("127.0.0.2", "127.0.0.2"), ("::1", "[::1]")])
async def test_any_loopback_host_is_served_under_its_own_host_header(
    tmp_path: Path, host: str, url_host: str
) -> None:
    async with bound_to(tmp_path, host, url_host, token=TOKEN) as client:
        auth = {"authorization": f"Bearer {TOKEN}"}
        answer = await client.post("/rpc", json=LIST, headers=auth)
        local_origin = await client.post(
            "/rpc", json=LIST, headers={**auth, "origin": f"http://{url_host}:5173"}
        )
        foreign = await client.post("/rpc", json=LIST, headers={**auth, "host": "evil.example:8000"})
    assert answer.status_code == 200
    assert len(answer.json()["result"]["tools"]) == 7
    assert local_origin.status_code == 200
    assert foreign.status_code == 421


def test_a_real_server_on_127_0_0_2_and_on_ipv6_loopback_answers(tmp_path: Path) -> None:
    for host in ("127.0.0.2", "::1"):
        argv_host = ["--host", host]
        with child_server(tmp_path, *argv_host) as server:
            base = server.ready["url"].removesuffix("/mcp")
            response = httpx.post(f"{base}/rpc", json=LIST, timeout=READY_TIMEOUT_S)
        assert response.status_code == 200, response.text
        assert len(response.json()["result"]["tools"]) == 7


async def test_with_allow_remote_a_foreign_origin_is_still_403(tmp_path: Path) -> None:
    bash = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "bash"}}
    auth = {"authorization": f"Bearer {TOKEN}"}
    async with bound_to(tmp_path, "0.0.0.0", "203.0.113.7", token=TOKEN, allow_remote=True) as client:
        # What a page on evil.example can send without a CORS preflight: text/plain, no token.
        csrf = await client.post(
            "/rpc", json=bash, headers={"origin": "http://evil.example", "content-type": "text/plain"}
        )
        with_token = await client.post("/rpc", json=LIST, headers={"origin": "http://evil.example", **auth})
        no_origin = await client.post("/rpc", json=LIST, headers=auth)
    assert csrf.status_code == 403
    assert with_token.status_code == 403
    assert no_origin.status_code == 200  # a remote non-browser client with the token


async def test_allow_remote_without_a_token_refuses_to_start(tmp_path: Path) -> None:
    argv = server_argv(tmp_path, "--allow-remote")
    argv[argv.index("127.0.0.1")] = "0.0.0.0"
    env = {k: v for k, v in os.environ.items() if k != "JEEVES_MCP_PRUNER_TOKEN"}
    with anyio.fail_after(READY_TIMEOUT_S):
        done = await anyio.run_process(argv, env=env, check=False, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert done.stdout == b""
    assert b"JEEVES_MCP_PRUNER_TOKEN" in done.stderr
    assert b"mcp_pruner.start_failed" in done.stderr


async def test_bodies_buffered_at_once_are_bounded_and_the_bytes_are_given_back() -> None:
    release = anyio.Event()
    entered = anyio.Event()

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        await receive()
        entered.set()
        await release.wait()  # the first request holds its 100 bytes until released
        await send_json_body(send, 200, b"{}")

    guard = SecurityMiddleware(app, token=None, max_body_bytes=100, check_host=False, max_bytes_in_flight=150)

    async def request(statuses: list[int]) -> None:
        sent: list[Message] = []
        body: Message = {"type": "http.request", "body": b"x" * 100, "more_body": False}

        async def receive() -> Message:
            return body

        async def send(message: Message) -> None:
            sent.append(message)

        scope = {
            "type": "http",
            "method": "POST",
            "path": "/rpc",
            "headers": [(b"content-type", b"application/json")],
        }
        await guard(scope, receive, send)
        statuses.append(sent[0]["status"])

    first: list[int] = []
    second: list[int] = []
    third: list[int] = []
    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            tg.start_soon(request, first)
            await entered.wait()
            await request(second)  # 100 + 100 > 150 while the first is in flight
            release.set()
        await request(third)  # the first one's bytes were given back
    assert (first, second, third) == ([200], [503], [200])
