"""Pruning configuration: environment > TOML `[mcp_pruner]` table > defaults.

The settings are listed in docs/configuration.md#pruning-settings.

`load_pruning_config(env, toml)` is pure: the caller reads `os.environ` and parses the TOML
document (the whole document; this module reads its `[mcp_pruner]` table and ignores keys it
does not own, which the runner shares). Every invalid value raises `ConfigError` naming the
variable and the accepted range; the runner and the server report it as `config_invalid`.

Decisions where the original contract was silent or loose:

- Backend names: `heuristic`, `http`, `deepinfra` (alias `cloud`), case-insensitive. An unknown
  name is an error, not a silent `heuristic` (the original contract says "any other value => heuristic";
  a typo that silently disables the backend you asked for is worse than a clear error).
  `JEEVES_PRUNING_BACKEND` wins over its compatibility alias `KIMI_PRUNING_BACKEND`.
- No backend named anywhere but `JEEVES_PRUNER_ENDPOINT` set → `http` (the Jeeves design
  prunes through the endpoint when it is configured); otherwise `heuristic`.
- `http` without an endpoint is an error. `deepinfra` without `DEEPINFRA_API_KEY` is NOT:
  the backend then fails open at call time with `deepinfra_config_error` (docs/tools.md#pruning-backends).
- Secrets come from the environment only: any `[mcp_pruner]` key naming a key, token, secret or
  password is refused.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, get_args

from mcp_pruner_server.errors import ConfigError
from mcp_pruner_server.urls import http_url

BackendName = Literal["heuristic", "http", "deepinfra"]
HttpProtocol = Literal["auto", "jeeves", "swe_pruner"]

BACKEND_ALIASES: Mapping[str, BackendName] = {"cloud": "deepinfra"}
DEFAULT_DEEPINFRA_ENDPOINT_URL = "https://api.deepinfra.com/v1/inference/Qwen/Qwen3-Reranker-0.6B"
TOML_TABLE = "mcp_pruner"
_SECRET_WORDS = ("api_key", "apikey", "token", "secret", "password")


@dataclass(frozen=True)
class IntSetting:
    """An integer knob: its env variables (first wins), TOML keys (first wins), default, range."""

    env: tuple[str, ...]
    toml: tuple[str, ...]
    default: int
    minimum: int
    maximum: int


# Each default says why it is what it is.
INT_SETTINGS: Mapping[str, IntSetting] = {
    # The remote pruner must answer, body included, within 2 s or we fall back.
    "timeout_ms": IntSetting(("JEEVES_PRUNER_TIMEOUT_MS",), ("timeout_ms",), 2000, 50, 120_000),
    # The original tool-output cap, superseded by `tool_raw_cap_bytes` (issue 13: a 9 MB log returned
    # raw hid its failure); still accepted so that old configurations load.
    "max_prune_input_bytes": IntSetting(
        ("JEEVES_MCP_PRUNER_MAX_PRUNE_INPUT_BYTES",), ("max_prune_input_bytes",), 262_144, 1024, 64 << 20
    ),
    # `prune_text` input cap (docs/tools.md#prune_text); same order as the byte cap, counted in characters.
    "max_input_chars": IntSetting(
        ("MCP_PRUNER_MAX_INPUT_CHARS",), ("max_input_chars",), 262_144, 1024, 64 << 20
    ),
    # An agent re-reads pruned blocks within its session; an hour covers a long turn sequence.
    "prune_id_ttl_s": IntSetting(("MCP_PRUNER_PRUNE_ID_TTL_S",), ("prune_id_ttl_s",), 3600, 1, 7 * 86_400),
    # Bounds of the recovery store: a day of heavy use stays under 64 MiB.
    "store_max_entries": IntSetting(
        ("MCP_PRUNER_STORE_MAX_ENTRIES",), ("store_max_entries",), 4096, 1, 1_000_000
    ),
    "store_max_bytes": IntSetting(
        ("MCP_PRUNER_STORE_MAX_BYTES",), ("store_max_bytes",), 64 << 20, 1024, 4 << 30
    ),
    # DeepInfra rerank cache (docs/tools.md#pruning-backends): a re-read of the same output
    # within 5 min is free.
    "cache_ttl_s": IntSetting(("MCP_PRUNER_CACHE_TTL_S",), ("cache_ttl_s",), 300, 1, 86_400),
    "cache_max_items": IntSetting(
        ("MCP_PRUNER_CACHE_MAX_ITEMS", "MCP_PRUNER_CACHE_MAX_ENTRIES"),
        ("cache_max_items", "cache_max_entries"),
        256,
        1,
        100_000,
    ),
    # A reranker slower than 5 s costs the agent more wall time than the tokens it saves.
    "deepinfra_timeout_ms": IntSetting(
        ("DEEPINFRA_TIMEOUT_MS",), ("deepinfra_timeout_ms",), 5000, 50, 120_000
    ),
    # One rerank call scores at most this many lines (cost and request-size bound).
    "deepinfra_max_docs": IntSetting(("DEEPINFRA_MAX_DOCS",), ("deepinfra_max_docs",), 256, 1, 4096),
    # With a question, read/bash/grep keep this much of their output to prune (a 1M-line build
    # log is ~80 MB and prunes in ~2 s); beyond it, its head and last MiB.
    "tool_raw_cap_bytes": IntSetting(
        ("JEEVES_MCP_PRUNER_RAW_CAP_BYTES",), ("tool_raw_cap_bytes",), 64 << 20, 1 << 20, 1 << 30
    ),
    # A pruned tool output is at most a screenful around what the question needs: a few hundred
    # lines and ~8k tokens (a 100k-line log is otherwise 10,000 lines at max_prune_ratio 0.9).
    "tool_budget_lines": IntSetting(
        ("JEEVES_MCP_PRUNER_TOOL_BUDGET_LINES",), ("tool_budget_lines",), 300, 20, 1_000_000
    ),
    "tool_budget_tokens": IntSetting(
        ("JEEVES_MCP_PRUNER_TOOL_BUDGET_TOKENS",), ("tool_budget_tokens",), 8000, 500, 10_000_000
    ),
}


# Every `[mcp_pruner]` key this module reads (the runner reads others in the same table): what a
# misspelt key is checked against (`runner.config_keys`).
TOML_KEYS: frozenset[str] = frozenset(
    {key for setting in INT_SETTINGS.values() for key in setting.toml}
    | {"endpoint", "pruner_endpoint", "backend", "http_protocol", "deepinfra_endpoint_url"}
)


@dataclass(frozen=True)
class PruningConfig:
    """Everything the pruning service, its backends and its recovery store are configured by."""

    backend: BackendName = "heuristic"
    endpoint: str | None = None
    http_protocol: HttpProtocol = "auto"
    timeout_ms: int = 2000
    max_prune_input_bytes: int = 262_144
    max_input_chars: int = 262_144
    prune_id_ttl_s: int = 3600
    store_max_entries: int = 4096
    store_max_bytes: int = 64 << 20
    cache_ttl_s: int = 300
    cache_max_items: int = 256
    deepinfra_api_key: str | None = field(default=None, repr=False)  # never printed
    deepinfra_endpoint_url: str = DEFAULT_DEEPINFRA_ENDPOINT_URL
    deepinfra_timeout_ms: int = 5000
    deepinfra_max_docs: int = 256
    tool_raw_cap_bytes: int = 64 << 20
    tool_budget_lines: int = 300
    tool_budget_tokens: int = 8000


def load_pruning_config(env: Mapping[str, str], toml: Mapping[str, object]) -> PruningConfig:
    """Build the config from `env` (wins) and the TOML document's `[mcp_pruner]` table.

    Raises:
        ConfigError: a value is malformed or out of range, a secret is in the TOML, or the
            `http` backend has no endpoint.
    """
    table = _table(toml)
    for key in table:
        if any(word in key.lower() for word in _SECRET_WORDS):
            raise ConfigError(f"{TOML_TABLE}.{key}", "<redacted>", "secrets only in environment variables")
    ints = {name: _int_setting(env, table, setting) for name, setting in INT_SETTINGS.items()}
    endpoint = _url(env, table, ("JEEVES_PRUNER_ENDPOINT",), ("endpoint", "pruner_endpoint"))
    backend = _backend(env, table, has_endpoint=endpoint is not None)
    if backend == "http" and endpoint is None:
        raise ConfigError("JEEVES_PRUNER_ENDPOINT", None, "an http(s) URL when the backend is `http`")
    protocol = _choice(env, table, ("JEEVES_PRUNER_PROTOCOL",), ("http_protocol",), get_args(HttpProtocol))
    deepinfra_url = _url(env, table, ("DEEPINFRA_ENDPOINT_URL",), ("deepinfra_endpoint_url",))
    return PruningConfig(
        backend=backend,
        endpoint=endpoint,
        http_protocol=protocol or "auto",  # type: ignore[arg-type]  # checked by _choice
        deepinfra_api_key=env.get("DEEPINFRA_API_KEY", "").strip() or None,
        deepinfra_endpoint_url=deepinfra_url or DEFAULT_DEEPINFRA_ENDPOINT_URL,
        **ints,
    )


def _table(toml: Mapping[str, object]) -> Mapping[str, object]:
    table = toml.get(TOML_TABLE, {})
    if not isinstance(table, Mapping):
        raise ConfigError(TOML_TABLE, type(table).__name__, "a TOML table")
    return {str(k): v for k, v in table.items()}


def _lookup(
    env: Mapping[str, str], table: Mapping[str, object], env_names: tuple[str, ...], keys: tuple[str, ...]
) -> tuple[str, object] | None:
    """(source name, raw value) of the first set env variable, else the first TOML key."""
    for name in env_names:
        value = env.get(name)
        if value is not None and value.strip() != "":
            return name, value.strip()
    for key in keys:
        if key in table:
            return f"{TOML_TABLE}.{key}", table[key]
    return None


def _int_setting(env: Mapping[str, str], table: Mapping[str, object], setting: IntSetting) -> int:
    found = _lookup(env, table, setting.env, setting.toml)
    if found is None:
        return setting.default
    source, raw = found
    expected = f"an integer in {setting.minimum}..{setting.maximum}"
    if isinstance(raw, bool):
        raise ConfigError(source, raw, expected)
    if isinstance(raw, int):
        value = raw
    elif isinstance(raw, str) and re.fullmatch(r"[+-]?[0-9]+", raw):
        value = int(raw)
    else:
        raise ConfigError(source, raw, expected)
    if not setting.minimum <= value <= setting.maximum:
        raise ConfigError(source, raw, expected)
    return value


def _choice(
    env: Mapping[str, str],
    table: Mapping[str, object],
    env_names: tuple[str, ...],
    keys: tuple[str, ...],
    accepted: tuple[str, ...],
    aliases: Mapping[str, str] | None = None,
) -> str | None:
    found = _lookup(env, table, env_names, keys)
    if found is None:
        return None
    source, raw = found
    value = raw.strip().lower() if isinstance(raw, str) else ""
    value = (aliases or {}).get(value, value)
    if value not in accepted:
        raise ConfigError(source, raw, "one of " + " | ".join([*accepted, *(aliases or {})]))
    return value


def _backend(env: Mapping[str, str], table: Mapping[str, object], *, has_endpoint: bool) -> BackendName:
    chosen = _choice(
        env,
        table,
        ("JEEVES_PRUNING_BACKEND", "KIMI_PRUNING_BACKEND"),
        ("backend",),
        get_args(BackendName),
        BACKEND_ALIASES,
    )
    if chosen is None:
        return "http" if has_endpoint else "heuristic"
    return chosen  # type: ignore[return-value]  # checked against BackendName by _choice


def _url(
    env: Mapping[str, str], table: Mapping[str, object], env_names: tuple[str, ...], keys: tuple[str, ...]
) -> str | None:
    found = _lookup(env, table, env_names, keys)
    if found is None:
        return None
    source, raw = found
    url = http_url(raw)
    if url is None:
        raise ConfigError(source, raw, "an http:// or https:// URL with a host")
    return url
