"""What the server process is configured by: command-line flags plus a few environment variables.

The pruning knobs (backend, timeouts, `max_prune_input_bytes`, recovery bounds) live in
`pruning_config.py`; this module holds the HTTP side: where to listen, the root, the token
and the limits of the HTTP surface.
"""

from __future__ import annotations

import ipaddress
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from mcp_pruner_server.errors import ConfigError
from mcp_pruner_server.logs import LogFormat, log_event

TOKEN_ENV: Final = "JEEVES_MCP_PRUNER_TOKEN"
# The event of the one JSON line the server prints on stdout once it listens (`jeeves run` waits for it).
READY_EVENT: Final = "mcp_pruner.ready"
# The name the clients' configs reference (`jeeves mcp-config`, Codex's bearer_token_env_var), also
# read by the server, so one exported variable serves both ends. TOKEN_ENV wins when both are set:
# `jeeves run` hands its per-run token to its server under TOKEN_ENV.
CLIENT_TOKEN_ENV: Final = "JEEVES_MCP_TOKEN"
# Set by `jeeves run` for every process of the run: the watchdog finds the run's processes by it
# (`runner/watchdog.py`), and the server writes its ledger rows under it as their session.
RUN_ID_ENV: Final = "JEEVES_RUN_ID"
# The documented input limit of every POST route (413 beyond it): a `prune_text` of a 4 MiB
# text still fits after JSON escaping; the SDK's own 4 MiB default is raised to match.
MAX_REQUEST_BODY_BYTES: Final = 16 * 1024 * 1024
# SIGTERM: in-flight requests get this long to finish before uvicorn cancels them. Shorter
# than the runner's shutdown grace so the server exits on its own instead of being killed.
SHUTDOWN_GRACE_S: Final = 3
# How often the parent-death watcher compares os.getppid() with the parent we started with.
PARENT_POLL_INTERVAL_S: Final = 0.5
CONFIG_FILE_NAME: Final = "jeeves.toml"
USER_CONFIG_PATH: Final = Path(".config/jeeves/config.toml")  # under $HOME


@dataclass(frozen=True)
class ServerSettings:
    """One server process's settings (docs/configuration.md#server-settings)."""

    root: Path
    host: str = "127.0.0.1"
    port: int = 0
    log_format: LogFormat = "json"
    exit_with_parent: bool = True
    allow_remote: bool = False
    token: str | None = field(default=None, repr=False)  # never printed
    max_body_bytes: int = MAX_REQUEST_BODY_BYTES

    @property
    def loopback(self) -> bool:
        return is_loopback(self.host)


