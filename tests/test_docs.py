"""`docs/` against the code: the state machines' tables and diagrams, and every setting.

Each check compares sets both ways, so a transition, state or environment variable added to
the code without the docs (or documented without existing) fails here with the difference.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from mcp_pruner_server import jsonrpc
from mcp_pruner_server.errors import DomainRpcError
from mcp_pruner_server.gateway import errors as gateway_errors
from mcp_pruner_server.pipeline import states as pipeline
from mcp_pruner_server.tools.schemas import TOOL_SPECS
from runner import states
from tools_exec.errors import ToolExecError

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PACKAGES = ("runner", "mcp_pruner_server", "tools_exec")
# The prefixes of the variables the code reads or sets (ours, and the original contract's
# compatibility names).
ENV_VAR = re.compile(r"\b(?:JEEVES|KIMI|MCP_PRUNER|DEEPINFRA)_[A-Z0-9_]*[A-Z0-9]\b")
# String constants of that shape that are not environment variables (none today).
NOT_ENV_VARS: frozenset[str] = frozenset()
_EDGE = re.compile(r"^\s*(\[\*\]|\w+)\s*-->\s*(\[\*\]|\w+)\s*(?::\s*(.*?))?\s*$")
_CELL_CODE = re.compile(r"`([^`]*)`")

Edge = tuple[str, str, tuple[str, ...]]


def _section(path: Path, heading: str) -> str:
    """The text under `## heading` up to the next `## ` heading."""
    text = path.read_text(encoding="utf-8")
    parts = re.split(r"^## ", text, flags=re.MULTILINE)
    for part in parts[1:]:
        title, _, body = part.partition("\n")
        if title.strip() == heading:
            return body
    raise AssertionError(f"{path.name} has no '## {heading}' section")


def _mermaid_edges(section: str) -> list[Edge]:
    """`(source, target, labels)` of the one mermaid `stateDiagram-v2` in `section`."""
    blocks = re.findall(r"^```mermaid\n(.*?)^```", section, flags=re.MULTILINE | re.DOTALL)
    assert len(blocks) == 1, f"expected one mermaid block, found {len(blocks)}"
    lines = blocks[0].splitlines()
    assert lines[0].strip() == "stateDiagram-v2"
    edges: list[Edge] = []
    for line in lines[1:]:
        if not line.strip() or line.strip().startswith("%%"):
            continue
        match = _EDGE.match(line)
        assert match is not None, f"not an edge: {line!r}"
        source, target, label = match.groups()
        labels = tuple(s.strip() for s in label.split(",")) if label else ()
        edges.append((source, target, labels))
    return edges


def _table(section: str, first_header: str) -> list[list[str]]:
    """The rows of the markdown table whose header starts with `| first_header |`, as cells."""
    lines = section.splitlines()
    for i, line in enumerate(lines):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] == first_header:
            rows = []
            for row in lines[i + 2 :]:
                if not row.startswith("|"):
                    break
                rows.append([c.strip() for c in row.strip().strip("|").split("|")])
            return rows
    raise AssertionError(f"no table with a '{first_header}' column")


def _code(cell: str) -> str:
    """The `code` in a table cell; '' for a dash."""
    match = _CELL_CODE.search(cell)
    return match.group(1) if match else ""


# --- run:* -------------------------------------------------------------------------------

RUN = DOCS / "state-machines.md"


def _run_name(state: states.RunState) -> str:
    return state.value


def _run_id(state: states.RunState) -> str:
    """A state as the diagram names it: mermaid ids cannot hold the `run:` prefix's colon."""
    return state.value.removeprefix("run:")


def test_the_run_states_table_lists_every_run_state() -> None:
    rows = _table(_section(RUN, "Run machine"), "State")
    assert {_code(r[0]) for r in rows} == {_run_name(s) for s in states.RunState}


def test_the_run_transitions_table_is_the_code_table() -> None:
    rows = _table(_section(RUN, "Run machine"), "From")
    documented = {(_code(r[0]), _code(r[1]), r[2]) for r in rows}
    code = {(_run_name(t.source), _run_name(t.target), t.condition) for t in states.TRANSITIONS}
    assert documented == code
    assert len(rows) == len(states.TRANSITIONS)


def test_the_run_diagram_has_the_code_edges_and_ends() -> None:
    edges = _mermaid_edges(_section(RUN, "Run machine"))
    moves = {(s, t) for s, t, _ in edges if "[*]" not in (s, t)}
    assert moves == {(_run_id(t.source), _run_id(t.target)) for t in states.TRANSITIONS}
    assert {t for s, t, _ in edges if s == "[*]"} == {_run_id(states.INITIAL_STATE)}
    assert {s for s, t, _ in edges if t == "[*]"} == {_run_id(s) for s in states.TERMINAL_STATES}


