"""Where our tools, the guidance and the tool results sit in a Claude Code or a Codex request."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from runner.bench.tokens import count_tokens
from tests.interop.agent_script import Script
from tests.interop.fake_models import Brain, FinalText, JsonDict, Turn
from tests.interop.interop_support import (
    SERVER_NAME_IN_CLIENTS,
)

NAMESPACE = f"mcp__{SERVER_NAME_IN_CLIENTS}"


def _text_of(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(block.get("text", "")) for block in content if isinstance(block, dict) and "text" in block
        )
    return ""


def claude_results(body: JsonDict) -> list[str]:
    results = []
    for message in body.get("messages", []):
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    results.append(_text_of(block.get("content")))
    return results


def codex_results(body: JsonDict) -> list[str]:
    return [
        _text_of(item.get("output"))
        for item in body.get("input", [])
        if isinstance(item, dict) and item.get("type") == "function_call_output"
    ]


def claude_our_tools(body: JsonDict) -> dict[str, JsonDict]:
    prefix = f"{NAMESPACE}__"
    return {
        t["name"].removeprefix(prefix): t
        for t in body.get("tools", [])
        if t.get("name", "").startswith(prefix)
    }


def codex_namespace(body: JsonDict) -> JsonDict | None:
    return next((t for t in body.get("tools", []) if t.get("name") == NAMESPACE), None)


def codex_our_tools(body: JsonDict) -> dict[str, JsonDict]:
    namespace = codex_namespace(body)
    return {t["name"]: t for t in (namespace or {}).get("tools", [])}


def claude_tool_names(body: JsonDict) -> list[str]:
    return [str(t.get("name")) for t in body.get("tools", [])]


def codex_tool_names(body: JsonDict) -> list[str]:
    return [str(t.get("name")) for t in body.get("tools", [])]


def claude_instructions(body: JsonDict) -> str:
    return _text_of(body.get("system"))


def codex_instructions(body: JsonDict) -> str:
    return "\n".join(
        _text_of(item.get("content"))
        for item in body.get("input", [])
        if isinstance(item, dict) and item.get("role") == "developer"
    )


@dataclass(frozen=True)
class Dialect:
    """How one agent's requests are read."""

    agent: str
    kind: str  # the fake model's wire format
    results: Callable[[JsonDict], list[str]]  # every tool result text, in order
    our_tools: Callable[[JsonDict], dict[str, JsonDict]]  # our tool definitions by short name
    tool_names: Callable[[JsonDict], list[str]]  # every tool the model may call
    instructions: Callable[[JsonDict], str]  # the system / developer prompt text

    def tool_definition_tokens(self, body: JsonDict) -> int:
        """Tokens our tool definitions add to a request, as the agent serialized them."""
        if self.agent == "codex":
            return count_tokens(json.dumps(codex_namespace(body), ensure_ascii=False))
        return sum(count_tokens(json.dumps(t, ensure_ascii=False)) for t in self.our_tools(body).values())


CLAUDE = Dialect(
    "claude", "anthropic", claude_results, claude_our_tools, claude_tool_names, claude_instructions
)
CODEX = Dialect("codex", "responses", codex_results, codex_our_tools, codex_tool_names, codex_instructions)
DIALECTS = {"claude": CLAUDE, "codex": CODEX}


def brain_for(dialect: Dialect, script: Script) -> Brain:
    def brain(body: JsonDict) -> Turn:
        if "read" not in dialect.our_tools(body):
            return FinalText("ok")  # a side request (a title, a summary): not the agent loop
        return script.next_turn(dialect.results(body))

    return brain