def is_loopback(host: str) -> bool:
    """True for `localhost` and any loopback IP literal (127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def build_settings(
    *,
    root: str | Path,
    host: str,
    port: int,
    log_format: str,
    exit_with_parent: bool,
    allow_remote: bool,
    env: Mapping[str, str],
) -> ServerSettings:
    """Check the flags and read the token from `env`.

    Raises:
        ConfigError: the root is not a directory, the port is out of range, the log format
            is unknown, or a non-loopback host is asked for without `--allow-remote`.
    """
    root_path = Path(root).expanduser()
    if not root_path.is_dir():
        raise ConfigError("--root", str(root), "an existing directory")
    if not 0 <= port <= 65535:
        raise ConfigError("--port", port, "0..65535 (0 picks a free port)")
    if log_format not in ("json", "text"):
        raise ConfigError("--log-format", log_format, "json or text")
    if not is_loopback(host) and not allow_remote:
        expected = "a loopback address (127.0.0.1, ::1, localhost) unless --allow-remote"
        raise ConfigError("--host", host, expected)
    token = env.get(TOKEN_ENV) or env.get(CLIENT_TOKEN_ENV) or None
    return ServerSettings(
        root=root_path.resolve(),
        host=host,
        port=port,
        log_format="json" if log_format == "json" else "text",
        exit_with_parent=exit_with_parent,
        allow_remote=allow_remote,
        token=token,
    )


def read_toml_document(root: Path, env: Mapping[str, str]) -> dict[str, object]:
    """The user config (`~/.config/jeeves/config.toml`) with the workspace's `jeeves.toml` over it.

    The workspace file lives in `--root`, the agent's workspace, possibly an untrusted clone:
    it must not decide where pruned content or an API key is sent. Its `UNTRUSTED_KEYS`
    (backend selection and endpoint URLs) are ignored with a `mcp_pruner.config_ignored`
    warning naming the key, and so are its `[gateway.servers]` entries that are not plain
    loopback URLs (a remote URL, or a `bearer_token_env_var` that would send a secret). Those
    come from the environment or the user config only. Everything else merges table by table,
    the workspace's value winning; gateway servers merge by name, each entry whole.

    Raises:
        ConfigError: a file exists but is not valid UTF-8 TOML.
    """
    home = Path(env.get("HOME", os.path.expanduser("~")))
    user = _read_toml(home / USER_CONFIG_PATH)
    workspace_path = root / CONFIG_FILE_NAME
    workspace = _trusted_part(_read_toml(workspace_path), workspace_path)
    return _merge(user, workspace, ())


# Workspace keys that would choose where content goes: env or user config only.
UNTRUSTED_KEYS: Final = {
    "mcp_pruner": ("backend", "endpoint", "pruner_endpoint", "deepinfra_endpoint_url"),
    # where this machine writes its ledger is not a repository's choice
    "ledger": ("path",),
}
_GATEWAY_SERVERS: Final = ("gateway", "servers")
_UNTRUSTED_REASON: Final = (
    "a workspace file may not choose where content is sent: set it in the environment or "
    "~/.config/jeeves/config.toml"
)


def _read_toml(path: Path) -> dict[str, object]:
    if not path.is_file():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(str(path), "<file>", f"a readable TOML document ({exc})") from exc


def _ignored(path: Path, key: str, reason: str) -> None:
    log_event("mcp_pruner.config_ignored", level="warning", file=str(path), variable=key, reason=reason)


def _trusted_part(document: dict[str, object], path: Path) -> dict[str, object]:
    """`document` without the keys a workspace file may not set (each one logged)."""
    out = dict(document)
    for table_name, keys in UNTRUSTED_KEYS.items():
        table = out.get(table_name)
        if not isinstance(table, Mapping):
            continue
        kept = dict(table)
        for key in keys:
            if key in kept:
                del kept[key]
                _ignored(path, f"{table_name}.{key}", _UNTRUSTED_REASON)
        out[table_name] = kept
    gateway = out.get(_GATEWAY_SERVERS[0])
    if isinstance(gateway, Mapping) and isinstance(gateway.get(_GATEWAY_SERVERS[1]), Mapping):
        servers = gateway[_GATEWAY_SERVERS[1]]
        kept_servers = {}
        for name, entry in servers.items():
            problem = _untrusted_server(entry)
            if problem is None:
                kept_servers[name] = entry
            else:
                _ignored(path, f"gateway.servers.{name}", problem)
        out[_GATEWAY_SERVERS[0]] = {**gateway, _GATEWAY_SERVERS[1]: kept_servers}
    return out


def _untrusted_server(entry: object) -> str | None:
    """Why a workspace gateway entry is refused, or None (malformed ones pass: the loader says why)."""
    if isinstance(entry, Mapping):
        if entry.get("bearer_token_env_var") is not None:
            return "a workspace file may not send a secret: set bearer_token_env_var in the user config"
        entry = entry.get("url")
    if not isinstance(entry, str):
        return None
    try:
        host = urlsplit(entry.strip()).hostname
    except ValueError:
        return None
    if host is None or is_loopback(host):
        return None
    return "only loopback URLs in a workspace file: set remote upstreams in the environment or user config"


def _merge(
    base: Mapping[str, object], over: Mapping[str, object], path: tuple[str, ...]
) -> dict[str, object]:
    """`over` on top of `base`, tables merged recursively; gateway server entries replaced whole."""
    out = dict(base)
    for key, value in over.items():
        below = out.get(key)
        if isinstance(value, Mapping) and isinstance(below, Mapping) and path != _GATEWAY_SERVERS:
            out[key] = _merge(below, value, (*path, key))
        else:
            out[key] = value
    return out
