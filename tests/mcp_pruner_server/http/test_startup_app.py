"""The app uvicorn serves from the moment the socket listens: `/healthz` and `/mcp`'s handshake
at once, behind the same guard; every other request once the full app is built."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from starlette.applications import Starlette

from mcp_pruner_server.http.app import build_app
from mcp_pruner_server.http.startup_app import StartupApp
from mcp_pruner_server.server_parts import build_parts
from mcp_pruner_server.settings import ServerSettings
from tests.mcp_pruner_server.server_fixtures import BASE_URL, JSON_HEADERS

pytestmark = pytest.mark.anyio
TOKEN = "tok-startup-app"
# The build waits for the test's word; this long means the test forgot to give it.
RELEASE_TIMEOUT_S = 30.0


class HeldBuilder:
    """Builds the real full app (engine in threads) once `release` is set: the test decides
    when the build is over."""

    def __init__(self, root: Path, *, token: str | None = None, fails: bool = False) -> None:
        self.settings = ServerSettings(root=root, token=token)
        self.release = threading.Event()
        self.calls = 0
        self._fails = fails

    def __call__(self, started_at: datetime, started_monotonic: float) -> Starlette:
        self.calls += 1
        self.release.wait(RELEASE_TIMEOUT_S)
        if self._fails:
            raise RuntimeError("the full app could not be built")
        parts = build_parts(
            self.settings,
            env={},
            engine_processes=False,
            started_at=started_at,
            started_monotonic=started_monotonic,
        )
        return build_app(parts)


@contextlib.asynccontextmanager
async def serving(builder: HeldBuilder) -> AsyncIterator[tuple[StartupApp, httpx.AsyncClient]]:
    """The startup app as `serve.py` runs it once the ready line is out (`start_loading()`)."""
    app = StartupApp(builder.settings, builder)
    app.start_loading()
    try:
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app), base_url=BASE_URL, timeout=30, headers=JSON_HEADERS
        ) as client:
            yield app, client
    finally:
        builder.release.set()
        await app.aclose()


def message(method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}


async def test_healthz_and_the_handshake_are_answered_before_the_full_app_is_built(tmp_path: Path) -> None:
    builder = HeldBuilder(tmp_path)
    async with serving(builder) as (app, client):
        healthz = await client.get("/healthz")
        initialize = await client.post(
            "/mcp",
            json=message(
                "initialize",
                {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "c", "version": "1"},
                },
            ),
        )
        listed = await client.post("/mcp", json=message("tools/list"))
        assert app.full_app is None  # all three answered while the build was still held

        answers: list[httpx.Response] = []

        async def ask_rpc() -> None:
            answers.append(await client.post("/rpc", json=message("tools/list")))

        async with anyio.create_task_group() as tg:
            tg.start_soon(ask_rpc)  # sent while the build is held: it can only wait for it
            builder.release.set()
        again = await client.get("/healthz")

    assert healthz.status_code == 200
    assert healthz.json()["status"] == "ok"
    assert initialize.json()["result"]["serverInfo"]["name"] == "jeeves-mcp-pruner"
    assert [tool["name"] for tool in listed.json()["result"]["tools"]][:3] == ["read", "bash", "grep"]
    assert answers[0].json()["result"]["tools"] == listed.json()["result"]["tools"]  # from the full app
    # the same clock before and after the build: uptime only grows
    assert again.json()["time"]["started_at"] == healthz.json()["time"]["started_at"]
    assert again.json()["time"]["uptime_ms"] >= healthz.json()["time"]["uptime_ms"]
    assert builder.calls == 1


async def test_the_early_answers_pass_the_same_guard_as_the_full_app(tmp_path: Path) -> None:
    builder = HeldBuilder(tmp_path, token=TOKEN)
    async with serving(builder) as (app, client):
        no_token = await client.post("/mcp", json=message("tools/list"))
        with_token = await client.post(
            "/mcp", json=message("tools/list"), headers={"authorization": f"Bearer {TOKEN}"}
        )
        foreign_host = await client.get("/healthz", headers={"host": "evil.example"})
        browser = await client.post(
            "/mcp", json=message("tools/list"), headers={"origin": "http://evil.example"}
        )
        healthz = await client.get("/healthz")
        assert app.full_app is None

    assert no_token.status_code == 401
    assert no_token.json()["error"]["code"] == -32001
    assert no_token.headers["www-authenticate"].startswith("Bearer")
    assert with_token.status_code == 200
    assert foreign_host.status_code == 421
    assert browser.status_code == 403
    assert healthz.status_code == 200  # no token needed


async def test_a_request_beyond_the_handshake_waits_for_the_full_app_and_gets_its_answer(
    tmp_path: Path,
) -> None:
    builder = HeldBuilder(tmp_path)
    builder.release.set()
    async with serving(builder) as (app, client):
        call = message("tools/call", {"name": "read", "arguments": {"path": "nothing.txt"}})
        answer = await client.post("/rpc", json=call)
        assert app.full_app is not None

    assert answer.status_code == 200
    assert answer.json()["result"]["isError"] is True  # the full app's dispatcher ran it


async def test_a_failed_build_is_a_json_rpc_error_and_healthz_still_answers(tmp_path: Path) -> None:
    builder = HeldBuilder(tmp_path, fails=True)
    builder.release.set()
    async with serving(builder) as (_app, client):
        rpc = await client.post("/rpc", json=message("tools/list"))
        execute = await client.post("/execute", json={"tool": "health", "params": {}})
        healthz = await client.get("/healthz")

    assert rpc.status_code == 500
    assert rpc.json()["error"]["code"] == -32603
    assert execute.status_code == 500
    assert execute.json()["error"]["code"] == "internal_error"  # the shape /execute speaks
    assert healthz.status_code == 200
