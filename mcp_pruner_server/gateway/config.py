"""Which upstream MCP servers the gateway knows, and its limits: env > `[gateway]` TOML > defaults.

`load_gateway_config(env, toml)` is pure, like `pruning_config.load_pruning_config`: the caller
reads `os.environ` and the TOML document (the server's `jeeves.toml`, the same file the rest of
its configuration comes from).

The upstream map (name → URL of the upstream's JSON-RPC endpoint) is central and extensible:

- `[gateway.servers]` in `jeeves.toml`, e.g. `fast-filesystem = "http://127.0.0.1:8004/rpc"`;
- `JEEVES_GATEWAY_SERVERS`, a JSON object, e.g. `{"json-query": "http://127.0.0.1:8005/mcp"}`.
  Its names override the TOML's one by one (a name set in both takes the env entry; the others
  stay), so one upstream can be redirected for a run without restating the whole map.

An entry is a URL, or `{"url": ..., "bearer_token_env_var": "NAME"}` for an upstream that
wants `Authorization: Bearer <token>`: the token is read from the environment variable NAME
when the config is loaded (the variable must be set), never from a file. A workspace
`jeeves.toml` cannot name one (`settings.read_toml_document` drops such entries).

No upstream is configured by default: `EXAMPLE_SERVERS` holds the original design's names and ports as
documentation only, because a gateway that silently targets ports nobody configured would
forward workspace requests to whatever happens to listen there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from mcp_pruner_server.errors import ConfigError
from mcp_pruner_server.gateway.masking import MaskOptions
from mcp_pruner_server.urls import http_url

SERVERS_ENV: Final = "JEEVES_GATEWAY_SERVERS"
TOML_TABLE: Final = "gateway"
# The original design's mapping, documented (README) and never applied implicitly (module doc).
EXAMPLE_SERVERS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "fast-filesystem": "http://127.0.0.1:8004/rpc",
        "json-query": "http://127.0.0.1:8005/rpc",
        "sequential-thinking": "http://127.0.0.1:8006/rpc",
        "shrimp-task-manager": "http://127.0.0.1:8007/rpc",
    }
)
# Names travel in the URL path `/api/mcp-gateway/{name}/rpc`: no slash, no space, no dot-dot.
_SERVER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_ENV_VAR_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
TOKEN_ENV_KEY: Final = "bearer_token_env_var"
_ENTRY_EXPECTED: Final = (
    "an http:// or https:// URL of the upstream's JSON-RPC endpoint, or "
    '{"url": URL, "bearer_token_env_var": NAME}'
)

# A local upstream that has not accepted the connection within 2 s is down, not busy.
DEFAULT_CONNECT_TIMEOUT_MS: Final = 2000
# A whole forwarded call (send, wait, read the reply): tool calls such as a long `bash` may
# legitimately take a while, but an agent must not hang on a wedged upstream for minutes.
DEFAULT_TIMEOUT_MS: Final = 60_000
# The biggest upstream reply the gateway reads (then masks); beyond it the call fails with
# `upstream_reply_too_large` instead of holding hundreds of MiB in memory.
DEFAULT_MAX_REPLY_BYTES: Final = 64 << 20


@dataclass(frozen=True)
class _IntKnob:
    env: str
    toml: str
    default: int
    minimum: int
    maximum: int


# Each default says why it is what it is (see the constants above and masking.py).
_INT_KNOBS: Final[Mapping[str, _IntKnob]] = MappingProxyType(
    {
        "connect_timeout_ms": _IntKnob(
            "JEEVES_GATEWAY_CONNECT_TIMEOUT_MS", "connect_timeout_ms", DEFAULT_CONNECT_TIMEOUT_MS, 10, 60_000
        ),
        "timeout_ms": _IntKnob("JEEVES_GATEWAY_TIMEOUT_MS", "timeout_ms", DEFAULT_TIMEOUT_MS, 50, 600_000),
        "max_reply_bytes": _IntKnob(
            "JEEVES_GATEWAY_MAX_REPLY_BYTES", "max_reply_bytes", DEFAULT_MAX_REPLY_BYTES, 1024, 1 << 30
        ),
        "max_chars": _IntKnob("JEEVES_GATEWAY_MAX_CHARS", "max_chars", MaskOptions.max_chars, 16, 1 << 30),
        "head_chars": _IntKnob("JEEVES_GATEWAY_HEAD_CHARS", "head_chars", MaskOptions.head_chars, 0, 1 << 30),
        "tail_chars": _IntKnob("JEEVES_GATEWAY_TAIL_CHARS", "tail_chars", MaskOptions.tail_chars, 0, 1 << 30),
    }
)


# Every `[gateway]` key this module reads: what a misspelt key is checked against.
TOML_KEYS: Final = frozenset({"servers", *(knob.toml for knob in _INT_KNOBS.values())})


@dataclass(frozen=True)
class GatewayConfig:
    """The upstream map and the gateway's timeouts, reply cap and masking options."""

    servers: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    # name -> the bearer token sent to that upstream (from its `bearer_token_env_var`)
    bearer_tokens: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), repr=False)
    connect_timeout_ms: int = DEFAULT_CONNECT_TIMEOUT_MS
    timeout_ms: int = DEFAULT_TIMEOUT_MS
    max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES
    masking: MaskOptions = field(default_factory=MaskOptions)


