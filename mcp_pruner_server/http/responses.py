"""Starlette responses in strict JSON, for the routes (`routes.py`, `rpc.py`)."""

from __future__ import annotations

from collections.abc import Sequence

from starlette.responses import JSONResponse, Response
from starlette.types import Receive, Scope, Send

from mcp_pruner_server.jsonsafe import dumps_bytes


class SafeJSONResponse(JSONResponse):
    """Starlette's `JSONResponse`, rendered through `jsonsafe.sanitize()`."""

    def render(self, content: object) -> bytes:
        return dumps_bytes(content)


class ChunkedJSONResponse(Response):
    """A JSON body already cut in chunks (`jsonsafe.dumps_chunks`), sent one `http.response.body`
    message per chunk, with its whole `content-length`: the event loop writes a chunk at a time
    (one 70 MB write held it ~100 ms copying the unsent rest) and no step joins the body."""

    media_type = "application/json"

    def __init__(self, chunks: Sequence[bytes], status_code: int = 200) -> None:
        self._chunks = chunks
        super().__init__(None, status_code)
        self.headers["content-length"] = str(sum(map(len, chunks)))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers})
        last = len(self._chunks) - 1
        for index, chunk in enumerate(self._chunks):
            await send({"type": "http.response.body", "body": chunk, "more_body": index < last})
