"""`python -m runner.demo.agent`: the demo provider's process, a scripted coding agent.

It finds the pruner from `JEEVES_MCP_URL` / `JEEVES_MCP_TOKEN` (set by `jeeves run`), copies
the sample project into a fresh `.jeeves-demo/` under its working directory (the server's root;
`jeeves run` gives the demo a private temporary one unless `--cwd` / `--root-dir` say otherwise),
drives the four steps of `runner.demo.session` through the official MCP client, prints the
tables and exits 0 when every needed line was sent; 1 when one was lost or a call failed;
3 when it has no pruner to talk to.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from rich.console import Console
from rich.text import Text

from runner.bench.tokens import tokenizer
from runner.demo.display import show_call, show_totals
from runner.demo.errors import DemoError, DemoSetupError, ToolCallFailed
from runner.demo.session import DemoSession, ToolAnswer
from runner.providers.base import TOKEN_ENV, URL_ENV

SAMPLE_PROJECT = Path(__file__).resolve().parent / "sample_project"
# Every call is local; the slowest is the test suite (~1-2 s). This only stops a wedged server.
CALL_TIMEOUT_S = 150.0
# A step calls its tool twice (raw, then with a focus question); recovery calls once.
CALLS_PER_STEP = 2
# The call tables need about this many columns not to wrap every cell.
MIN_WIDTH = 110
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_NO_PRUNER = 3
WORKSPACE_NAME = ".jeeves-demo"
_COPY_IGNORE = shutil.ignore_patterns("__pycache__", ".pytest_cache", "*.pyc")


@contextmanager
def workspace(base: Path) -> Iterator[Path]:
    """A fresh copy of the sample project under `base`, removed afterwards.

    Raises:
        DemoSetupError: the sample project is missing or `base` is not writable.
    """
    if not SAMPLE_PROJECT.is_dir():
        raise DemoSetupError(f"the sample project is missing: {SAMPLE_PROJECT}")
    try:
        parent = _fresh_directory(base)
    except OSError as exc:
        raise DemoSetupError(f"cannot create the demo workspace in {base}: {exc.strerror or exc}") from None
    try:
        target = parent / "sample_project"
        shutil.copytree(SAMPLE_PROJECT, target, ignore=_COPY_IGNORE)
        yield target
    finally:
        shutil.rmtree(parent, ignore_errors=True)


def _fresh_directory(base: Path) -> Path:
    """`base/.jeeves-demo`, or a random sibling when that one exists (another demo running there).

    The fixed name keeps the paths in the tool outputs, and so the demo's figures, the same from
    run to run.
    """
    fixed = base / WORKSPACE_NAME
    try:
        fixed.mkdir(mode=0o700)
    except FileExistsError:
        return Path(tempfile.mkdtemp(prefix=f"{WORKSPACE_NAME}-", dir=base))
    return fixed


def endpoint(env: Mapping[str, str]) -> tuple[str, str]:
    """The pruner's URL and bearer token from the environment `jeeves run` gave us.

    Raises:
        DemoSetupError: they are not set (pruner disabled, failed to start, or not under `jeeves run`).
    """
    url, token = env.get(URL_ENV), env.get(TOKEN_ENV)
    if not url or not token:
        raise DemoSetupError(
            f"no pruner to talk to ({URL_ENV}/{TOKEN_ENV} unset): run it as `jeeves run --provider demo`, "
            "with the pruner enabled; the run's events on stderr say why it did not start"
        )
    return url, token


async def run_demo(url: str, token: str, root: Path, console: Console) -> None:
    """The whole session against the server at `url`, in a workspace under `root`.

    Raises:
        DemoError: setup failed, a call failed, or a needed line was lost.
    """
    with workspace(root) as project:
        relative = project.relative_to(root).as_posix()
        headers = {"Authorization": f"Bearer {token}"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=CALL_TIMEOUT_S) as http,
            Client(streamable_http_client(url, http_client=http)) as client,
        ):

            async def call(tool: str, arguments: Mapping[str, object]) -> ToolAnswer:
                result = await client.call_tool(tool, dict(arguments))
                if result.structured_content is None:
                    raise ToolCallFailed(f"{tool}: the result has no structuredContent")
                # What an agent hands its model: the text blocks (plain text, see mcp_transport.py).
                text = "\n".join(block.text for block in result.content if block.type == "text")
                return ToolAnswer(result.structured_content, text)

            session = DemoSession(call, relative, sys.executable)
            console.print(
                f"[bold]jeeves demo[/bold]: a scripted agent fixes a failing test in {project.name}/ "
                f"through {url}\n"
            )
            steps = (
                ("reading shop/pricing.py", session.read_source),
                ("grepping for the symbol", session.grep_symbol),
                ("running the test suite", session.run_tests),
                ("recovering a pruned range", session.recover_helper),
            )
            reports = []
            for index, (label, step) in enumerate(steps, start=1):
                with console.status(f"{label} (raw, then with a focus question)…"):
                    with anyio.fail_after(CALL_TIMEOUT_S * CALLS_PER_STEP):
                        report = await step()
                show_call(console, index, report)
                reports.append(report)
            show_totals(console, reports, tokenizer().name)


def make_console() -> Console:
    """stdout, at least `MIN_WIDTH` columns wide even when it is a pipe (rich assumes 80 there)."""
    console = Console()
    if console.width < MIN_WIDTH:
        console = Console(width=MIN_WIDTH)
    return console


def show_error(console: Console, exc: DemoError) -> None:
    """The one line that says why the demo stopped.

    Printed as plain text, never as rich markup: the message quotes code (`self.items[key]`,
    a lost needed line), which markup would silently eat or refuse with a `MarkupError`.
    """
    if isinstance(exc, DemoSetupError):
        console.print(Text(f"demo: {exc}", style="bold red"))
    else:
        console.print(Text.assemble(("demo FAILED", "bold red"), f": {exc}"))


def main() -> None:
    """Entry point of the demo provider's child process."""
    console = make_console()
    try:
        url, token = endpoint(os.environ)
        anyio.run(run_demo, url, token, Path.cwd().resolve(), console)
    except DemoSetupError as exc:
        show_error(console, exc)
        sys.exit(EXIT_NO_PRUNER)
    except DemoError as exc:
        show_error(console, exc)
        sys.exit(EXIT_FAILED)
    sys.exit(EXIT_OK)


if __name__ == "__main__":
    main()
