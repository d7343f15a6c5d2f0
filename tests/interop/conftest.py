"""Fixtures for the real-client interoperability tests: one real server per test module."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.interop.interop_support import RunningServer, running_server, write_sample_tree


@pytest.fixture(scope="module")
def pruner_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """The real `jeeves-mcp-pruner`, bearer-token protected, rooted in a small sample tree."""
    root = tmp_path_factory.mktemp("root")
    write_sample_tree(root)
    logs = tmp_path_factory.mktemp("server-logs")
    with running_server(root, logs, token=secrets.token_urlsafe(24)) as server:
        yield server


@pytest.fixture
def client_home(tmp_path: Path) -> Path:
    """A fresh HOME for one client run, so no user config or login leaks in or out."""
    home = tmp_path / "home"
    home.mkdir()
    return home
