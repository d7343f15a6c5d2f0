"""Reading a tool's argument object field by field, collecting every error at once.

The JSON schemas in `schemas.py` describe the arguments to clients; each tool's `parse_*`
(next to its run function: `read_tool.py`, `bash_tool.py`, `grep_tool.py`, `engine_tools.py`)
enforces the same limits (`limits.py`) on whatever arrives with a `FieldChecker`: each read
returns the value or None and records `(field, message)` for a bad one, so a call learns about
all its mistakes in one -32602 with `field_errors` (docs/tools.md#tool-errors). Paths are only
checked for shape; confinement to the root is `tools_exec`'s job, which answers
`invalid_path` with the resolved reason.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from mcp_pruner_server.errors import InvalidParamsError
from mcp_pruner_server.tools import limits as L
from mcp_pruner_server.tools.schemas import TOOLS_BY_NAME

MISSING = object()
# A JSON string may hold a lone surrogate ("\\ud800"); a path, argv or env entry only those
# `os.fsencode` maps back to a byte (U+DC80-U+DCFF, surrogateescape): the rest is refused here
# rather than failing inside the spawn.
SURROGATE_MESSAGE = "must not contain a lone surrogate the OS cannot encode (U+D800-U+DFFF)"


def os_encodable(value: str) -> bool:
    """True when `value` can become a file name, argument or env entry (`os.fsencode` takes it)."""
    try:
        os.fsencode(value)
    except UnicodeEncodeError:
        return False
    return True


class FieldChecker:
    """Reads fields off an argument object, collecting errors instead of stopping at the first."""

    def __init__(self, args: Mapping[str, object], allowed: frozenset[str], prefix: str = "") -> None:
        self.args = args
        self.prefix = prefix
        self.errors: list[tuple[str, str]] = []
        for key in sorted(set(args) - allowed):
            self.fail(key, "unknown field (additionalProperties is false)")

    def fail(self, name: str, message: str) -> None:
        self.errors.append((self.prefix + name, message))

    def string(self, name: str, *, required: bool = False, max_chars: int | None = None) -> str | None:
        value = self.args.get(name, MISSING)
        if value is MISSING or (value is None and not required):
            if required:
                self.fail(name, "is required")
            return None
        if not isinstance(value, str):
            self.fail(name, "must be a string")
            return None
        if max_chars is not None and len(value) > max_chars:
            self.fail(name, f"must be at most {max_chars} characters (got {len(value)})")
            return None
        return value

    def non_empty(self, name: str, *, required: bool = False, max_chars: int | None = None) -> str | None:
        value = self.string(name, required=required, max_chars=max_chars)
        if value is not None and not value.strip():
            self.fail(name, "must not be empty")
            return None
        if value is not None and "\x00" in value:
            self.fail(name, "must not contain NUL characters")
            return None
        if value is not None and not os_encodable(value):
            self.fail(name, SURROGATE_MESSAGE)
            return None
        return value

    def integer(self, name: str, lo: int, hi: int | None, default: int | None) -> int | None:
        value = self.args.get(name, MISSING)
        if value is MISSING or value is None:
            return default
        # bool is an int in Python but not in JSON Schema; 3.0 from a JSON client is an integer.
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(name, "must be an integer")
            return default
        if value < lo or (hi is not None and value > hi):
            bound = f"between {lo} and {hi}" if hi is not None else f"at least {lo}"
            self.fail(name, f"must be {bound} (got {value})")
            return default
        return value

    def number(self, name: str, lo: float, hi: float) -> float | None:
        value = self.args.get(name, MISSING)
        if value is MISSING:
            self.fail(name, "is required")
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.fail(name, "must be a number")
            return None
        if not lo <= value <= hi:
            self.fail(name, f"must be between {lo} and {hi} (got {value})")
            return None
        return float(value)

    def boolean(self, name: str, default: bool | None) -> bool | None:
        value = self.args.get(name, MISSING)
        if value is MISSING or value is None:
            if default is None:
                self.fail(name, "is required")
            return default
        if not isinstance(value, bool):
            self.fail(name, "must be a boolean")
            return default
        return value

    def question(self) -> str | None:
        value = self.string("context_focus_question", max_chars=L.FOCUS_QUESTION_MAX_CHARS)
        if value is not None and not value.strip():
            self.fail("context_focus_question", "must not be empty after trimming")
            return None
        return value.strip() if value is not None else None

    def raise_if_failed(self) -> None:
        if self.errors:
            raise InvalidParamsError(self.errors)


def argument_object(arguments: object) -> Mapping[str, object]:
    if arguments is None:
        return {}
    if not isinstance(arguments, Mapping):
        raise InvalidParamsError([("arguments", "must be an object")])
    return arguments


def schemas_fields(tool: str) -> tuple[str, ...]:
    """The argument names a tool's input schema declares."""
    return tuple(TOOLS_BY_NAME[tool].input_schema["properties"])
