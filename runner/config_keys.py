"""Keys of a `jeeves.toml` that nothing reads: a misspelt setting is said, with a "did you mean".

A TOML file is read table by table by several modules (the runner's `[mcp_pruner]` fields, the
server's pruning settings in the same table, the gateway's `[gateway]`); a key none of them
knows would otherwise be skipped in silence, leaving the default in effect (`prot = 8765`).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping

from mcp_pruner_server.gateway import config as gateway_config
from mcp_pruner_server.pruning_config import TOML_KEYS as PRUNING_KEYS
from mcp_pruner_server.pruning_config import TOML_TABLE

# How close a known name must be to be offered (difflib's ratio; its own default is 0.6).
SUGGESTION_CUTOFF = 0.6


def unknown_keys(document: Mapping[str, object], runner_keys: Iterable[str]) -> list[str]:
    """One sentence per table or key of `document` that nothing reads, with the nearest known name."""
    known_tables = {
        TOML_TABLE: frozenset(runner_keys) | PRUNING_KEYS,
        gateway_config.TOML_TABLE: gateway_config.TOML_KEYS,
    }
    found: list[str] = []
    for name, value in document.items():
        if name not in known_tables:
            kind = "table" if isinstance(value, Mapping) else "key"
            shown = f"[{name}]" if kind == "table" else name
            found.append(f"unknown {kind} {shown}{_did_you_mean(name, known_tables, bracket=True)}: ignored")
            continue
        if not isinstance(value, Mapping):
            continue  # a table given as a value: its own module reports the shape
        for key in value:
            if key not in known_tables[name]:
                found.append(
                    f"unknown key {key} in [{name}]{_did_you_mean(key, known_tables[name])}: ignored"
                )
    return found


def _did_you_mean(name: str, known: Iterable[str], *, bracket: bool = False) -> str:
    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=SUGGESTION_CUTOFF)
    if not close:
        return ""
    return f" (did you mean [{close[0]}]?)" if bracket else f" (did you mean {close[0]}?)"
