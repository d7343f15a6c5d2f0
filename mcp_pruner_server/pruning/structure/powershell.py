"""PowerShell for the heuristics: approved verbs name what a function does; `<#` opens a comment.

A PowerShell function is named `Verb-Noun` with a verb from Microsoft's approved list (`Get-Verb`;
"Approved Verbs for PowerShell Commands"), and its help's synopsis opens with that verb's word:
"Gets the current state …" is `Get-TargetResource`, "Tests whether …" its `Test-` twin. `get` and
`set` are stop words, and the twins' nouns and bodies are alike, so nothing else tells them apart.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# A function whose verb the question's leading verb names scores this many times its own (as a
# predicate does for a yes/no question): a boost, not a filter.
VERB_BOOST = 2.0

# Each approved verb with the words Microsoft's list tells authors to use it for instead ("Do not
# use verbs such as …"), and the words its help's synopsis opens with.
_APPROVED: dict[str, tuple[str, ...]] = {
    "get": ("get", "return", "retrieve", "obtain", "acquire", "fetch", "read"),
    "set": ("set", "assign", "configure"),
    "test": ("test", "check", "verify", "determine", "validate"),
    "new": ("new", "create", "generate", "build", "make", "allocate"),
    "remove": ("remove", "delete", "erase", "discard", "dispose"),
    "add": ("add", "append", "attach", "insert"),
    "invoke": ("invoke", "run", "execute", "call"),
    "start": ("start", "launch", "initiate", "boot"),
    "stop": ("stop", "end", "terminate", "kill", "cancel"),
    "find": ("find", "locate"),
    "search": ("search",),
    "convert": ("convert", "translate"),
    "copy": ("copy", "duplicate", "clone"),
    "move": ("move", "transfer"),
    "rename": ("rename",),
    "update": ("update", "refresh"),
    "enable": ("enable",),
    "disable": ("disable",),
    "import": ("import", "load"),
    "export": ("export",),
    "install": ("install",),
    "uninstall": ("uninstall",),
    "register": ("register",),
    "unregister": ("unregister",),
    "clear": ("clear", "flush"),
    "reset": ("reset",),
    "lock": ("lock",),
    "unlock": ("unlock", "release"),
    "show": ("show", "display"),
    "write": ("write", "print", "log"),
    "format": ("format",),
    "resolve": ("resolve",),
    "wait": ("wait",),
    "send": ("send",),
    "receive": ("receive",),
    "connect": ("connect",),
    "disconnect": ("disconnect",),
    "compare": ("compare",),
    "merge": ("merge", "combine"),
    "split": ("split",),
    "join": ("join",),
    "save": ("save", "persist"),
    "restore": ("restore",),
    "open": ("open",),
    "close": ("close",),
    "grant": ("grant",),
    "revoke": ("revoke",),
    "measure": ("measure", "calculate", "count"),
    "select": ("select", "pick", "filter"),
    "initialize": ("initialize", "init", "prepare"),
}
_VERB_OF = {word: verb for verb, words in _APPROVED.items() for word in words}
_LEADING_WORD = re.compile(r"\s*([A-Za-z]+)")
# `function Get-Thing`, `filter local:Set-Thing`, `Function script:Test-Thing(`
_VERB_NOUN = re.compile(r"^\s*(?:function|filter)\s+(?:\w+:)?([A-Za-z]+)-[A-Za-z]", re.IGNORECASE)


def _base_form(word: str) -> str:
    """A verb's base form from its third person (`gets`, `verifies`, `searches`, `creates`)."""
    w = word.lower()
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("ches", "shes", "sses", "xes")):
        return w[:-2]
    if w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w


def question_verb(question: str) -> str | None:
    """The approved verb the question's leading word stands for ("Gets …" → `get`), or None."""
    m = _LEADING_WORD.match(question)
    if m is None:
        return None
    word = m.group(1).lower()
    return _VERB_OF.get(word) or _VERB_OF.get(_base_form(word))


def approved_verb_first(question: str, signatures: Sequence[str], scores: Sequence[float]) -> list[float]:
    """`scores` with every `Verb-Noun` function whose verb the question opens with raised by
    `VERB_BOOST`; `signatures` are the units' header lines (empty for a chunk)."""
    verb = question_verb(question)
    if verb is None:
        return list(scores)
    out = list(scores)
    for k, sig in enumerate(signatures):
        if (m := _VERB_NOUN.match(sig)) and m.group(1).lower() == verb:
            out[k] *= VERB_BOOST
    return out


# PowerShell's block comment `<# … #>` holds a function's comment-based help (`.SYNOPSIS`,
# `.PARAMETER x`), often first in its body: its `<#` at the function's own indentation (`filter X`
# / `{` / `<#` at column 0) is a comment, which ends no body, as a `#` line is (read as code, it
# cut the function off after its `{`, its help and code chunks of their own).
PWSH_COMMENT = re.compile(r"^\s*(?:<#|#(?!!))")
