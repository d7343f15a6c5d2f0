"""What one server instance is made of, built once and served over HTTP (`http/app.py`) or stdio.

`build_parts` reads the configuration (TOML once, the environment), and wires the recovery
store, the pruning service, the stats and the tool dispatcher together; an invalid value is
logged as `mcp_pruner.config_invalid` and the server still starts (docs/configuration.md).
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from mcp_pruner_server.errors import ConfigError
from mcp_pruner_server.ledger.config import load_ledger_config
from mcp_pruner_server.ledger.sink import LedgerSink, session_id
from mcp_pruner_server.logs import log_event
from mcp_pruner_server.pipeline.dispatcher import ToolDispatcher
from mcp_pruner_server.pipeline.stats import ServerStats
from mcp_pruner_server.pruner_service import PrunerService
from mcp_pruner_server.pruning_config import PruningConfig, load_pruning_config
from mcp_pruner_server.recovery import RecoveryStore
from mcp_pruner_server.settings import ServerSettings, read_toml_document


@dataclass(frozen=True)
class ServerParts:
    """Everything one server instance is made of (the route handlers read it from `app.state.parts`)."""

    settings: ServerSettings
    config: PruningConfig
    service: PrunerService
    dispatcher: ToolDispatcher
    stats: ServerStats
    started_at: datetime
    started_monotonic: float
    # The merged TOML config, read once for the pruning config and the gateway (each of the
    # file's warnings logged once); None when a file is unreadable (logged once, too).
    toml: Mapping[str, object] | None
    ledger: LedgerSink | None = None  # None: off (`JEEVES_LEDGER=0`) or its settings are invalid

    def close_ledger(self) -> None:
        """Have the ledger's writer write the queued calls and exit (server shutdown)."""
        if self.ledger is not None:
            self.ledger.close()


def _config_invalid(exc: ConfigError) -> None:
    log_event("mcp_pruner.config_invalid", level="error", variable=exc.variable, expected=exc.expected)


def read_config_document(settings: ServerSettings, env: Mapping[str, str]) -> Mapping[str, object] | None:
    """The user and workspace TOML merged (`settings.read_toml_document`), or None, logged as
    `mcp_pruner.config_invalid`, when a file is not valid TOML."""
    try:
        return read_toml_document(settings.root, env)
    except ConfigError as exc:
        _config_invalid(exc)
        return None


def load_config(toml: Mapping[str, object] | None, env: Mapping[str, str]) -> tuple[PruningConfig, bool]:
    """The pruning config, and whether tool-output pruning is enabled.

    An invalid value does not stop the server: it logs `mcp_pruner.config_invalid` and serves
    the tools unpruned (`reason=disabled_or_unconfigured`), `prune_text` on the defaults. An
    unreadable file (`toml` None) was logged when read.
    """
    if toml is None:
        return PruningConfig(), False
    try:
        return load_pruning_config(env, toml), True
    except ConfigError as exc:
        _config_invalid(exc)
        return PruningConfig(), False


def build_ledger(
    settings: ServerSettings, toml: Mapping[str, object] | None, env: Mapping[str, str]
) -> LedgerSink | None:
    """The ledger sink, or None when it is off or misconfigured (logged as `config_invalid`:
    the server serves without it)."""
    try:
        config = load_ledger_config(env, toml or {})
    except ConfigError as exc:
        _config_invalid(exc)
        return None
    if not config.enabled:
        return None
    return LedgerSink(config, session=session_id(env), project=settings.root, log_format=settings.log_format)


def build_parts(
    settings: ServerSettings,
    *,
    env: Mapping[str, str] | None = None,
    config: PruningConfig | None = None,
    service: PrunerService | None = None,
    engine_processes: bool = True,
    started_at: datetime | None = None,
    started_monotonic: float | None = None,
) -> ServerParts:
    """Wire config, recovery store, pruning service, stats and dispatcher together.

    `engine_processes=False` runs the heuristic engine in threads instead of worker
    processes (`backends/engine_process.py`): same results, no process spawn (tests).
    `started_at`, `started_monotonic`: when the server began serving, if before now (the HTTP
    server listens before it builds its parts: `http/startup_app.py`).
    """
    enabled = True
    env = os.environ if env is None else env
    toml = read_config_document(settings, env)
    if config is None:
        config, enabled = load_config(toml, env)
    if service is None:
        store = RecoveryStore(config.prune_id_ttl_s, config.store_max_entries, config.store_max_bytes)
        service = PrunerService(config, store, engine_processes=engine_processes)
    stats = ServerStats()
    ledger = build_ledger(settings, toml, env)
    dispatcher = ToolDispatcher(settings.root, service, stats, tool_pruning=enabled, ledger=ledger)
    started = datetime.now(UTC) if started_at is None else started_at
    monotonic = time.monotonic() if started_monotonic is None else started_monotonic
    return ServerParts(settings, config, service, dispatcher, stats, started, monotonic, toml, ledger)
