"""Runner configuration: CLI flags > environment > `jeeves.toml` > defaults.

The settings are listed in docs/configuration.md#runner-settings.

`load_config` never raises on bad values: each invalid field falls back to its default and
is reported as a `FieldError`, so the caller can log `mcp_pruner.config_invalid` and run
without the pruner. Secrets (the bearer token, provider API keys) are never read from a
file: the token is generated per run and API keys stay in the environment.

A `jeeves.toml` in the working directory comes with the repository being worked on, so it
may not choose what gets executed nor what the server may touch: the commands and
`root_dir` are taken only from the CLI, the environment or the user's own
`~/.config/jeeves/config.toml`. Set in a project file they are reported (`ignored`) and
not used; the run goes on with the pruner.
"""

from __future__ import annotations

import ipaddress
import os
import shlex
import sys
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from mcp_pruner_server.errors import ConfigError
from mcp_pruner_server.pruning_config import load_pruning_config

# Readiness is bounded by 12 s (docs/configuration.md#runner-settings).
DEFAULT_STARTUP_TIMEOUT_MS = 12_000
# Long enough for a clean uvicorn shutdown of in-flight tool calls, short enough for Ctrl-C.
DEFAULT_SHUTDOWN_TIMEOUT_MS = 3_000
# One cheap loopback GET every 2 s notices an unreachable server within ~N x 2 s.
DEFAULT_PROBE_INTERVAL_MS = 2_000
# A healthy loopback `/healthz` answers in milliseconds; 1 s already means trouble.
DEFAULT_PROBE_TIMEOUT_MS = 1_000
# "N consecutive connect failures" (docs/state-machines.md#run-transitions); 3 rides out one
# slow GC pause or two.
DEFAULT_FAILURE_THRESHOLD = 3

CONFIG_FILE_NAME = "jeeves.toml"
USER_CONFIG_PATH = Path("~/.config/jeeves/config.toml")
# Fields a repository's own `jeeves.toml` may not set: they choose what runs and where.
USER_ONLY_FIELDS = frozenset({"server_command", "claude_command", "codex_command", "root_dir"})
# The table of `jeeves.toml` shared with the server's pruning settings; each reads its own keys.
TOML_TABLE = "mcp_pruner"

# `prefer`: the agent keeps its built-in read/search/shell tools and is told to prefer ours;
# `replace`: the runner removes those built-ins, so the pruned tools are the only way to read.
TOOLS_MODES = ("prefer", "replace")

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


def default_server_command() -> tuple[str, ...]:
    """`python -m mcp_pruner_server` with this interpreter: works without the console script on PATH."""
    return (sys.executable, "-m", "mcp_pruner_server")


@dataclass(frozen=True)
class RunnerConfig:
    """Everything one run needs to decide, start, watch and stop the pruner server."""

    enabled: bool = True
    host: str = "127.0.0.1"
    port: int = 0
    root_dir: Path | None = None  # None: the run's working directory
    server_command: tuple[str, ...] = field(default_factory=default_server_command)
    startup_timeout_ms: int = DEFAULT_STARTUP_TIMEOUT_MS
    shutdown_timeout_ms: int = DEFAULT_SHUTDOWN_TIMEOUT_MS
    probe_interval_ms: int = DEFAULT_PROBE_INTERVAL_MS
    probe_timeout_ms: int = DEFAULT_PROBE_TIMEOUT_MS
    failure_threshold: int = DEFAULT_FAILURE_THRESHOLD
    claude_command: tuple[str, ...] = ("claude",)
    codex_command: tuple[str, ...] = ("codex",)
    tools_mode: str = TOOLS_MODES[0]


@dataclass(frozen=True)
class FieldError:
    """One invalid setting: which field, where it came from, what was wrong."""

    field: str
    source: str
    value: str
    message: str

    def to_dict(self) -> dict[str, str]:
        """The JSON shape logged in `mcp_pruner.config_invalid`."""
        return {"field": self.field, "source": self.source, "value": self.value, "message": self.message}


@dataclass(frozen=True)
class ConfigResult:
    """The config to use and the problems found while building it."""

    config: RunnerConfig
    errors: tuple[FieldError, ...] = ()
    config_file: Path | None = None
    # Settings a project `jeeves.toml` may not make (USER_ONLY_FIELDS): not used, not fatal.
    ignored: tuple[FieldError, ...] = ()
    # Where each field's value came from: "cli", "env:VAR", the file's path; absent: the default.
    sources: Mapping[str, str] = field(default_factory=dict)
    # Tables and keys of the config file that nothing reads (`config_keys`), one sentence each.
    unknown: tuple[str, ...] = ()


