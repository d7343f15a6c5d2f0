"""Whether the server answers: `/healthz` probes, the wait for readiness at startup, `/stats`.

A probe is bounded end to end (body included) and never raises: it says ok or why not.
At startup the ready line comes first, then probes until one is ok; a server that exits
ends the wait at once, even with a probe in flight.
"""

from __future__ import annotations

from dataclasses import dataclass

import anyio
import httpx

from runner.errors import ServerExitedError, ServerStartTimeoutError
from runner.exit_status import format_returncode
from runner.ready_line import ReadyLine
from runner.server_process import ServerProcess
from runner.waiting import first_of

# Pause between readiness probes: fast enough that startup costs ~no extra latency.
STARTUP_PROBE_INTERVAL_S = 0.05
# A dead server's last stderr lines arrive just after its exit; a grandchild holding the
# pipe must not make us wait longer than this for them.
STDERR_EOF_GRACE_S = 0.5


@dataclass(frozen=True)
class ProbeResult:
    """One `/healthz` probe: ok, or why not."""

    ok: bool
    detail: str


async def probe_health(client: httpx.AsyncClient, url: str, timeout_s: float) -> ProbeResult:
    """GET `url` (a `/healthz`), bounded by `timeout_s` end to end, body included."""
    try:
        with anyio.fail_after(timeout_s):
            response = await client.get(url, timeout=timeout_s)
    except TimeoutError:
        return ProbeResult(False, f"no answer within {timeout_s:g} s")
    # InvalidURL is not an HTTPError; OSError: a socket error below httpx's own mapping.
    except (httpx.HTTPError, httpx.InvalidURL, OSError) as exc:
        return ProbeResult(False, f"{type(exc).__name__}: {exc}")
    if response.status_code != 200:
        return ProbeResult(False, f"HTTP {response.status_code}")
    try:
        body = response.json()
    except ValueError:
        return ProbeResult(False, "body is not JSON")
    if isinstance(body, dict) and (body.get("ok") is True or body.get("status") == "ok"):
        return ProbeResult(True, "ok")
    return ProbeResult(False, "body does not say ok")


async def wait_until_healthy(
    server: ServerProcess, client: httpx.AsyncClient, *, timeout_s: float, probe_timeout_s: float
) -> ReadyLine:
    """Wait for the ready line, then for `/healthz` ok; a dead child ends the wait at once.

    Each probe is raced against the child's exit, so a probe in flight never delays that.

    Raises:
        ServerExitedError: the server exited first.
        ServerStartTimeoutError: not healthy within `timeout_s`.
    """
    last = "no valid ready line on stdout yet"
    with anyio.move_on_after(timeout_s):
        await first_of(server.ready_seen.wait, server.exited.wait)
        while not server.exited.is_set():
            ready = server.ready_line
            assert ready is not None

            async def probe(ready: ReadyLine = ready) -> ProbeResult:
                return await probe_health(client, f"{ready.base_url}/healthz", probe_timeout_s)

            result = await first_of(probe, server.exited.wait)
            if result is None:  # the server exited while the probe was in flight
                break
            if result.ok:
                return ready
            last = result.detail
            with anyio.move_on_after(STARTUP_PROBE_INTERVAL_S):
                await server.exited.wait()
        with anyio.move_on_after(STDERR_EOF_GRACE_S):
            await server.stderr_closed.wait()
        raise ServerExitedError(
            f"the server exited during startup with {format_returncode(server.returncode)}",
            returncode=server.returncode,
            stderr_tail=server.stderr_tail(),
        )
    raise ServerStartTimeoutError(
        f"not healthy within {timeout_s:g} s (last probe: {last})", stderr_tail=server.stderr_tail()
    )


async def fetch_stats(
    client: httpx.AsyncClient, base_url: str, token: str, timeout_s: float
) -> dict[str, object] | None:
    """The server's `/stats` JSON object, or None when it has none to give."""
    try:
        with anyio.fail_after(timeout_s):
            response = await client.get(
                f"{base_url}/stats", headers={"Authorization": f"Bearer {token}"}, timeout=timeout_s
            )
        body = response.json() if response.status_code == 200 else None
    except (TimeoutError, httpx.HTTPError, ValueError):
        return None
    return body if isinstance(body, dict) else None
