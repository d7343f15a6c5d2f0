from __future__ import annotations

import anyio
import httpx
import pytest

from runner.readiness import probe_health


@pytest.mark.anyio
async def test_a_probe_of_a_malformed_url_is_a_failed_probe_not_an_exception() -> None:
    async with httpx.AsyncClient(trust_env=False) as client:
        with anyio.fail_after(5):
            invalid = await probe_health(client, "http://[::1/healthz", 1)
            port_zero = await probe_health(client, "http://127.0.0.1:0/healthz", 1)
    assert not invalid.ok
    assert "InvalidURL" in invalid.detail
    assert not port_zero.ok