# --- req:* -------------------------------------------------------------------------------


def _req_code_edges() -> set[tuple[str, str, str]]:
    return {
        (src.value, trigger.value, dst.value) for (src, trigger), (dst, _) in pipeline.TRANSITIONS.items()
    }


def test_the_request_states_table_lists_every_request_state() -> None:
    rows = _table(_section(RUN, "Request machine"), "State")
    assert {_code(r[0]) for r in rows} == {s.value for s in pipeline.ReqState}


def test_the_request_transitions_table_is_the_code_table_with_its_events() -> None:
    rows = _table(_section(RUN, "Request machine"), "From")
    documented = {(_code(r[0]), _code(r[1]), _code(r[2]), _code(r[3]) or None) for r in rows}
    code = {
        (src.value, trigger.value, dst.value, event)
        for (src, trigger), (dst, event) in pipeline.TRANSITIONS.items()
    }
    assert documented == code
    assert len(rows) == len(pipeline.TRANSITIONS)


def test_the_request_diagram_has_the_code_edges_and_triggers_and_ends() -> None:
    edges = _mermaid_edges(_section(RUN, "Request machine"))
    prefix = "req:"
    drawn = {
        (prefix + s, label, prefix + t) for s, t, labels in edges if "[*]" not in (s, t) for label in labels
    }
    assert drawn == _req_code_edges()
    assert {prefix + t for s, t, _ in edges if s == "[*]"} == {pipeline.ReqState.RECEIVED.value}
    assert {prefix + s for s, t, _ in edges if t == "[*]"} == {s.value for s in pipeline.TERMINAL_STATES}


# --- settings ----------------------------------------------------------------------------


def _string_constants(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value


def _env_vars_in_code() -> set[str]:
    """Every string constant of the packages that is a whole variable name of our prefixes."""
    found = {
        value
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        for value in _string_constants(path)
        if ENV_VAR.fullmatch(value)
    }
    return found - NOT_ENV_VARS


def test_every_environment_variable_of_the_code_is_in_the_configuration_reference_and_back() -> None:
    documented = set(ENV_VAR.findall((DOCS / "configuration.md").read_text(encoding="utf-8")))
    code = _env_vars_in_code()
    assert code - documented == set(), "in the code, missing from docs/configuration.md"
    assert documented - code == set(), "in docs/configuration.md, unknown to the code"


# --- tools -------------------------------------------------------------------------------


def test_every_tool_and_every_argument_is_in_the_tool_contract() -> None:
    text = (DOCS / "tools.md").read_text(encoding="utf-8")
    rows = _table(_section(DOCS / "tools.md", "Tools at a glance"), "tool")
    assert [_code(r[0]) for r in rows] == [spec.name for spec in TOOL_SPECS]
    named = set(_CELL_CODE.findall(text))
    for spec in TOOL_SPECS:
        properties = set(spec.input_schema["properties"])
        options = spec.input_schema["properties"].get("options", {}).get("properties", {})
        assert properties | set(options) <= named, f"{spec.name}: arguments missing from docs/tools.md"


# --- error codes -------------------------------------------------------------------------


def _negative_int_constants(path: Path) -> Iterator[int]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.UnaryOp)
            and isinstance(node.op, ast.USub)
            and isinstance(node.operand, ast.Constant)
            and type(node.operand.value) is int
        ):
            yield -node.operand.value


def _is_json_rpc_code(value: object) -> bool:
    """In JSON-RPC's reserved range (-32768..-32000), where every code the server sends lies."""
    return type(value) is int and -32768 <= value <= -32000


def _rpc_code_rows() -> dict[int, list[str]]:
    rows = _table(_section(DOCS / "http.md", "JSON-RPC error codes"), "code")
    return {int(r[0]): r for r in rows}


def test_the_json_rpc_error_code_table_is_the_constants_of_the_jsonrpc_module() -> None:
    constants = {name: value for name, value in vars(jsonrpc).items() if _is_json_rpc_code(value)}
    rows = _table(_section(DOCS / "http.md", "JSON-RPC error codes"), "code")
    assert sorted(int(r[0]) for r in rows) == sorted(constants.values())


