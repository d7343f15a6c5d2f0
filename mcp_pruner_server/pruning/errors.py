"""Exceptions of the pruning engine.

They never cross `prune()`: the engine is fail-open and turns each of them into a no-op
result with a warning code (docs/tools.md#fail-open). Backends that call `build_result` directly may
see them.

    PruningError
    ├── EngineTimeout      -> warning "timeout"
    ├── InvalidOptions     -> warning "constraints_unmet"
    └── DefinitionsQueryError -> warning "internal_error"
"""

from __future__ import annotations


class PruningError(Exception):
    """Raised when the engine cannot produce a correct pruning; the base of this package."""

    warning = "internal_error"


class EngineTimeout(PruningError):
    """Raised when the engine looks at the clock (between stages, and every `CHECK_EVERY` items
    of its loops over lines) after `options.timeout_ms` has elapsed."""

    warning = "timeout"


class InvalidOptions(PruningError):
    """Raised when `max_prune_ratio` / `min_keep_lines` are outside their domain."""

    warning = "constraints_unmet"


class DefinitionsQueryError(PruningError):
    """Raised when a language's definitions query (`structure/syntax_definitions.py`) is missing
    or does not compile for the installed grammar wheel: a bug or a wheel too old or too new,
    which the test compiling every record's query finds before a user does."""