def load_gateway_config(env: Mapping[str, str], toml: Mapping[str, object]) -> GatewayConfig:
    """Build the config from `env` (wins) and the TOML document's `[gateway]` table.

    Raises:
        ConfigError: the env JSON or a TOML value is malformed, a server name or URL is
            invalid, a number is out of range, or `head_chars + tail_chars > max_chars`.
    """
    table = _table(toml, TOML_TABLE)
    entries = dict(_servers_from_toml(table))
    entries.update(_servers_from_env(env))
    servers = {name: url for name, (url, _) in entries.items()}
    tokens = {name: _token(env, name, var) for name, (_, var) in entries.items() if var is not None}
    ints = {name: _int(env, table, knob) for name, knob in _INT_KNOBS.items()}
    masking = MaskOptions(ints.pop("max_chars"), ints.pop("head_chars"), ints.pop("tail_chars"))
    if masking.head_chars + masking.tail_chars > masking.max_chars:
        raise ConfigError(
            "JEEVES_GATEWAY_HEAD_CHARS + JEEVES_GATEWAY_TAIL_CHARS",
            masking.head_chars + masking.tail_chars,
            f"at most max_chars ({masking.max_chars}) so a masked string never grows",
        )
    return GatewayConfig(
        servers=MappingProxyType(servers),
        bearer_tokens=MappingProxyType(tokens),
        masking=masking,
        **ints,
    )


def _table(toml: Mapping[str, object], name: str) -> Mapping[str, object]:
    table = toml.get(name, {})
    if not isinstance(table, Mapping):
        raise ConfigError(name, type(table).__name__, "a TOML table")
    return {str(k): v for k, v in table.items()}


_Entry = tuple[str, str | None]  # URL, bearer token env var


def _servers_from_toml(table: Mapping[str, object]) -> dict[str, _Entry]:
    raw = table.get("servers", {})
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{TOML_TABLE}.servers", type(raw).__name__, "a TOML table of name = URL")
    return {str(k): _check_server(f"{TOML_TABLE}.servers.{k}", str(k), v) for k, v in raw.items()}


def _servers_from_env(env: Mapping[str, str]) -> dict[str, _Entry]:
    text = env.get(SERVERS_ENV, "").strip()
    if not text:
        return {}
    expected = 'a JSON object of name -> URL or {"url", "bearer_token_env_var"}, e.g. {"fs": "http://127.0.0.1:8004/rpc"}'
    try:
        raw = json.loads(text)
    except ValueError as exc:
        raise ConfigError(SERVERS_ENV, text, f"{expected} ({exc})") from exc
    if not isinstance(raw, dict):
        raise ConfigError(SERVERS_ENV, text, expected)
    return {str(k): _check_server(f"{SERVERS_ENV}[{k!r}]", str(k), v) for k, v in raw.items()}


def _check_server(source: str, name: str, entry: object) -> _Entry:
    if not _SERVER_NAME.fullmatch(name) or ".." in name:
        raise ConfigError(source, name, "a server name of letters, digits, '.', '_' or '-' (≤ 64 chars)")
    token_var: str | None = None
    url = entry
    if isinstance(entry, Mapping):
        unknown = set(map(str, entry)) - {"url", TOKEN_ENV_KEY}
        if unknown:
            raise ConfigError(f"{source}.{sorted(unknown)[0]}", "<key>", _ENTRY_EXPECTED)
        url = entry.get("url")
        raw_var = entry.get(TOKEN_ENV_KEY)
        if raw_var is not None:
            if not isinstance(raw_var, str) or not _ENV_VAR_NAME.fullmatch(raw_var):
                raise ConfigError(f"{source}.{TOKEN_ENV_KEY}", raw_var, "an environment variable name")
            token_var = raw_var
    return _check_url(source, url), token_var


def _token(env: Mapping[str, str], name: str, var: str) -> str:
    token = env.get(var, "").strip()
    if not token:
        raise ConfigError(var, None, f"set: it holds the bearer token of gateway server {name!r}")
    return token


def _check_url(source: str, url: object) -> str:
    value = http_url(url)
    if value is None:
        raise ConfigError(source, url, _ENTRY_EXPECTED)
    return value


def _int(env: Mapping[str, str], table: Mapping[str, object], knob: _IntKnob) -> int:
    expected = f"an integer in {knob.minimum}..{knob.maximum}"
    env_value = env.get(knob.env, "").strip()
    source: str
    raw: object
    if env_value:
        source, raw = knob.env, env_value
    elif knob.toml in table:
        source, raw = f"{TOML_TABLE}.{knob.toml}", table[knob.toml]
    else:
        return knob.default
    if isinstance(raw, bool):
        raise ConfigError(source, raw, expected)
    if isinstance(raw, str) and re.fullmatch(r"[+-]?[0-9]+", raw):
        raw = int(raw)
    if not isinstance(raw, int) or not knob.minimum <= raw <= knob.maximum:
        raise ConfigError(source, raw, expected)
    return raw
