"""`jeeves config`: the settings in effect here and where each one came from.

Two groups, as the code reads them: the runner's (`runner.config`: `jeeves run` and `jeeves
serve`) and the server's pruning settings (`pruning_config`, from the environment and the
`[mcp_pruner]` table of `~/.config/jeeves/config.toml` merged with `./jeeves.toml`). A problem
that would run an agent without the pruner is listed last, with that consequence.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from pathlib import Path

import typer

# Pruning fields not in `pruning_config.INT_SETTINGS`: their variables and TOML keys.
_PRUNING_SOURCES: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "backend": (("JEEVES_PRUNING_BACKEND", "KIMI_PRUNING_BACKEND"), ("backend",)),
    "endpoint": (("JEEVES_PRUNER_ENDPOINT",), ("endpoint", "pruner_endpoint")),
    "http_protocol": (("JEEVES_PRUNER_PROTOCOL",), ("http_protocol",)),
    "deepinfra_api_key": (("DEEPINFRA_API_KEY",), ()),
    "deepinfra_endpoint_url": (("DEEPINFRA_ENDPOINT_URL",), ("deepinfra_endpoint_url",)),
}
_SECRET_FIELDS = frozenset({"deepinfra_api_key"})
_NAME_WIDTH = 22
_VALUE_WIDTH = 40


# `jeeves config` found a setting that would run the agent without the pruner.
EXIT_PROBLEM = 1


def _row(name: str, value: object, source: str) -> str:
    shown = value if isinstance(value, str) else ("" if value is None else str(value))
    if isinstance(value, bool):
        shown = str(value).lower()
    if isinstance(value, tuple):
        shown = " ".join(str(v) for v in value)
    return f"  {name:<{_NAME_WIDTH}} {shown or '-':<{_VALUE_WIDTH}} {source}"


def _pruning_rows(env: Mapping[str, str], root: Path) -> tuple[list[str], str | None]:
    from mcp_pruner_server.errors import ConfigError
    from mcp_pruner_server.pruning_config import INT_SETTINGS, TOML_TABLE, PruningConfig, load_pruning_config
    from mcp_pruner_server.settings import read_toml_document

    try:
        document = read_toml_document(root, env)
        config = load_pruning_config(env, document)
        problem = None
    except ConfigError as exc:
        document, config = {}, PruningConfig()
        problem = f"{exc.variable}={exc.value}: expected {exc.expected}"
    table = document.get(TOML_TABLE, {})
    table = table if isinstance(table, Mapping) else {}
    places = {name: (s.env, s.toml) for name, s in INT_SETTINGS.items()} | dict(_PRUNING_SOURCES)
    rows = []
    for item in dataclasses.fields(config):
        value = getattr(config, item.name)
        env_names, keys = places.get(item.name, ((), ()))
        source = next((f"env:{n}" for n in env_names if env.get(n)), None)
        source = source or next((f"[{TOML_TABLE}] {k} (config file)" for k in keys if k in table), "default")
        if item.name in _SECRET_FIELDS:
            value = "<set>" if value else None
        rows.append(_row(item.name, value, source))
    return rows, problem


def config_command() -> None:
    """Print the settings in effect here and where each came from (flag, variable, file, default)."""
    from runner.config import load_config

    result = load_config()
    lines = ["runner (jeeves run, jeeves serve):"]
    for item in dataclasses.fields(result.config):
        value = getattr(result.config, item.name)
        if item.name == "root_dir" and value is None:
            value = "(the working directory)"
        lines.append(_row(item.name, value, result.sources.get(item.name, "default")))
    pruning, pruning_problem = _pruning_rows(os.environ, (result.config.root_dir or Path.cwd()))
    header = "pruning (the server):"
    if pruning_problem:
        header = "pruning (the server; INVALID, so the tools run unpruned and these are the defaults):"
    lines += ["", header, *pruning, ""]
    lines.append(
        f"config file: {result.config_file or 'none'} (jeeves run reads the first of ./jeeves.toml, "
        "~/.config/jeeves/config.toml)"
    )
    for unknown in result.unknown:
        lines.append(f"warning: {unknown}")
    for ignored in result.ignored:
        lines.append(f"ignored: {ignored.field}={ignored.value} in {ignored.source}: {ignored.message}")
    problems = [f"{e.source}: {e.field}={e.value}: {e.message}" for e in result.errors]
    if pruning_problem and not any(pruning_problem.split("=")[0] in p for p in problems):
        problems.append(pruning_problem)
    for problem in problems:
        lines.append(f"problem: {problem} -> jeeves run starts the agent without the pruner")
    typer.echo("\n".join(lines))
    if problems:  # a script checking the configuration sees it fail, not only a reader
        raise typer.Exit(EXIT_PROBLEM)
