"""Issue 11: what the model actually receives from the real Claude Code and Codex under `jeeves run`.

Each test plays the scripted debugging session of `agent_script.py` through the real agent and
asserts on the requests the scripted model recorded: our schemas in the first request, the
guidance in the system/developer prompt, every tool result plain numbered text close to the
size of its kept lines and never more tokens than the built-in tool's output, every needed line
delivered (a file printed through `bash` shows the
lines its `read` shows), and in `replace` mode no built-in
read/search/shell tool. The per-step token table is printed (`pytest -s` shows it).
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from runner.providers.guidance import guidance_text
from tests.interop.agent_loop import CLAUDE_BUILTINS, CODEX_SHELL_TOOLS, AgentRun, run_agent
from tests.interop.agent_report import kept_chars, needed_lines_missing, report, step_tokens
from tests.interop.agent_script import ANSWER, plain
from tests.interop.interop_support import MODEL_TOOLS, client_env, jeeves_executable

pytestmark = [pytest.mark.real_client, pytest.mark.anyio]

# The bound on what a result may add to its kept lines (headers, trailer, the agent's envelope).
ENVELOPE_RATIO = 1.1
ENVELOPE_CHARS = 200
# What a tool result must never look like to the model: the JSON of the whole result.
JSON_ENVELOPE_KEYS = ('"tool":', '"pruning":', '"structuredContent"')
# The ceiling on what our tool definitions add to every request.
MAX_TOOL_DEFINITION_TOKENS = 1_000
# `jeeves run`'s last line: the session's line from the ledger (issue 31).
LEDGER_LINE = re.compile(r"ledger: session (\S+): ")
GAIN_TIMEOUT_S = 30.0


def check_session(run: AgentRun) -> None:
    rows = step_tokens(run)  # runs the built-in commands once: the session's bound is tight
    print(report(run, rows))  # the per-step table, shown by `pytest -s`
    assert run.returncode == 0, run.describe()
    assert run.model_errors == (), run.describe()
    assert ANSWER in run.stdout, run.describe()
    first = run.loop_requests[0]
    dialect = run.dialect

    ours = dialect.our_tools(first)
    assert set(ours) == set(MODEL_TOOLS), sorted(ours)
    for name in ("read", "grep", "bash"):
        # Claude's tools carry `input_schema`, Codex's `parameters`.
        schema = ours[name]["input_schema"] if run.agent == "claude" else ours[name]["parameters"]
        assert "context_focus_question" in schema["properties"], (name, ours[name])
    assert dialect.tool_definition_tokens(first) <= MAX_TOOL_DEFINITION_TOKENS

    assert guidance_text() in dialect.instructions(first)

    results = run.results
    assert len(results) == 5, run.describe()
    *outputs, recovered = (plain(received) for received in results)
    for received, text in zip(results, outputs, strict=False):
        assert not text.lstrip().startswith("{"), text[:300]
        assert not any(key in text for key in JSON_ENVELOPE_KEYS), text[:300]
        kept = kept_chars(text)
        assert kept > 0, text[:300]
        assert len(received) <= ENVELOPE_RATIO * kept + ENVELOPE_CHARS, (len(received), kept, received[:300])
    # the recovered lines come back as they are (the script asks them without numbers)
    assert len(results[-1]) <= ENVELOPE_RATIO * len(recovered) + ENVELOPE_CHARS, results[-1]
    # our text block against the built-in's output, both without the agent's wrapper
    for row in rows:
        assert row.ours_tokens <= row.raw_tokens, row
    assert needed_lines_missing(run) == []


def check_ledger(run: AgentRun, home: Path) -> None:
    """`jeeves gain --session` shows the session as the scripted model played it: its five calls,
    the one `recover_text` of the read's prune_id, the one re-read (the file printed through bash)."""
    match = LEDGER_LINE.search(run.stderr)
    assert match is not None, run.describe()
    argv = [str(jeeves_executable()), "gain", "--session", match[1], "--json"]
    done = subprocess.run(
        argv, env=client_env(home), capture_output=True, text=True, timeout=GAIN_TIMEOUT_S, check=False
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    calls, totals = report["calls"], report["totals"]
    print(subprocess.run(argv[:-1], env=client_env(home), capture_output=True, text=True, check=False).stdout)
    assert [c["tool"] for c in calls] == ["read", "grep", "bash", "bash", "recover_text"]
    assert (totals["recover_calls"], totals["recovered"], totals["rereads"]) == (1, 1, 1)
    assert calls[4]["recovers"] == calls[0]["id"]
    assert [c["reread"] for c in calls] == [False, False, False, True, False]
    assert calls[0]["outcome"] == "pruned"
    assert totals["sent_tokens"] < totals["raw_tokens"]
    assert all(c["agent"] for c in calls), calls  # the client's name from its `initialize`


async def test_claude_code_under_jeeves_run_gets_our_tools_the_guidance_and_plain_text(
    tmp_path: Path,
) -> None:
    run = await run_agent("claude", tmp_path)

    check_session(run)
    check_ledger(run, tmp_path / "home")
    # prefer keeps the built-ins, and tool search stays on for the user's other tools.
    assert {"Read", "Bash", "ToolSearch"} <= set(run.dialect.tool_names(run.loop_requests[0]))


async def test_codex_under_jeeves_run_gets_our_tools_the_guidance_and_plain_text(tmp_path: Path) -> None:
    run = await run_agent("codex", tmp_path)

    check_session(run)
    check_ledger(run, tmp_path / "home")
    assert "exec_command" in run.dialect.tool_names(run.loop_requests[0])  # prefer keeps it


async def test_claude_code_in_replace_mode_has_no_builtin_read_search_or_shell_tool(tmp_path: Path) -> None:
    run = await run_agent("claude", tmp_path, tools_mode="replace")

    check_session(run)
    for request in run.loop_requests:
        assert not set(CLAUDE_BUILTINS) & set(run.dialect.tool_names(request))


async def test_codex_in_replace_mode_has_no_shell_tool(tmp_path: Path) -> None:
    run = await run_agent("codex", tmp_path, tools_mode="replace")

    check_session(run)
    for request in run.loop_requests:
        assert not set(CODEX_SHELL_TOOLS) & set(run.dialect.tool_names(request))
