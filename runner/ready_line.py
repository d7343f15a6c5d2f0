"""What the server prints: its pipes read as bounded lines, and the one ready line among them.

The server prints a single JSON line on stdout once it listens (`READY_EVENT`, with its
host, port, url and pid); everything else on its pipes is for humans. A line is only the
ready line when it names plain `http` on the loopback host the runner asked for.
"""

from __future__ import annotations

import ipaddress
import json
from dataclasses import dataclass

import httpx

from mcp_pruner_server.settings import READY_EVENT

# A line longer than this is cut: stderr is for humans, and the ring buffer must stay bounded.
MAX_LINE_CHARS = 2_000
# Bytes held waiting for a newline before the partial line is flushed anyway.
MAX_PENDING_BYTES = 64 * 1024
# The ports a ready line may name: 0 means "not bound", above 65535 does not exist.
MIN_PORT = 1
MAX_PORT = 65_535


@dataclass(frozen=True)
class ReadyLine:
    """The one JSON line the server prints on stdout once it listens."""

    host: str
    port: int
    url: str
    pid: int | None

    @property
    def base_url(self) -> str:
        """`http://host:port` of the server, from its advertised MCP url."""
        return str(httpx.URL(self.url).copy_with(path="/", query=None)).rstrip("/")


def _loopback_equal(advertised: str, expected: str) -> bool:
    """Whether the server's `advertised` host is loopback and the one we told it to bind."""
    try:
        address = ipaddress.ip_address(advertised)
    except ValueError:
        return False
    # `localhost` binds whichever loopback address it resolves to; any of them will do.
    return address.is_loopback and (expected == "localhost" or advertised == expected)


def parse_ready_line(line: str, expected_host: str) -> ReadyLine | None:
    """The ready line's fields, or None when `line` is anything else.

    The url is handed to the provider with the bearer token, so a ready line only counts
    when it names plain `http` on the loopback host we asked for (`expected_host`) and a
    real port: anything else is treated as no ready line at all.
    """
    try:
        obj = json.loads(line)
    except ValueError:
        return None
    if not isinstance(obj, dict) or obj.get("event") != READY_EVENT:
        return None
    host, port, url, pid = obj.get("host"), obj.get("port"), obj.get("url"), obj.get("pid")
    if not isinstance(host, str) or not isinstance(port, int) or not isinstance(url, str):
        return None
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL:
        return None
    if (
        parsed.scheme != "http"
        or parsed.host != host
        or parsed.port != port
        or not MIN_PORT <= port <= MAX_PORT
        or not _loopback_equal(host, expected_host)
    ):
        return None
    return ReadyLine(host=host, port=port, url=url, pid=pid if isinstance(pid, int) else None)


class LineSplitter:
    """Bytes in, complete text lines out, with a bounded pending buffer."""

    def __init__(self) -> None:
        self._pending = b""

    def feed(self, chunk: bytes) -> list[str]:
        self._pending += chunk
        *lines, self._pending = self._pending.split(b"\n")
        if len(self._pending) > MAX_PENDING_BYTES:
            lines.append(self._pending)
            self._pending = b""
        return [raw.decode("utf-8", "replace")[:MAX_LINE_CHARS] for raw in lines]

    def flush(self) -> list[str]:
        rest, self._pending = self._pending, b""
        return [rest.decode("utf-8", "replace")[:MAX_LINE_CHARS]] if rest else []
