"""PowerShell for the heuristics: approved verbs name what a function does; `<#` opens a comment.

A PowerShell function is named `Verb-Noun` with a verb from Microsoft's approved list (`Get-Verb`;
"Approved Verbs for PowerShell Commands"), and its help's synopsis opens with that verb's word:
"Gets the current state …" is `Get-TargetResource`, "Tests whether …" its `Test-` twin. `get` and
`set` are stop words, and the twins' nouns and bodies are alike, so nothing else tells them apart.
The verb is the question's first word (past a `.SYNOPSIS` it was copied with), or the one after a
help's subject ("This function will split …"); a verb off the list counts as itself. A DSC
resource's `Get-` / `Set-` / `Test-TargetResource` are named by the state they handle.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mcp_pruner_server.pruning.terms import terms

# A function whose verb the question's leading verb names scores this many times its own (as a
# predicate does for a yes/no question): a boost, not a filter.
VERB_BOOST = 2.0

# Each approved verb with the words Microsoft's list tells authors to use it for instead ("Do not
# use verbs such as …"), and the words its help's synopsis opens with. A word names one verb only:
# `build` and `read`, approved verbs of their own, are the words the list gives `New` and `Get`.
_APPROVED: dict[str, tuple[str, ...]] = {
    "get": ("get", "return", "retrieve", "obtain", "acquire", "fetch", "read", "list", "enumerate"),
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
    "assert": ("assert", "affirm", "certify"),
    "confirm": ("confirm", "acknowledge"),
    "enter": ("enter",),
    "exit": ("exit",),
    "hide": ("hide",),
    "skip": ("skip", "bypass"),
    "switch": ("switch", "toggle"),
    "undo": ("undo", "revert"),
    "redo": ("redo",),
    "watch": ("watch", "monitor"),
    "optimize": ("optimize",),
    "resize": ("resize",),
    "push": ("push",),
    "pop": ("pop",),
    "compress": ("compress", "compact"),
    "expand": ("expand", "uncompress", "unzip"),
    "edit": ("edit",),
    "group": ("group",),
    "limit": ("limit", "quota"),
    "mount": ("mount",),
    "dismount": ("dismount", "unmount"),
    "publish": ("publish", "deploy"),
    "unpublish": ("unpublish",),
    "sync": ("sync", "synchronize", "replicate"),
    "debug": ("debug", "diagnose"),
    "repair": ("repair", "fix"),
    "trace": ("trace", "track"),
    "approve": ("approve",),
    "deny": ("deny", "reject", "refuse"),
    "complete": ("complete",),
    "request": ("request",),
    "restart": ("restart", "recycle"),
    "resume": ("resume",),
    "suspend": ("suspend", "pause"),
    "submit": ("submit", "post"),
    "block": ("block", "prevent"),
    "unblock": ("unblock",),
    "protect": ("protect", "encrypt", "seal"),
    "unprotect": ("unprotect", "decrypt", "unseal"),
    "use": ("use",),
}
_VERB_OF = {word: verb for verb, words in _APPROVED.items() for word in words}
# The question's first word, past a help keyword it was copied with (`.SYNOPSIS Gets …`), unless a
# particle makes it another verb ("Sets up" is no `Set`, "Logs off" no `Write`) …
_LEADING_WORD = re.compile(r"\s*(?:\.[A-Za-z]+\s+)?([A-Za-z]+)\b(?!\s+(?:up|off)\b)")
# … or the verb of a sentence of the help naming what it documents ("This function will split …",
# "This cmdlet is used to return …", "Helper function to parse …"). Its runs of spaces are taken
# whole (`++`): split between adjacent `\s+` and `\s*`, a sentence end followed by a thousand
# spaces took seconds to reject.
_SUBJECT_VERB = re.compile(
    r"(?:^\s*+|[.!?:]\s++)(?:(?:this|a|the|helper|internal|private)\s*+)?(?:helper\s++)?"
    r"(?:function|cmdlet|command|filter|script)\s++"
    r"(?:also\s++|will\s++|can\s++|is\s++used\s++to\s++|used\s++to\s++|to\s++|that\s++|which\s++)*"
    r"([A-Za-z]+)\b(?!\s+(?:up|off)\b)",
    re.IGNORECASE,
)
# A help that returns a truth value describes a `Test-` function ("Returns $true when …", "Returns
# whether …"), as Microsoft's list has it, not a `Get-`.
_RETURNS_BOOLEAN = re.compile(
    r"\s*(?:\.[A-Za-z]+\s+)?returns?\s+(?:\$?true|\$?false|a\s+bool(?:ean)?|whether|if)\b", re.IGNORECASE
)
# `function Get-Thing`, `filter local:Set-Thing`, `Function script:Test-Thing(`, after the byte order
# mark a file saved by Windows tools may open with
_VERB_NOUN = re.compile(r"^\ufeff?\s*(?:function|filter)\s+(?:\w+:)?([A-Za-z]+)-[A-Za-z]", re.IGNORECASE)


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


def _verb_words(question: str) -> list[str]:
    """The words that may be the question's verb, in base form: its first, then the one after a
    help's subject ("This function will split …")."""
    if _RETURNS_BOOLEAN.match(question):
        return ["test"]
    found = (_LEADING_WORD.match(question), _SUBJECT_VERB.search(question))
    return [_base_form(m.group(1)) for m in found if m is not None]


