"""Pruning backends behind one protocol (docs/tools.md#pruning-backends): `heuristic` (in worker
processes, `engine_process.py`, or threads), `http`, `deepinfra`.

The remote ones (and httpx, which imports `rich` and `click` when they are installed) are
imported only when the configuration selects one: a server on the default `heuristic` backend
starts without them (issue 28).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp_pruner_server.backends.base import Backend
from mcp_pruner_server.backends.engine_process import ProcessHeuristicBackend
from mcp_pruner_server.backends.heuristic import HeuristicBackend
from mcp_pruner_server.pruning_config import PruningConfig

if TYPE_CHECKING:
    import httpx

__all__ = [
    "Backend",
    "HeuristicBackend",
    "ProcessHeuristicBackend",
    "create_backend",
    "is_remote",
]


def is_remote(config: PruningConfig) -> bool:
    """Whether `config` selects a backend that calls out over HTTP (and needs a client)."""
    return (config.backend == "http" and config.endpoint is not None) or config.backend == "deepinfra"


def create_backend(
    config: PruningConfig, client: httpx.AsyncClient | None, *, engine_processes: bool = False
) -> Backend:
    """The backend `config.backend` names, sharing the pooled `client` for remote calls.

    Raises:
        ValueError: `config` selects a remote backend (`is_remote`) and `client` is None.

    `engine_processes`: the heuristic engine runs in worker processes (the server: pruning never
    holds its GIL) rather than threads (tests, embedding: same results, no process spawned).
    """
    if is_remote(config) and client is None:
        raise ValueError(f"the {config.backend} backend needs an HTTP client")
    if config.backend == "http" and config.endpoint is not None and client is not None:
        from mcp_pruner_server.backends.http import HttpBackend

        return HttpBackend(config.endpoint, config.timeout_ms, client, config.http_protocol)
    if config.backend == "deepinfra" and client is not None:
        from mcp_pruner_server.backends.cache import TtlCache
        from mcp_pruner_server.backends.deepinfra import DeepInfraBackend, Scores

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
