"""Safe JSON: whatever a tool, the engine or an upstream hands over, every answer is strict JSON.

Python's `json` writes `NaN`/`Infinity` (not JSON), writes integers of any size (JavaScript
clients — the MCP Inspector, Codex's and Claude Code's node/TS layers — silently round what
lies beyond 2^53), and either fails on lone surrogates (`ensure_ascii=False` then UTF-8
encoding) or escapes them into `\\ud800`, which strict parsers (serde_json, Go) reject. So
every route serializes through `sanitize()` first:

| value | becomes |
|---|---|
| `nan`, `inf`, `-inf` | `"NaN"`, `"Infinity"`, `"-Infinity"` |
| an `int` outside ±(2^53 − 1) | its decimal string |
| a lone surrogate (U+D800–U+DFFF) in any string or key | U+FFFD |
| a tuple | a list |
| a non-string dict key | its `str()` (as `json.dumps` does for numbers) |
| a `json_slices.LongText` (a long string held in slices) | a `LongText`, each slice made safe |
| any other object | its `str()` — never a 500 for a value nobody expected |

One exception, in `rpc_dumps_bytes()`: a JSON-RPC answer's integer `id` is echoed exactly,
however large. JSON-RPC requires the answer's id to be the request's (clients match them by
it), a client that could write that number can read it back, and the SDK's `/mcp` echoes it
the same way.

Tool output is decoded with `errors="replace"` already (`tools_exec/text.py`); surrogates come
from request strings (`"\\udc80"` is legal in a JSON request) and `surrogateescape` decoding.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Mapping

from mcp_pruner_server import json_slices
from mcp_pruner_server.json_slices import LongText

# Number.MAX_SAFE_INTEGER: the largest integer every JSON client (IEEE-754 doubles) keeps exact.
MAX_SAFE_INTEGER = 2**53 - 1
_SURROGATES = re.compile("[\ud800-\udfff]")

JsonValue = None | bool | int | float | str | LongText | list["JsonValue"] | dict[str, "JsonValue"]


def safe_text(text: str) -> str:
    """`text` with every lone surrogate replaced by U+FFFD (encodable as UTF-8)."""
    if text.isascii():  # the common case, answered in C without a scan
        return text
    try:
        text.encode("utf-8")  # a C loop: ~3x faster than the regex on a 10 MiB text
    except UnicodeEncodeError:
        return _SURROGATES.sub("\ufffd", text)
    return text


def sanitize(value: object) -> JsonValue:
    """A copy of `value` that `json.dumps(..., allow_nan=False)` accepts and JS clients read exactly.

    Any depth: a value nested deeper than the recursive walk's frames reach (~500 levels, where
    `json.loads` reads ~1000) is walked again with a stack of its own (`_sanitize_deep`).

    Raises:
        ValueError: `value` contains itself (as `json.dumps` refuses it): no copy can be finite.
    """
    try:
        return _sanitize(value)
    except RecursionError:
        return _sanitize_deep(value)


def _sanitize(value: object) -> JsonValue:
    # Exact-type checks first: the walk runs on every answer, and a 500-match grep result
    # has thousands of nodes. Subclasses (IntEnum, StrEnum, ...) take the general path.
    if type(value) is str:
        return safe_text(value)
    if type(value) is dict:
        return {k if type(k) is str and k.isascii() else _key(k): _sanitize(v) for k, v in value.items()}
    if type(value) is list:
        return [_sanitize(item) for item in value]
    if type(value) is int:
        return value if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER else str(value)
    if type(value) is float:
        return _float(value)
    if value is None or type(value) is bool:
        return value
    return _sanitize_other(value)


# A container being rebuilt by `_sanitize_deep`: the copy, the (key or None, child) pairs still
# to put in it, and the original's id (a container met again inside itself is a cycle).
_Frame = tuple[dict[str, JsonValue] | list[JsonValue], Iterator[tuple[str | None, object]], int]


def _sanitize_deep(value: object) -> JsonValue:
    """`_sanitize(value)` without recursion: the containers still being filled on a list.

    Raises:
        ValueError: `value` contains itself (the walk would copy it forever).
    """
    root, children = _opened(value)
    stack: list[_Frame] = [] if children is None else [(root, children, id(value))]  # type: ignore[list-item]
    open_ids = {id(value)}  # the originals of the containers on the stack
    while stack:
        copy, pending, original_id = stack[-1]
        nxt = next(pending, None)
        if nxt is None:
            stack.pop()
            open_ids.discard(original_id)
            continue
        key, child = nxt
        out, grandchildren = _opened(child)
        if isinstance(copy, dict):
            assert key is not None
            copy[key] = out
        else:
            copy.append(out)
        if grandchildren is not None:
            if id(child) in open_ids:
                raise ValueError("Circular reference detected")
            open_ids.add(id(child))
            stack.append((out, grandchildren, id(child)))  # type: ignore[arg-type]
    return root


def _opened(value: object) -> tuple[JsonValue, Iterator[tuple[str | None, object]] | None]:
    """A leaf's safe value and None, or an empty copy of a container and its children, each under
    the key `_sanitize` gives it (None in a list): the same cases, in the same order."""
    if type(value) is dict:
        keys = (k if type(k) is str and k.isascii() else _key(k) for k in value)
        return {}, zip(keys, value.values(), strict=True)
    if type(value) is list:
        return [], ((None, item) for item in value)
    if value is None or isinstance(value, bool | str | int | float | LongText):
        return _sanitize(value), None
    if isinstance(value, Mapping):
        return {}, ((_key(k), v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return [], ((None, item) for item in value)
    return _sanitize(value), None


def _float(value: float) -> float | str:
    if math.isfinite(value):
        return value
    return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")


def _sanitize_other(value: object) -> JsonValue:
    if isinstance(value, LongText):
        return LongText(safe_text(piece) for piece in value.slices)
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, str):
        return safe_text(str(value))
    if isinstance(value, int):
        return _sanitize(int(value))
    if isinstance(value, float):
        return _float(float(value))
    if isinstance(value, Mapping):
        return {_key(k): _sanitize(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_sanitize(item) for item in value]
    return safe_text(str(value))


def sanitize_object(value: Mapping[str, object]) -> dict[str, object]:
    """`sanitize()` for a JSON object, typed as the dicts the server passes around."""
    return {_key(k): sanitize(v) for k, v in value.items()}


def dumps(value: object) -> str:
    """Strict JSON text of `value` after `sanitize()` (non-ASCII kept as is)."""
    return json_slices.dumps_in_slices(sanitize(value))


def dumps_text(value: object) -> str | LongText:
    """`dumps()`, a `LongText` never joined when `value` holds a long string (`json_slices.dumps_long`)."""
    return json_slices.dumps_long(sanitize(value))


def dumps_bytes(value: object) -> bytes:
    """`dumps()` encoded as UTF-8: a response body."""
    return dumps(value).encode("utf-8")


def rpc_dumps_bytes(payload: object) -> bytes:
    """`dumps_bytes()` for a JSON-RPC answer or batch, integer `id`s echoed exactly (module doc)."""
    return b"".join(rpc_dumps_chunks(payload))


def dumps_chunks(value: object) -> list[bytes]:
    """`dumps_bytes()` in chunks, for a big body sent without being joined (`json_slices.py`)."""
    return json_slices.dumps_chunks(sanitize(value))


def rpc_dumps_chunks(payload: object) -> list[bytes]:
    """`rpc_dumps_bytes()` in chunks, for a big body sent without being joined."""
    safe = sanitize(payload)
    originals = payload if isinstance(payload, list) else [payload]
    answers = safe if isinstance(safe, list) else [safe]
    for original, answer in zip(originals, answers, strict=True):
        if isinstance(original, Mapping) and isinstance(answer, dict):
            request_id = original.get("id")
            if isinstance(request_id, int) and not isinstance(request_id, bool):
                answer["id"] = request_id
    return json_slices.dumps_chunks(safe)


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def strict_loads(body: bytes | str) -> object:
    """Parse a request body as strict JSON: `NaN`, `Infinity` and `-Infinity` are refused.

    Every route parses requests through this, so `/rpc` and `/execute` agree on what JSON is.

    Raises:
        ValueError: the body is not JSON (`json.JSONDecodeError`), holds a non-JSON constant,
            or nests deeper than the parser's recursion limit (`[[[[…`, a few KB of body).
        UnicodeDecodeError: the body is bytes that are not UTF-8/16/32.
    """
    try:
        if len(body) > json_slices.SLICE_CHARS:  # long strings in slices: the GIL held briefly each time
            if isinstance(body, bytes) and json.detect_encoding(body) == "utf-8":
                body = json_slices.decode_in_slices(body)
            if isinstance(body, str):
                return json_slices.loads_in_slices(body, _reject_constant)
        return json.loads(body, parse_constant=_reject_constant)
    except RecursionError as exc:
        # Not a server bug but a malformed request: every caller answers a ValueError as
        # "not JSON" (-32700 / 400), where a RecursionError became a 500.
        raise ValueError("the JSON nests too deeply") from exc


def _key(key: object) -> str:
    if isinstance(key, str):
        return safe_text(key)
    if key is None or isinstance(key, bool):
        return json.dumps(key)  # "null", "true", "false", as `json.dumps` writes such keys
    return safe_text(str(sanitize(key)))
