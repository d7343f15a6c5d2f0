"""How the CLI finds the ledger (`jeeves gain`, `jeeves show`, `jeeves run`'s session line): the
same settings the server writes with (`mcp_pruner_server/ledger/config.py`), from the environment
and the user's and this directory's TOML."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path

from mcp_pruner_server.errors import ConfigError
from mcp_pruner_server.ledger.config import LedgerConfig, load_ledger_config
from mcp_pruner_server.ledger.store import open_for_reading
from mcp_pruner_server.settings import read_toml_document


def ledger_config(env: Mapping[str, str] | None = None, cwd: Path | None = None) -> LedgerConfig:
    """The ledger settings as a server started in `cwd` would read them.

    Raises:
        ConfigError: a setting is invalid, or a TOML file is unreadable.
    """
    env = os.environ if env is None else env
    return load_ledger_config(env, read_toml_document(cwd or Path.cwd(), env))


def open_ledger(path: Path) -> sqlite3.Connection | None:
    """The ledger opened for queries, or None when no call has been recorded there yet.

    Raises:
        sqlite3.Error: the file is not a ledger (corrupt, or another database).
    """
    try:
        return open_for_reading(path)
    except FileNotFoundError:
        return None


__all__ = ["ConfigError", "ledger_config", "open_ledger"]