def test_no_module_but_the_jsonrpc_module_writes_a_json_rpc_error_code_as_a_number() -> None:
    home = ROOT / "mcp_pruner_server" / "jsonrpc.py"
    bare = {
        f"{path.relative_to(ROOT)}: {value}"
        for path in (ROOT / "mcp_pruner_server").rglob("*.py")
        if path != home
        for value in _negative_int_constants(path)
        if _is_json_rpc_code(value)
    }
    assert bare == set(), "use the named constants of mcp_pruner_server/jsonrpc.py"


def _leaf_subclasses(cls: type[DomainRpcError]) -> Iterator[type[DomainRpcError]]:
    for sub in cls.__subclasses__():
        if sub.__subclasses__():
            yield from _leaf_subclasses(sub)
        else:
            yield sub


def test_every_domain_error_is_named_in_the_row_of_its_json_rpc_code() -> None:
    rows = _rpc_code_rows()
    errors = list(_leaf_subclasses(DomainRpcError))
    assert gateway_errors.UnknownServerError in errors  # the gateway's are among them
    for error in errors:
        assert error.code in _CELL_CODE.findall(rows[error.rpc_code][1]), error.__name__


def test_the_refusal_table_is_the_refusals_of_the_jsonrpc_module() -> None:
    rows = _table(_section(DOCS / "http.md", "Request guard"), "status")
    documented = {int(r[0].split()[0]): (int(r[1]), _code(r[2])) for r in rows}
    assert documented == dict(jsonrpc.REFUSALS)


def _subclasses(cls: type[ToolExecError]) -> Iterator[type[ToolExecError]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def test_every_tool_error_code_is_in_the_tool_contract_and_back() -> None:
    # `nonzero_exit` is the one code a tool makes itself (`bash_tool.py`): a bash exit is not an exception.
    code = {sub.code for sub in _subclasses(ToolExecError)} | {"nonzero_exit"}
    rows = _table(_section(DOCS / "tools.md", "Tool errors"), "code")
    assert {_code(r[0]) for r in rows} == code


@pytest.mark.parametrize("name", [*sorted(p.name for p in DOCS.glob("*.md")), "../README.md"])
def test_every_relative_link_of_the_docs_points_at_an_existing_heading(name: str) -> None:
    text = (DOCS / name).read_text(encoding="utf-8")
    if name.startswith(".."):  # the README links relative to the repository's root
        text = re.sub(r"\]\((?!\.\./|#)([\w./-]*\.md)#", r"](../\1#", text)
        text = text.replace("](docs/", "](")
    for target, anchor in re.findall(r"\]\(([\w./-]*\.md|)#([\w-]+)\)", text):
        linked = DOCS / (target or name) if not target.startswith("..") else (DOCS / target).resolve()
        assert anchor in _anchors(linked), f"{name}: {target}#{anchor} does not exist"


def _anchors(path: Path) -> set[str]:
    """GitHub's heading ids: lower-cased, punctuation but `-` and `_` dropped, spaces to `-`."""
    out = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^#{1,6} (.*)$", line)
        if match:
            out.add(re.sub(r"[^\w\- ]", "", match.group(1).strip().lower()).replace(" ", "-"))
    return out


def test_the_token_counts_in_the_agents_page_are_those_of_its_agent_report_table() -> None:
    text = (DOCS / "agents.md").read_text(encoding="utf-8")
    said = re.search(r"They add ([\d,]+) cl100k tokens to\s+each Claude request and ([\d,]+) to each", text)
    guidance = re.search(r"`runner/providers/guidance\.md`, ([\d,]+) tokens", text)
    table = re.findall(r"our tool definitions ([\d,]+) tokens .*, the guidance ([\d,]+) tokens", text)
    assert said is not None
    assert guidance is not None
    assert len(table) == 2  # claude's table, then codex's
    assert [said[1], said[2]] == [definitions for definitions, _ in table]
    assert {guidance[1]} == {g for _, g in table}


def _languages_table_extensions() -> set[str]:
    """The file suffixes in the `files` column of docs/languages.md's table of languages."""
    rows = _table(_section(DOCS / "languages.md", "Parsed and cut into units"), "language")
    return {suffix for row in rows for suffix in re.findall(r"`(\.[^`]+)`", row[1])}


def test_the_engine_page_leaves_which_files_are_which_language_to_the_languages_page() -> None:
    engine = (DOCS / "engine.md").read_text(encoding="utf-8")
    assert "languages.md#parsed-and-cut-into-units" in engine
    assert sorted(s for s in _languages_table_extensions() if f"`{s}`" in engine) == []
