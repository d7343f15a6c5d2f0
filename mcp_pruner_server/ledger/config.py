"""The ledger's settings: environment > TOML `[ledger]` table > defaults.

Listed in docs/configuration.md#ledger-settings.

`load_ledger_config(env, toml)` is pure, like `pruning_config.load_pruning_config`: the caller
reads `os.environ` and the merged TOML document. `path` is user-file only (`settings.UNTRUSTED_KEYS`):
a cloned repository's `jeeves.toml` must not choose where this machine writes.
This module imports nothing heavy: the server builds it on the start-up path.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from mcp_pruner_server.errors import ConfigError

TOML_TABLE = "ledger"
LEDGER_RELATIVE_PATH = Path("jeeves") / "ledger.sqlite3"  # under $XDG_STATE_HOME

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


@dataclass(frozen=True)
class LedgerConfig:
    """Where the ledger lives and what it keeps."""

    path: Path
    enabled: bool = True
    # The question text is the one free-text field: a user may not want it on disk.
    store_questions: bool = True
    # Three months of daily use is a few tens of MB; older rows are deleted by the writer.
    retention_days: int = 90
    # A file or command asked for again within this many calls of the same session is a re-read:
    # 20 calls is about one task's worth of an agent's turns.
    reread_window: int = 20
    # `jeeves gain`'s cost estimate: USD per million input tokens (Claude Sonnet's list price).
    price_per_mtok: float = 3.0


def default_ledger_path(env: Mapping[str, str]) -> Path:
    """`$XDG_STATE_HOME/jeeves/ledger.sqlite3`, `~/.local/state/…` when it is unset (XDG base dirs)."""
    state = env.get("XDG_STATE_HOME", "").strip()
    if state and Path(state).is_absolute():  # the spec: a relative value is ignored
        return Path(state) / LEDGER_RELATIVE_PATH
    home = Path(env.get("HOME") or os.path.expanduser("~"))
    return home / ".local" / "state" / LEDGER_RELATIVE_PATH


def _bool(raw: object) -> bool:
    if isinstance(raw, bool):
        return raw
    word = str(raw).strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise ValueError("1/true/yes/on or 0/false/no/off")


def _int_in(low: int, high: int) -> Callable[[object], int]:
    def parse(raw: object) -> int:
        if isinstance(raw, bool) or not isinstance(raw, int | str):
            raise ValueError(f"an integer in {low}..{high}")
        try:
            value = int(raw)
        except ValueError:
            raise ValueError(f"an integer in {low}..{high}") from None
        if not low <= value <= high:
            raise ValueError(f"an integer in {low}..{high}")
        return value

    return parse


def _price(raw: object) -> float:
    if isinstance(raw, bool) or not isinstance(raw, int | float | str):
        raise ValueError("a number of USD, 0..1000")
    try:
        value = float(raw)
    except ValueError:
        raise ValueError("a number of USD, 0..1000") from None
    if not 0 <= value <= 1000:
        raise ValueError("a number of USD, 0..1000")
    return value


def _path(raw: object) -> Path:
    if not isinstance(raw, str) or not raw.strip():
        raise ValueError("a file path")
    return Path(raw.strip()).expanduser()


@dataclass(frozen=True)
class _Setting:
    env: str
    toml: str
    parse: Callable[[object], object]


# One record per setting: the field of LedgerConfig, its variable, its TOML key, its parser.
SETTINGS: Mapping[str, _Setting] = {
    "enabled": _Setting("JEEVES_LEDGER", "enabled", _bool),
    "path": _Setting("JEEVES_LEDGER_PATH", "path", _path),
    "store_questions": _Setting("JEEVES_LEDGER_QUESTIONS", "store_questions", _bool),
    "retention_days": _Setting("JEEVES_LEDGER_RETENTION_DAYS", "retention_days", _int_in(1, 36_500)),
    "reread_window": _Setting("JEEVES_LEDGER_REREAD_WINDOW", "reread_window", _int_in(1, 10_000)),
    "price_per_mtok": _Setting("JEEVES_GAIN_PRICE_PER_MTOK", "price_per_mtok", _price),
}


def load_ledger_config(env: Mapping[str, str], toml: Mapping[str, object]) -> LedgerConfig:
    """The ledger config from `env` (wins) and the document's `[ledger]` table.

    Raises:
        ConfigError: a value is malformed or out of range, or `[ledger]` is not a table.
    """
    table = toml.get(TOML_TABLE, {})
    if not isinstance(table, Mapping):
        raise ConfigError(TOML_TABLE, type(table).__name__, "a TOML table")
    values: dict[str, object] = {"path": default_ledger_path(env)}
    for name, setting in SETTINGS.items():
        raw_env = env.get(setting.env, "").strip()
        raw: object
        if raw_env:
            source, raw = setting.env, raw_env
        else:
            source, raw = f"{TOML_TABLE}.{setting.toml}", table.get(setting.toml)
        if raw is None:
            continue
        try:
            values[name] = setting.parse(raw)
        except ValueError as exc:
            raise ConfigError(source, raw, str(exc)) from None
    return LedgerConfig(**values)  # type: ignore[arg-type]  # each parser returns its field's type
