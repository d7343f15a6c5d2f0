"""Observation masking (docs/http.md#gateway): an over-long string becomes head + marker + tail.

Pure: no I/O, no clock, no randomness. What to put in place of a long string is the caller's
`StringMasker`; the gateway's stores the masked middle in the recovery store and writes its id
into the marker (`gateway/service.py`). This module holds:

- `MaskOptions` — `max_chars=4000`, `head_chars=2000`, `tail_chars=2000`
  (docs/configuration.md#gateway-settings).
- `split_long_string` / `render_masked` — the head, middle and tail of one string, and the
  masked text with the gateway's marker plus `id=<prune_id>`:
  `\\n... [KIMI_PROXY_OBSERVATION_MASKED original_chars=N head=H tail=T id=<prune_id>] ...\\n`.
- `transform_long_strings` — one walk over a JSON value (what `json.loads` returns: dict,
  list, str, numbers, bool, None), calling the masker on every string longer than
  `max_chars`. O(n) in the size of the value; copy-on-write: a dict or list is copied
  (shallowly) only when one of its children changed, so untouched subtrees are shared with
  the input, never deep-copied, and the input is never mutated. Dict keys are masked too
  (a 10,000-character key is as much context as a 10,000-character value), each with its own
  recovery id, so two masked keys never merge.
- `mask_response` — the JSON-RPC envelope: only `result` and `error.data` are walked;
  `jsonrpc`, `id`, `error.code` and `error.message` are kept as they are. A batch (list of
  responses) is masked element by element.
- `mask_message` — `mask_response`, aware of MCP `tools/call` results: a `content[].text`
  that is the JSON of `structuredContent` (how MCP servers send structured output twice) is
  not masked on its own, which would store the same data under a second id: it becomes the
  JSON of the masked `structuredContent` (same markers, same ids), itself cut head/tail
  when still over `max_chars`.

The walk keeps its own stack (`deep_json.rewritten`): any depth the reply's parse reached is
masked, a reply nested 5,000 levels as one nested 5.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from mcp_pruner_server import jsonsafe
from mcp_pruner_server.deep_json import rewritten
from mcp_pruner_server.json_slices import LongText

# Observation masking (docs/http.md#gateway), plus the recovery id the agent passes to `recover_text`.
MARKER_TEMPLATE: Final = (
    "\n... [KIMI_PROXY_OBSERVATION_MASKED original_chars={original} head={head} tail={tail}"
    " id={prune_id}] ...\n"
)
# Written in place of an id when the middle could not be stored (larger than the whole store).
UNRECOVERABLE_ID: Final = "unavailable"

# A long string of a big reply is a `LongText` (its slices, never joined: `json_slices.py`).
Text = str | LongText
StringMasker = Callable[[Text], Text]


@dataclass(frozen=True)
class MaskOptions:
    """Strings longer than `max_chars` keep their first `head_chars` and last `tail_chars`.

    `head_chars + tail_chars <= max_chars` (checked by the config loader), so a masked string
    is never longer than `max_chars` plus one marker.
    """

    # The defaults (docs/configuration.md#gateway-settings): ~1000 tokens of head and of tail
    # keep a file's imports and its end (or a log's start and its final error) while a 10k-line
    # observation shrinks to ~4 KB.
    max_chars: int = 4000
    head_chars: int = 2000
    tail_chars: int = 2000


@dataclass(frozen=True)
class SplitString:
    """The three parts of an over-long string: `head + middle + tail == original`."""

    head: str
    middle: str
    tail: str

    @property
    def original_chars(self) -> int:
        return len(self.head) + len(self.middle) + len(self.tail)


def split_long_string(text: Text, options: MaskOptions) -> SplitString:
    """Cut `text` into head, middle and tail (call it for `len(text) > options.max_chars`); the
    middle of a `LongText` is joined (it goes to the store, which holds a `str`)."""
    tail_start = max(options.head_chars, len(text) - options.tail_chars)
    return SplitString(text[: options.head_chars], text[options.head_chars : tail_start], text[tail_start:])


def head_and_tail(text: Text, options: MaskOptions) -> SplitString:
    """`split_long_string` without its middle, for a middle that will not be stored: slicing a
    64 MB middle only for the store to refuse it was one more copy of the reply in memory."""
    tail_start = max(options.head_chars, len(text) - options.tail_chars)
    return SplitString(text[: options.head_chars], "", text[tail_start:])


# Characters encoded at a time when measuring a middle's UTF-8 size: at most 256 KiB held twice.
MEASURE_CHUNK_CHARS = 65_536


def middle_utf8_bytes(text: Text, options: MaskOptions, at_most: int | None = None) -> int:
    """The UTF-8 size of the middle `split_long_string` would cut from `text`, without cutting it.

    Its length alone says too little: a middle of emoji is 4 bytes per character, so a store
    check on characters let a 64 MB middle be sliced (one more copy of the reply) only for the
    store to refuse it. Past `at_most` the measure stops: the answer is then some size over it.
    """
    start = options.head_chars
    end = max(start, len(text) - options.tail_chars)
    chars = end - start
    if text.isascii() or (at_most is not None and chars > at_most):
        return chars  # exact, or already over (a character is at least one byte)
    size = 0
    for at in range(start, end, MEASURE_CHUNK_CHARS):
        size += len(text[at : min(at + MEASURE_CHUNK_CHARS, end)].encode("utf-8", "surrogatepass"))
        if at_most is not None and size > at_most:
            break
    return size


def render_masked(parts: SplitString, prune_id: str | None, original_chars: int | None = None) -> str:
    """head + marker + tail; `prune_id=None` when the middle is not recoverable (then `parts` may
    come from `head_and_tail`, with the original's length given as `original_chars`)."""
    marker = MARKER_TEMPLATE.format(
        original=parts.original_chars if original_chars is None else original_chars,
        head=len(parts.head),
        tail=len(parts.tail),
        prune_id=prune_id or UNRECOVERABLE_ID,
    )
    return parts.head + marker + parts.tail


def transform_long_strings(value: object, max_chars: int, mask: StringMasker) -> object:
    """`value` with every string longer than `max_chars` replaced by `mask(string)`, at any depth.

    Returns `value` itself when nothing changed; see the module doc for the copy rules.
    """

    def masked_keys(node: dict[str, object]) -> dict[str, object]:
        if any(len(key) > max_chars for key in node):
            return _mask_keys(node, max_chars, mask)
        return node

    return rewritten(value, (str, LongText), mask, masked_keys, longer_than=max_chars)  # type: ignore[arg-type]


def mask_response(message: object, max_chars: int, mask: StringMasker) -> object:
    """A JSON-RPC response (or batch) with `result` and `error.data` masked; see module doc."""
    if isinstance(message, list):
        return _copy_on_write_list(message, lambda item: mask_response(item, max_chars, mask))
    if not isinstance(message, dict):
        return message
    out: dict[str, object] = message
    if "result" in message:
        result = transform_long_strings(message["result"], max_chars, mask)
        if result is not message["result"]:
            out = {**out, "result": result}
    error = message.get("error")
    if isinstance(error, dict) and "data" in error:
        data = transform_long_strings(error["data"], max_chars, mask)
        if data is not error["data"]:
            out = {**out, "error": {**error, "data": data}}
    return out


def mask_message(
    message: object, max_chars: int, mask: StringMasker, *, mask_rendered: bool = True
) -> object:
    """`mask_response` with the `tools/call` rule of the module doc.

    `mask_rendered=False` leaves a re-rendered `content[].text` whole (for a walk that only
    collects the long strings: the text is rebuilt from `structuredContent` anyway).
    """
    if isinstance(message, list):
        return _copy_on_write_list(
            message, lambda item: mask_message(item, max_chars, mask, mask_rendered=mask_rendered)
        )
    if isinstance(message, dict):
        result = message.get("result")
        if (
            isinstance(result, dict)
            and "structuredContent" in result
            and isinstance(result.get("content"), list)
        ):
            masked = _mask_tool_result(result, max_chars, mask, mask_rendered)
            return message if masked is result else {**message, "result": masked}
    return mask_response(message, max_chars, mask)


def _mask_tool_result(
    result: dict[str, object], max_chars: int, mask: StringMasker, mask_rendered: bool
) -> dict[str, object]:
    structured = result["structuredContent"]
    masked_structured = transform_long_strings(structured, max_chars, mask)
    rendered: Text | None = None
    content: list[object] = []
    for item in result["content"]:  # type: ignore[attr-defined]  # a list, checked by the caller
        text = item.get("text") if isinstance(item, dict) else None
        if isinstance(text, str | LongText) and len(text) > max_chars and _is_json_of(text, structured):
            if rendered is None:
                # a long string left unmasked (`max_chars` past a slice) is written whole, as a str is
                rendered = _rendered(masked_structured)
                if mask_rendered and len(rendered) > max_chars:
                    rendered = mask(rendered)
            content.append({**item, "text": rendered})
        else:
            content.append(transform_long_strings(item, max_chars, mask))
    out = {
        key: value
        if key in ("structuredContent", "content")
        else transform_long_strings(value, max_chars, mask)
        for key, value in result.items()
    }
    out["structuredContent"] = masked_structured
    out["content"] = content
    unchanged = masked_structured is structured and all(
        new is old
        for new, old in zip(content, result["content"], strict=True)  # type: ignore[call-overload]
    )
    if unchanged and all(out[k] is v for k, v in result.items()):
        return result
    return out


def _rendered(value: object) -> str:
    """The JSON text of a masked `structuredContent`, as the upstream wrote it (non-strict)."""
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except RecursionError:  # `json.loads` read it from a shallower stack: the writer with its own
        return jsonsafe.dumps(value)


def _is_json_of(text: Text, value: object) -> bool:
    """`text` parses to `value` (checked only for texts that would otherwise be masked; a
    `LongText` that may be JSON is joined to be parsed: a reply sending its data twice)."""
    if _first_visible_char(text) not in ("{", "["):
        return False
    try:
        return bool(json.loads(str(text)) == value)
    except (ValueError, RecursionError):
        return False


def _first_visible_char(text: Text) -> str:
    """The first character of `text.lstrip()`, "" if none, read slice by slice."""
    for piece in text.slices if isinstance(text, LongText) else (text,):
        visible = piece.lstrip()
        if visible:
            return visible[0]
    return ""


def _mask_keys(node: dict[str, object], max_chars: int, mask: StringMasker) -> dict[str, object]:
    """`node` with every key longer than `max_chars` masked, in place of the key and in order.

    A masked key carries its own recovery id, so two never merge; should the marker say
    `unavailable` for two keys with the same head and tail, ` #2`, ` #3`... tell them apart.
    """
    out: dict[str, object] = {}
    for key, value in node.items():
        if len(key) > max_chars:
            masked = str(mask(key))  # a key is a str: so is its masked form
            new_key, n = masked, 1
            while new_key in out or (new_key != key and new_key in node):
                n += 1
                new_key = f"{masked} #{n}"
            out[new_key] = value
        else:
            out[key] = value
    return out


def _copy_on_write_list(node: list[object], fn: Callable[[object], object]) -> list[object]:
    copy: list[object] | None = None
    for index, child in enumerate(node):
        new = fn(child)
        if new is not child:
            if copy is None:
                copy = list(node)
            copy[index] = new
    return node if copy is None else copy
