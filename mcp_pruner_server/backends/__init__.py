"""Pruning backends behind one protocol (docs/tools.md#pruning-backends): `heuristic` (in worker
processes, `engine_process.py`, or threads), `http`, `deepinfra`."""

from __future__ import annotations

import httpx

from mcp_pruner_server.backends.base import Backend
from mcp_pruner_server.backends.cache import TtlCache
from mcp_pruner_server.backends.deepinfra import DeepInfraBackend, Scores
from mcp_pruner_server.backends.engine_process import ProcessHeuristicBackend
from mcp_pruner_server.backends.heuristic import HeuristicBackend
from mcp_pruner_server.backends.http import HttpBackend
from mcp_pruner_server.pruning_config import PruningConfig

__all__ = [
    "Backend",
    "DeepInfraBackend",
    "HeuristicBackend",
    "HttpBackend",
    "ProcessHeuristicBackend",
    "create_backend",
]


def create_backend(
    config: PruningConfig, client: httpx.AsyncClient, *, engine_processes: bool = False
) -> Backend:
    """The backend `config.backend` names, sharing the pooled `client` for remote calls.

    `engine_processes`: the heuristic engine runs in worker processes (the server: pruning never
    holds its GIL) rather than threads (tests, embedding: same results, no process spawned).
    """
    if config.backend == "http" and config.endpoint is not None:
        return HttpBackend(config.endpoint, config.timeout_ms, client, config.http_protocol)
    if config.backend == "deepinfra":
        return DeepInfraBackend(
            api_key=config.deepinfra_api_key,
            endpoint_url=config.deepinfra_endpoint_url,
            timeout_ms=config.deepinfra_timeout_ms,
            max_docs=config.deepinfra_max_docs,
            client=client,
            cache=TtlCache[str, Scores](config.cache_ttl_s, config.cache_max_items),
        )
    if engine_processes and config.backend == "heuristic":
        return ProcessHeuristicBackend()
    return HeuristicBackend()  # also an `http` backend without an endpoint
