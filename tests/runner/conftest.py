"""The runner tests' fixture: a harness in a fresh directory (helpers are in `runner_support`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.runner.runner_support import Harness


@pytest.fixture
def harness(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Harness:
    """A harness in a fresh directory (no `jeeves.toml` around, no inherited pruner env)."""
    for name in list(os.environ):
        if name.startswith("JEEVES_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("RUN_LOG", str(tmp_path / "events.jsonl"))
    return Harness(tmp_path)
