"""The `jeeves` command line: a thin typer shell over the runner, the server and the engine.

Each command lives in its own module and is registered here, so this file stays a table
of contents.
"""

from typing import Annotated

import typer

from mcp_pruner_server import __version__

app = typer.Typer(
    name="jeeves",
    help="Context-pruning sidecar for coding agents.",
    no_args_is_help=True,
    add_completion=False,
    # click's plain help: typer's rich panels print `<bool>` after every flag, as if it took a
    # value (`--json true` then read `true` as a file), and eat `[...]` in help texts as markup.
    rich_markup_mode=None,
    # A bug's traceback is printed plainly, once, not as pages of framed locals.
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(__version__)
        raise typer.Exit()


@app.callback()
def _root(
    _version: Annotated[
        bool,
        typer.Option(
            "--version", "-V", callback=_print_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Context-pruning sidecar for coding agents."""


@app.command()
def version() -> None:
    """Print the version."""
    typer.echo(__version__)


# --- command registrations (one line per command module) ---
from runner.prune_command import prune_command  # noqa: E402

app.command("prune")(prune_command)
from runner.run_command import AgentArgsCommand, run_command  # noqa: E402

app.command("run", cls=AgentArgsCommand)(run_command)
from runner.mcp_config_command import mcp_config_command  # noqa: E402

app.command("mcp-config")(mcp_config_command)
from runner.serve_command import serve_command  # noqa: E402

app.command("serve")(serve_command)
from runner.bench_command import bench_command  # noqa: E402

app.command("bench")(bench_command)
from runner.install_command import install_command, uninstall_command  # noqa: E402

app.command("install")(install_command)
app.command("uninstall")(uninstall_command)
from runner.config_command import config_command  # noqa: E402

app.command("config")(config_command)
from runner.stats_command import stats_command  # noqa: E402

app.command("stats")(stats_command)
from runner.gain_command import gain_command  # noqa: E402

app.command("gain")(gain_command)
from runner.show_command import show_command  # noqa: E402

app.command("show")(show_command)
