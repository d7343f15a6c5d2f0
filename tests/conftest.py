"""Every test's ledger (`mcp_pruner_server/ledger/`) lives in its own temporary state directory:
no test writes into the user's `~/.local/state`, and servers the tests spawn inherit it."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_state_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    state = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    monkeypatch.delenv("JEEVES_LEDGER_PATH", raising=False)
    return state
