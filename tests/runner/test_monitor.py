from __future__ import annotations

import os
import signal
from pathlib import Path

import anyio
import httpx
import pytest

from runner.monitor import watch_server
from runner.readiness import wait_until_healthy
from tests.runner.runner_support import started_server

pytestmark = pytest.mark.anyio

# Far longer than the test's bound: an exit noticed in time cannot have come from a probe.
SLOW_PROBE_INTERVAL_S = 60.0


async def test_a_server_exit_is_noticed_at_once_not_at_the_next_probe(tmp_path: Path) -> None:
    async with (
        httpx.AsyncClient(trust_env=False) as client,
        anyio.create_task_group() as tg,
        started_server(tmp_path, tg) as server,
    ):
        with anyio.fail_after(10):
            ready = await wait_until_healthy(server, client, timeout_s=5, probe_timeout_s=1)
        async with anyio.create_task_group() as watchers:

            async def kill_once_watching() -> None:
                await anyio.wait_all_tasks_blocked()
                os.kill(server.pid, signal.SIGKILL)

            watchers.start_soon(kill_once_watching)
            with anyio.fail_after(5):  # a hang guard; far shorter than 3 probes 60 s apart
                degradation = await watch_server(
                    server,
                    client,
                    f"{ready.base_url}/healthz",
                    interval_s=SLOW_PROBE_INTERVAL_S,
                    probe_timeout_s=1,
                    threshold=3,
                )
        assert degradation.kind == "exited"
        assert degradation.event_data() == {"reason": "exited", "exit_code": None, "signal": "SIGKILL"}
