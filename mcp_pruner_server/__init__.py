"""The local MCP server whose read/bash/grep output is pruned to a focus question."""

import os
import sys

DISTRIBUTION = "jeeves-pruner"
SERVER_NAME = "jeeves-mcp-pruner"


def _installed_version() -> str:
    """The installed distribution's version, read from its `name-version.dist-info` folder's
    name (the wheel spec's layout): `importlib.metadata` alone cost the stdio server a third of
    its start-up (email, csv, zipfile imports), which `initialize` cannot wait for."""
    prefix = DISTRIBUTION.replace("-", "_") + "-"
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:  # a zip, a missing folder
            continue
        for name in names:
            if name.startswith(prefix) and name.endswith(".dist-info"):
                return name[len(prefix) : -len(".dist-info")]
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)  # the version lives in pyproject.toml only
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"


__version__ = _installed_version()
