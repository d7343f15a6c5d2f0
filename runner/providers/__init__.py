"""Agent providers the runner can supervise: one protocol, one small module each."""

from __future__ import annotations

from runner.config import RunnerConfig
from runner.errors import RunnerError
from runner.providers.base import Launch, McpEndpoint, Provider
from runner.providers.claude import ClaudeProvider
from runner.providers.codex import CodexProvider
from runner.providers.command import CommandProvider
from runner.providers.demo import DemoProvider

PROVIDER_NAMES = ("claude", "codex", "command", "demo")

__all__ = ["PROVIDER_NAMES", "Launch", "McpEndpoint", "Provider", "get_provider"]


def get_provider(name: str, config: RunnerConfig) -> Provider:
    """The provider called `name`, configured from `config`.

    Raises:
        RunnerError: no provider has that name.
    """
    if name == "claude":
        return ClaudeProvider(command=config.claude_command, tools_mode=config.tools_mode)
    if name == "codex":
        return CodexProvider(command=config.codex_command, tools_mode=config.tools_mode)
    if name == "command":
        return CommandProvider()
    if name == "demo":
        return DemoProvider()
    raise RunnerError(f"unknown provider {name!r} (choose from {', '.join(PROVIDER_NAMES)})")
