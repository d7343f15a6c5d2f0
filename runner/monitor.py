"""Watching the running server: its exit is seen at once, unreachability after N probes.

`watch_server` returns when the server has become unusable for the rest of the run; the
caller cancels it when the provider ends first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import anyio
import httpx

from runner.exit_status import describe_returncode
from runner.readiness import probe_health
from runner.server_process import ServerProcess
from runner.waiting import first_of


@dataclass(frozen=True)
class Degradation:
    """Why the server stopped being usable: it exited, or stopped answering."""

    kind: Literal["exited", "unreachable"]
    returncode: int | None = None
    failures: int = 0
    last_error: str | None = None

    def event_data(self) -> dict[str, object]:
        """The data of the `exited` / `unreachable` and `degraded` events."""
        if self.kind == "exited":
            return {"reason": "exited", **describe_returncode(self.returncode)}
        return {"reason": "unreachable", "consecutive_failures": self.failures, "last_error": self.last_error}


async def _probe_until_unreachable(
    server: ServerProcess,
    client: httpx.AsyncClient,
    health_url: str,
    *,
    interval_s: float,
    probe_timeout_s: float,
    threshold: int,
) -> Degradation:
    failures = 0
    while True:
        await anyio.sleep(interval_s)
        result = await probe_health(client, health_url, probe_timeout_s)
        if result.ok:
            failures = 0
            server.remember_descendants()
            continue
        failures += 1
        if failures >= threshold:
            return Degradation("unreachable", failures=failures, last_error=result.detail)


async def watch_server(
    server: ServerProcess,
    client: httpx.AsyncClient,
    health_url: str,
    *,
    interval_s: float,
    probe_timeout_s: float,
    threshold: int,
) -> Degradation:
    """Return as soon as the server exits, or after `threshold` consecutive failed probes."""

    async def on_exit() -> Degradation:
        await server.exited.wait()
        return Degradation("exited", returncode=server.returncode)

    async def on_unreachable() -> Degradation:
        return await _probe_until_unreachable(
            server,
            client,
            health_url,
            interval_s=interval_s,
            probe_timeout_s=probe_timeout_s,
            threshold=threshold,
        )

    return await first_of(on_exit, on_unreachable)