def question_verb(question: str) -> str | None:
    """The approved verb the question's leading word stands for ("Gets …" → `get`), or None."""
    return next((verb for word in _verb_words(question) if (verb := _VERB_OF.get(word))), None)


# A function's verb no approved verb stands for is the question's verb when it is that word or
# abbreviates it to at least this many letters (`Enum-AllTokens` for "Enumerates …", `Apply-X`
# for "Applies …"): authors outside Microsoft's list name their verbs so.
MIN_VERB_PREFIX = 4


def approved_verb_first(question: str, signatures: Sequence[str], scores: Sequence[float]) -> list[float]:
    """`scores` with every `Verb-Noun` function whose verb the question names (its approved verb,
    or the word itself: `MIN_VERB_PREFIX`) raised by `VERB_BOOST`; `signatures` are the units'
    header lines (empty for a chunk)."""
    words = _verb_words(question)
    verb = next((v for word in words if (v := _VERB_OF.get(word))), None)
    if verb is None and not words:
        return list(scores)
    out = list(scores)
    for k, sig in enumerate(signatures):
        if (m := _VERB_NOUN.match(sig)) is None:
            continue
        own = m.group(1).lower()
        if own == verb or (len(own) >= MIN_VERB_PREFIX and any(w.startswith(own) for w in words)):
            out[k] *= VERB_BOOST
    return out


# PowerShell's block comment `<# … #>` holds a function's comment-based help (`.SYNOPSIS`,
# `.PARAMETER x`), often first in its body: its `<#` at the function's own indentation (`filter X`
# / `{` / `<#` at column 0) is a comment, which ends no body, as a `#` line is (read as code, it
# cut the function off after its `{`, its help and code chunks of their own).
PWSH_COMMENT = re.compile(r"^\s*(?:<#|#(?!!))")


# A DSC resource's three functions are the contract the DSC engine calls, named for nothing they
# do: Microsoft's documentation and the resources' help describe them by the state they handle
# ("Returns the current state of …", "Sets the desired state …", "Tests if … is in the desired
# state"), the words their name field holds here as a `new` holds "create".
_TARGET_RESOURCE = re.compile(r"^\s*function\s+(?:\w+:)?(get|set|test)-TargetResource\b", re.IGNORECASE)
_DSC_CONTRACT = {
    verb: terms(words)
    for verb, words in (("get", "current state"), ("set", "desired state"), ("test", "desired state"))
}


def dsc_contract_hits(header: str, query: Mapping[str, float]) -> dict[str, int]:
    """The question's words for what a DSC resource's `Get-` / `Set-` / `Test-TargetResource`
    does, as hits of its name field (none for any other header)."""
    m = _TARGET_RESOURCE.match(header)
    if m is None:
        return {}
    return {t: 1 for t in _DSC_CONTRACT[m.group(1).lower()] if t in query}
