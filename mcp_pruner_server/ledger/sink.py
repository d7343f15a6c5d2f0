"""The ledger as the dispatcher sees it: `submit(record)`, opened on the first call.

The server builds a `LedgerSink` on its start-up path, which must stay light (an agent waits
for `initialize` and `tools/list`): nothing here imports `sqlite3` or starts a thread until
the first tool call hands it a record (`writer.py` does both).
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from mcp_pruner_server.ledger.config import RUN_ID_ENV, LedgerConfig
from mcp_pruner_server.ledger.record import CallRecord

if TYPE_CHECKING:
    from mcp_pruner_server.ledger.writer import LedgerWriter


def session_id(env: Mapping[str, str]) -> str:
    """The run's id under `jeeves run` (so the runner finds its rows), else one per server process."""
    return env.get(RUN_ID_ENV, "").strip() or "ses_" + secrets.token_hex(6)


class LedgerSink:
    """Hands each finished call to the ledger's writer, creating it on the first one."""

    def __init__(self, config: LedgerConfig, *, session: str, project: Path) -> None:
        self.config = config
        self.session = session
        self.project = str(project)
        self._agent: str | None = None
        self._writer: LedgerWriter | None = None
        self._lock = threading.Lock()

    @property
    def agent(self) -> str | None:
        return self._agent

    @agent.setter
    def agent(self, name: str | None) -> None:
        """The MCP client's `clientInfo.name`, from its `initialize`."""
        self._agent = name
        if self._writer is not None:
            self._writer.agent = name

    @property
    def writer(self) -> LedgerWriter | None:
        """The writer, once a call has been submitted."""
        return self._writer

    def submit(self, record: CallRecord) -> None:
        """Queue `record`; never raises, never waits on I/O."""
        writer = self._writer
        if writer is None:
            writer = self._open()
        writer.submit(record)

    def _open(self) -> LedgerWriter:
        with self._lock:
            if self._writer is None:
                from mcp_pruner_server.ledger.writer import LedgerWriter

                self._writer = LedgerWriter(self.config, session=self.session, project=self.project)
                self._writer.agent = self._agent
            return self._writer

    def flush(self, timeout: float) -> bool:
        """Wait up to `timeout` for every submitted record to be written; False if it ran out."""
        return True if self._writer is None else self._writer.flush(timeout)

    def close(self) -> None:
        """Write what is queued and stop the writer."""
        if self._writer is not None:
            self._writer.close()
