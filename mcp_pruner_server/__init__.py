"""The local MCP server whose read/bash/grep output is pruned to a focus question."""

from importlib.metadata import PackageNotFoundError, version

DISTRIBUTION = "jeeves-pruner"
try:
    # The version lives in pyproject.toml only; the installed metadata carries it here.
    __version__ = version(DISTRIBUTION)
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"
SERVER_NAME = "jeeves-mcp-pruner"
