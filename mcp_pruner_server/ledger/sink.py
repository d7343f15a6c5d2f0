"""The ledger as the dispatcher sees it: `submit(record)`, opened on the first call.

The server builds a `LedgerSink` on its start-up path, which must stay light (an agent waits
for `initialize` and `tools/list`): nothing here starts a thread or a process until the first
tool call hands it a record (`channel.py` does both; the writing is `writer.py`'s, in its own
process).
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from mcp_pruner_server.ledger.config import LedgerConfig
from mcp_pruner_server.ledger.record import CallRecord
from mcp_pruner_server.logs import LogFormat
from mcp_pruner_server.settings import RUN_ID_ENV

if TYPE_CHECKING:
    from mcp_pruner_server.ledger.channel import WriterChannel


def session_id(env: Mapping[str, str]) -> str:
    """The run's id under `jeeves run` (so the runner finds its rows), else one per server process."""
    return env.get(RUN_ID_ENV, "").strip() or "ses_" + secrets.token_hex(6)


class LedgerSink:
    """Hands each finished call to the ledger's writer process, starting it on the first one."""

    def __init__(
        self, config: LedgerConfig, *, session: str, project: Path, log_format: LogFormat = "json"
    ) -> None:
        self.config = config
        self.session = session
        self.project = str(project)
        self.log_format = log_format
        # The MCP client's `clientInfo.name`, from its `initialize`; each record carries it.
        self.agent: str | None = None
        self._channel: WriterChannel | None = None
        self._lock = threading.Lock()

    @property
    def channel(self) -> WriterChannel | None:
        """The pipe to the writer process, once a call has been submitted."""
        return self._channel

    def submit(self, record: CallRecord) -> None:
        """Hand `record` to the writer; never raises, never waits."""
        channel = self._channel
        if channel is None:
            channel = self._open()
        channel.send(record)

    def _open(self) -> WriterChannel:
        with self._lock:
            if self._channel is None:
                from mcp_pruner_server.ledger.channel import WriterChannel
                from mcp_pruner_server.ledger.wire import WriterSetup

                setup = WriterSetup(self.config, self.session, self.project, self.log_format)
                self._channel = WriterChannel(setup)
            return self._channel

    def flush(self, timeout: float) -> bool:
        """Wait up to `timeout` for every submitted record to be written; False if it ran out."""
        return True if self._channel is None else self._channel.flush(timeout)

    def close(self) -> None:
        """Have the writer write what it was sent, and stop it."""
        if self._channel is not None:
            self._channel.close()
