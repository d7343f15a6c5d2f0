"""The form a model reads a pruned tool output in: cheap line numbers and cheap markers.

`prune_text`'s canonical forms (`N│ ` before every kept line, `⟦PRUNÉ: prune_id=… lignes a-b
(n) raison=…⟧` for every removed block; docs/tools.md#markers-and-annotations) are for
programs. Measured with cl100k_base, they cost the model 2.0-2.5 tokens a line and 46 tokens a
marker (22 of them the id). What `read`, `bash` and `grep` return instead (`PruneOptions.model_view`):

- a kept line is `N text`: its original number and one space (≤ 3 digits: one token, the space
  merges into the text's own first token); a blank kept line is left bare, unnumbered (a number
  would break the newline run it is part of: 2 tokens for nothing). 0.75-1.0 tokens a line on
  code, prose and a pytest log, against 2.0-2.5 for `N│ `, 1.2-1.8 for `cat -n`'s `N\\t`.
- a removed block is `[lines a-b pruned]`: 9 tokens. It carries no id: a result names its
  `prune_id` once, in its trailer line (`tools/model_text.py`), so the id keeps its 80 random
  bits (an id is the only key to a stored text: a short one could be guessed by another client
  of the same server) and costs its 22 tokens once per result instead of once per marker.

A text whose lines already carry their own numbers from 1 (`cat -n f`, `nl -ba f` through
`bash`) gets none of ours: they would only repeat them (`102    102\t…`), and its markers'
ranges are the numbers it shows.

Neither form is ambiguous: every kept line but a blank one starts with digits and a space, so a
line that does not (and is not blank) is ours.

The token estimate is the pipeline's, to decide whether a pruned view is worth sending
(`pipeline/prune_step.py`): text at the engine's 4 characters a token, each number at the one
token cl100k gives every 3 digits, each marker at its measured 2 characters a token.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mcp_pruner_server.pruning.numbered import without_line_numbers
from mcp_pruner_server.pruning.text import CHARS_PER_TOKEN

MODEL_MARKER_TEMPLATE = "[lines {start}-{end} pruned]"
MODEL_MARKER = re.compile(r"^\[lines (\d+)-(\d+) pruned\]$")
MODEL_NUMBERED = re.compile(r"^(\d+) ")
# cl100k splits a number into tokens of up to 3 digits.
DIGITS_PER_TOKEN = 3
# `[lines 1-816 pruned]`: 20 characters, 9 tokens; the brackets and digits are dense.
MODEL_MARKER_CHARS_PER_TOKEN = 2


# `cat -n` / `nl -ba`'s first line: the number 1 right-aligned, a tab.
_FIRST_NUMBERED = re.compile(r" *1\t")


def numbers_its_own_lines(lines: Sequence[str]) -> bool:
    """Whether every line already starts with its own number, counted from 1 (checked on the
    first line before the rest)."""
    if not lines or _FIRST_NUMBERED.match(lines[0]) is None:
        return False
    return without_line_numbers(lines) is not None


def model_prefix(line_no: int, line: str) -> str:
    """The kept line as the model reads it: `N text`, or the blank line as it is."""
    return f"{line_no} {line}" if line.strip() else line


def model_marker(start: int, end: int) -> str:
    """The marker of the removed lines `start`..`end` (1-based, inclusive)."""
    return MODEL_MARKER_TEMPLATE.format(start=start, end=end)


def number_tokens(line_no: int) -> int:
    """What a line's number costs the model (its space merges into the text)."""
    return -(-len(str(line_no)) // DIGITS_PER_TOKEN)


def marker_tokens(marker: str) -> int:
    return -(-len(marker) // MODEL_MARKER_CHARS_PER_TOKEN)


def view_tokens(view: str) -> int:
    """The estimated tokens of a text in the model's form (numbers and markers at their cost)."""
    text_chars = 0
    extra = 0
    for line in view.split("\n"):
        numbered = MODEL_NUMBERED.match(line)
        if numbered is not None:
            extra += number_tokens(int(numbered.group(1)))
            text_chars += len(line) - numbered.end() + 1
        elif MODEL_MARKER.match(line):
            extra += marker_tokens(line)
        else:
            text_chars += len(line) + 1
    return -(-max(0, text_chars - 1) // CHARS_PER_TOKEN) + extra