class _Invalid(ValueError):
    pass


def _parse_bool(raw: str) -> bool:
    word = raw.strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise _Invalid("expected one of 1/true/yes/on or 0/false/no/off")


def _int_in(low: int, high: int) -> Callable[[str], int]:
    def parse(raw: str) -> int:
        try:
            value = int(raw.strip())
        except ValueError:
            raise _Invalid("expected an integer") from None
        if not low <= value <= high:
            raise _Invalid(f"expected an integer in {low}..{high}")
        return value

    return parse


def _parse_host(raw: str) -> str:
    host = raw.strip()
    if host == "localhost":
        return host
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        raise _Invalid("expected a loopback address (127.0.0.0/8, ::1 or localhost)") from None
    if not address.is_loopback:
        raise _Invalid("the pruner binds loopback only (127.0.0.0/8, ::1 or localhost)")
    return host


def _dir_under(base: Path) -> Callable[[str], Path]:
    def parse(raw: str) -> Path:
        path = base / Path(raw).expanduser()  # a relative path is taken from the run's cwd
        if not path.is_dir():
            raise _Invalid("expected an existing directory")
        return path.resolve()

    return parse


def _parse_dir(raw: str) -> Path:
    return _dir_under(Path.cwd())(raw)


def _parse_command(raw: str) -> tuple[str, ...]:
    try:
        argv = tuple(shlex.split(raw))
    except ValueError as exc:
        raise _Invalid(f"not a valid shell-quoted command: {exc}") from None
    if not argv:
        raise _Invalid("expected a non-empty command")
    return argv


def _parse_tools_mode(raw: str) -> str:
    mode = raw.strip().lower()
    if mode not in TOOLS_MODES:
        raise _Invalid(f"expected one of {', '.join(TOOLS_MODES)}")
    return mode


# field name -> (environment variable, TOML key or None, parser)
_SETTINGS: dict[str, tuple[str, str | None, Callable[[str], object]]] = {
    "enabled": ("JEEVES_MCP_PRUNER_ENABLED", "enabled", _parse_bool),
    "host": ("JEEVES_MCP_PRUNER_HOST", "host", _parse_host),
    "port": ("JEEVES_MCP_PRUNER_PORT", "port", _int_in(0, 65_535)),
    "root_dir": ("JEEVES_MCP_PRUNER_ROOT_DIR", "root_dir", _parse_dir),
    "server_command": ("JEEVES_MCP_PRUNER_COMMAND", "server_command", _parse_command),
    "startup_timeout_ms": (
        "JEEVES_MCP_PRUNER_STARTUP_TIMEOUT_MS",
        "startup_timeout_ms",
        _int_in(100, 120_000),
    ),
    "shutdown_timeout_ms": (
        "JEEVES_MCP_PRUNER_SHUTDOWN_TIMEOUT_MS",
        "shutdown_timeout_ms",
        _int_in(0, 60_000),
    ),
    "probe_interval_ms": ("JEEVES_MCP_PRUNER_PROBE_INTERVAL_MS", "probe_interval_ms", _int_in(10, 600_000)),
    "probe_timeout_ms": ("JEEVES_MCP_PRUNER_PROBE_TIMEOUT_MS", "probe_timeout_ms", _int_in(10, 60_000)),
    "failure_threshold": ("JEEVES_MCP_PRUNER_FAILURE_THRESHOLD", "failure_threshold", _int_in(1, 1_000)),
    "claude_command": ("JEEVES_CLAUDE_COMMAND", "claude_command", _parse_command),
    "codex_command": ("JEEVES_CODEX_COMMAND", "codex_command", _parse_command),
    "tools_mode": ("JEEVES_MCP_PRUNER_TOOLS_MODE", "tools_mode", _parse_tools_mode),
}


_USER_ONLY_MESSAGE = (
    "ignored: a project jeeves.toml cannot set commands or root_dir; use the CLI, the environment"
    " or ~/.config/jeeves/config.toml"
)


def find_config_file(cwd: Path, home: Path) -> Path | None:
    """`jeeves.toml` in `cwd`, else `~/.config/jeeves/config.toml`, else None (first found wins)."""
    for candidate in (cwd / CONFIG_FILE_NAME, home / USER_CONFIG_PATH.relative_to("~")):
        if candidate.is_file():
            return candidate
    return None


