"""The `http` backend: a remote pruner at `JEEVES_PRUNER_ENDPOINT` (docs/tools.md#pruning-backends).

Two wire protocols, chosen by `JEEVES_PRUNER_PROTOCOL` (`jeeves` | `swe_pruner`), or, when
it is `auto` (the default), by the endpoint's path: ending in `/prune` → SWE-Pruner,
anything else → Jeeves.

- Jeeves outbound contract: POST `{request_id, tool, focus_question, input, input_bytes}`
  (+ `source_type`; `tool` is `"prune_text"`, `request_id` the prune_id) →
  `{output, output_bytes}`.
- SWE-Pruner: POST `{query, code, threshold}` → `{pruned_code, score?, kept_frags?,
  origin_token_cnt?, left_token_cnt?, error_msg?}`. `kept_frags` counts model fragments, not
  lines, so the returned text is what is aligned; a non-empty `error_msg` is a failure.

The returned text is aligned back onto the original lines (`alignment.py`), the structural
lines of docs/tools.md#keep-rules-by-source-type are added (`safety.py`), and the keep-mask
is rendered by the engine's `build_result`, so markers, annotations, recovery and the hard
constraints are ours whatever the remote did. `JEEVES_PRUNER_TIMEOUT_MS` bounds the WHOLE
call — connect, send, wait, body read (`remote.post_bounded`).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Literal
from urllib.parse import urlsplit

import httpx

from mcp_pruner_server.backends.alignment import align_kept_lines
from mcp_pruner_server.backends.remote import ERROR_BODY_EXCERPT_CHARS, Remote, json_body, post_bounded
from mcp_pruner_server.backends.safety import safety_keep
from mcp_pruner_server.errors import BackendResponseError, StatValue
from mcp_pruner_server.offload import json_request_body, run_off_loop_if_large
from mcp_pruner_server.pruning.render import build_result
from mcp_pruner_server.pruning.text import split_lines, utf8_size
from mcp_pruner_server.pruning.types import PruneOptions, PruneResult, SourceType
from mcp_pruner_server.pruning_config import HttpProtocol

# SWE-Pruner's own default: keep a token when the model's keep-probability is >= 0.5.
SWE_PRUNER_THRESHOLD = 0.5

WARN_ERROR = "http_backend_error"
WARN_TIMEOUT = "http_backend_timeout"
WARN_HTTP = "http_backend_http_error"
WARN_PARSE = "http_backend_parse_error"
JSON_HEADERS = {"content-type": "application/json"}

Wire = Literal["jeeves", "swe_pruner"]


def wire_protocol(endpoint: str, protocol: HttpProtocol) -> Wire:
    """The protocol spoken to `endpoint`: explicit, or by path for `auto`."""
    if protocol != "auto":
        return protocol
    return "swe_pruner" if urlsplit(endpoint).path.rstrip("/").endswith("/prune") else "jeeves"


class HttpBackend:
    """A remote pruner over HTTP, bounded by one overall timeout."""

    name = "http"

    def __init__(
        self,
        endpoint: str,
        timeout_ms: int,
        client: httpx.AsyncClient,
        protocol: HttpProtocol = "auto",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._endpoint = endpoint
        self._timeout_s = timeout_ms / 1000.0
        self._client = client
        self._wire = wire_protocol(endpoint, protocol)
        self._clock = clock
        self._remote = Remote(
            name="pruner",
            where=f"pruner at {endpoint}",
            error_warning=WARN_ERROR,
            timeout_warning=WARN_TIMEOUT,
            http_warning=WARN_HTTP,
            parse_warning=WARN_PARSE,
            status_stat="http_status",
        )

    @property
    def wire(self) -> Wire:
        return self._wire

    async def prune(
        self, text: str, goal_hint: str, source_type: SourceType, options: PruneOptions, prune_id: str
    ) -> PruneResult:
        """Ask the remote pruner, then render its answer against the original lines.

        Raises:
            BackendTimeoutError: the whole call did not finish within the timeout.
            BackendHttpError: connection refused/reset or a non-2xx status.
            BackendResponseError: the body is not the protocol's JSON, or does not align.
        """
        started = self._clock()
        # Encoding the request and rendering the answer are CPU work proportional to the
        # text (~24 ms for 246 KB): a worker thread does them when the text is large.
        request = functools.partial(self._request_body, text, goal_hint, source_type, prune_id)
        response = await self._post(await run_off_loop_if_large(request, len(text)))
        render = functools.partial(self._render, response, text, source_type, options, prune_id, started)
        return await run_off_loop_if_large(render, len(text) + len(response.content))

    def _request_body(self, text: str, goal_hint: str, source_type: SourceType, prune_id: str) -> bytes:
        return json_request_body(self._payload(text, goal_hint, source_type, prune_id))

    def _render(
        self,
        response: httpx.Response,
        text: str,
        source_type: SourceType,
        options: PruneOptions,
        prune_id: str,
        started: float,
    ) -> PruneResult:
        """The remote's answer rendered against the original lines (runs off the loop if large).

        Raises:
            BackendResponseError: the body is not the protocol's JSON, or does not align.
        """
        body = json_body(response, self._remote, {self._remote.status_stat: response.status_code})
        returned, extra = self._parse(body)
        lines = split_lines(text)
        aligned = align_kept_lines(lines, split_lines(returned))
        if aligned.matched == 0 and returned.strip() and text.strip():
            raise BackendResponseError(
                "the pruner's output shares no line with the input",
                warnings=(WARN_ERROR, WARN_PARSE),
            )
        keep = [k or must for k, must in zip(aligned.keep, safety_keep(lines, source_type), strict=True)]
        extra["http_protocol"] = self._wire
        extra["http_unmatched_lines"] = aligned.unmatched
        return build_result(
            text,
            keep,
            prune_id,
            options,
            backend=self.name,
            elapsed_ms=(self._clock() - started) * 1000.0,
            extra_stats=extra,
        )

    def _payload(
        self, text: str, goal_hint: str, source_type: SourceType, prune_id: str
    ) -> dict[str, object]:
        if self._wire == "swe_pruner":
            return {"query": goal_hint, "code": text, "threshold": SWE_PRUNER_THRESHOLD}
        return {
            "request_id": prune_id,
            "tool": "prune_text",
            "focus_question": goal_hint,
            "input": text,
            "input_bytes": utf8_size(text),
            "source_type": source_type,
        }

    async def _post(self, content: bytes) -> httpx.Response:
        """The remote's 2xx response, body read.

        Raises:
            BackendTimeoutError / BackendHttpError: as `prune` says.
        """
        return await post_bounded(
            self._client, self._endpoint, content, JSON_HEADERS, self._timeout_s, self._remote, {}
        )

    def _parse(self, body: object) -> tuple[str, dict[str, StatValue]]:
        """The returned text and the remote's own figures, for `stats`."""
        field = "pruned_code" if self._wire == "swe_pruner" else "output"
        if not isinstance(body, dict) or not isinstance(body.get(field), str):
            raise BackendResponseError(
                f"pruner answer has no string {field!r}", warnings=(WARN_ERROR, WARN_PARSE)
            )
        extra: dict[str, StatValue] = {}
        if self._wire == "swe_pruner":
            if body.get("error_msg"):
                raise BackendResponseError(
                    f"pruner reported an error: {str(body['error_msg'])[:ERROR_BODY_EXCERPT_CHARS]!r}",
                    warnings=(WARN_ERROR, WARN_PARSE),
                )
            for key in ("score", "origin_token_cnt", "left_token_cnt"):
                value = body.get(key)
                if isinstance(value, int | float) and not isinstance(value, bool):
                    extra[f"swe_pruner_{key}"] = value
        returned: str = body[field]
        return returned, extra
