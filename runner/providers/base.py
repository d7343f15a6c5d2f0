"""The `Provider` protocol: how one kind of agent is launched, with or without our MCP server.

A provider turns the user's arguments and, when the pruner is healthy, its endpoint into a
`Launch` (argv + environment changes). It never starts processes itself: `runner.run`
supervises whatever it returns, so a new provider (claude, codex, command, and later demo)
is only a few lines of argv building.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

# The name the agents see the server under: Claude exposes its tools as `mcp__jeeves_pruner__*`.
SERVER_KEY = "jeeves_pruner"
URL_ENV = "JEEVES_MCP_URL"
TOKEN_ENV = "JEEVES_MCP_TOKEN"
# Claude Code and Codex hand their model the JSON of `structuredContent` when a result has one;
# with this header our server leaves it out, so the model reads the plain text block.
RESULT_VIEW_HEADERS = {"X-Jeeves-Result-View": "text"}
# Never inherited by a provider: stale endpoints from an outer run, and the server's own secret.
_SCRUBBED_ENV = frozenset({URL_ENV, TOKEN_ENV, "JEEVES_MCP_PRUNER_TOKEN"})


@dataclass(frozen=True)
class McpEndpoint:
    """A healthy pruner server: where it listens and the bearer token it expects."""

    url: str
    token: str


@dataclass(frozen=True)
class Launch:
    """What to execute for the provider: argv and the variables to add to its environment."""

    argv: tuple[str, ...]
    env: Mapping[str, str] = field(default_factory=dict)

    def environment(self, base: Mapping[str, str] | None = None) -> dict[str, str]:
        """`base` (default: ours) without inherited MCP endpoints, plus this launch's variables."""
        source = os.environ if base is None else base
        env = {k: v for k, v in source.items() if k not in _SCRUBBED_ENV}
        env.update(self.env)
        return env


class Provider(Protocol):
    """One kind of agent the runner can start next to the pruner."""

    @property
    def name(self) -> str:
        """The `--provider` value that selects it."""
        ...

    def launch(self, user_args: Sequence[str], endpoint: McpEndpoint | None, scratch: Path) -> Launch:
        """The command to run; `endpoint` is None when the pruner is disabled or degraded.

        `scratch` is a private (0700) directory removed after the run, for config files.
        """
        ...