def _toml_raw(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return shlex.join(str(v) for v in value)
    return str(value)


def _read_toml(path: Path) -> tuple[dict[str, object], dict[str, str], list[FieldError]]:
    """The whole document, our fields' raw values, and problems (keys we do not own are skipped)."""
    source = str(path)
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return {}, {}, [FieldError("<file>", source, "", f"unreadable TOML: {exc}")]
    table = document.get(TOML_TABLE, {})
    if not isinstance(table, dict):
        return {}, {}, [FieldError(TOML_TABLE, source, "", "expected a table")]
    by_key = {key: name for name, (_, key, _) in _SETTINGS.items() if key is not None}
    values = {by_key[key]: _toml_raw(value) for key, value in table.items() if key in by_key}
    return document, values, []


def _pruning_errors(env: Mapping[str, str], document: Mapping[str, object]) -> list[FieldError]:
    """The server's own pruning settings, checked by the server's loader.

    The settings: docs/configuration.md#pruning-settings.

    They are not passed on: the server reads the same environment and `jeeves.toml`. Checking
    them here turns a bad value into `config_invalid` before a doomed server is spawned.
    """
    try:
        load_pruning_config(env, document)
    except ConfigError as exc:
        value = "<redacted>" if exc.value == "<redacted>" else str(exc.value)
        return [FieldError(exc.variable, "pruning", value, f"expected {exc.expected}")]
    return []


def _as_the_server_reads_it(project_document: Mapping[str, object]) -> dict[str, object]:
    """A project file without the keys the server ignores in it (`settings.UNTRUSTED_KEYS`).

    Checking them would turn a key the server never uses into `config_invalid`, so a
    workspace file could switch the pruner off for the whole run.
    """
    from mcp_pruner_server.settings import UNTRUSTED_KEYS  # the server's logging stack: only when needed

    out = dict(project_document)
    for table_name, keys in UNTRUSTED_KEYS.items():
        table = out.get(table_name)
        if isinstance(table, Mapping):
            out[table_name] = {k: v for k, v in table.items() if k not in keys}
    return out


def load_config(
    *,
    cli: Mapping[str, str | None] | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    home: Path | None = None,
) -> ConfigResult:
    """Build the run's config from CLI overrides (field name -> raw text), env, TOML and defaults.

    A value given at a higher level hides lower ones, even when it is invalid: an invalid
    value is reported and its field keeps its default.
    """
    env = os.environ if env is None else env
    cwd = Path.cwd() if cwd is None else cwd
    home = Path.home() if home is None else home
    file = find_config_file(cwd, home)
    document: dict[str, object] = {}
    file_values: dict[str, str] = {}
    errors: list[FieldError] = []
    ignored: list[FieldError] = []
    from_project = file is not None and file == cwd / CONFIG_FILE_NAME
    if file is not None:
        document, file_values, errors = _read_toml(file)
    errors += _pruning_errors(env, _as_the_server_reads_it(document) if from_project else document)
    # Any: each parser returns its own field's type, which the table cannot express.
    overrides: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for name, (env_var, _, parse) in _SETTINGS.items():
        if name == "root_dir":
            parse = _dir_under(cwd)
        layers = (
            ("cli", (cli or {}).get(name)),
            (f"env:{env_var}", env.get(env_var)),
            (str(file), file_values.get(name)),
        )
        for source, raw in layers:
            if raw is None or (source.startswith("env:") and raw == ""):
                continue
            if from_project and source == str(file) and name in USER_ONLY_FIELDS:
                ignored.append(FieldError(name, source, raw, _USER_ONLY_MESSAGE))
                continue
            try:
                overrides[name] = parse(raw)
                sources[name] = source
            except _Invalid as exc:
                errors.append(FieldError(name, source, raw, str(exc)))
            break
    config = replace(RunnerConfig(), **overrides)
    from runner.config_keys import unknown_keys

    runner_keys = [key for _, key, _ in _SETTINGS.values() if key is not None]
    unknown = tuple(f"{file}: {problem}" for problem in unknown_keys(document, runner_keys))
    return ConfigResult(
        config=config,
        errors=tuple(errors),
        config_file=file,
        ignored=tuple(ignored),
        sources=sources,
        unknown=unknown,
    )
