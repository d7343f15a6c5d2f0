import subprocess
import sys

from mcp_pruner_server import __version__


def test_jeeves_version_prints_the_package_version() -> None:
    out = subprocess.run(
        [sys.executable, "-c", "from runner.cli import app; app()", "version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == __version__


def jeeves(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from runner.cli import app; app()", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=30,
    )


def test_dash_v_and_double_dash_version_print_the_version() -> None:
    for flag in ("-V", "--version"):
        out = jeeves(flag)
        assert (out.returncode, out.stdout.strip()) == (0, __version__), flag


def test_dash_h_is_help_and_flags_are_shown_as_flags() -> None:
    out = jeeves("run", "-h")

    assert out.returncode == 0
    assert "--json " in out.stdout
    assert "<bool>" not in out.stdout
    assert "[-- AGENT_ARGS...]" in out.stdout


def test_every_command_is_listed() -> None:
    out = jeeves("-h")

    listed = {line.split()[0] for line in out.stdout.split("Commands:")[1].splitlines() if line.strip()}
    assert {
        "install",
        "uninstall",
        "run",
        "serve",
        "prune",
        "mcp-config",
        "config",
        "stats",
        "bench",
        "gain",
        "show",
    } <= listed


def test_the_version_is_the_installed_distributions_from_pyproject() -> None:
    from importlib.metadata import version

    assert __version__ == version("jeeves-pruner") != "0+unknown"
