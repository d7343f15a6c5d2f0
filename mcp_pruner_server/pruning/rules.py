"""Every boost and re-ordering of the code ranking, named in one table with a switch.

`code.code_units` scores each definition by BM25 of its body and name fields, then applies the
rules below in order; each is looked up here by name (`on`) before it runs. All are on by
default; `rules_off` switches some off for the duration of a `with` block (the switch is a
context variable: a benchmark or a test measures one prune without a rule, nothing else sees it).
`benchmarks/rule_contributions.py` prints what each rule adds, on and off, on the dev sets.

A language's own rules (its record's `hooks`: `languages/<name>.py`) are named
`<language>.<function>`: they are in the table too, so that each can be measured and switched off
like the others.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    """One rule of the ranking: its name (the switch's key) and what it does, in a sentence."""

    name: str
    does: str


_TABLE = (
    # the units' fields
    Rule(
        "code_words_named", "a question's code-like word that is a stop word (`get`) still names a definition"
    ),
    Rule("unsaid_name_lowered", "a name the question says only in part counts less than one it says wholly"),
    Rule(
        "called_credit", "a definition called from a line relevant to the question gets a share of its score"
    ),
    # re-orderings of the scored units
    Rule("namesakes_together", "namesakes (sync/async twins, overloads) score near the best of them"),
    Rule("namesakes_one_owner", "namesakes are together only inside one class, not across sibling classes"),
    Rule("twins_together", "near-twins (`get` / `get_mut`, `alpha0` / `alpha1`) score near the best of them"),
    Rule("named_twins_first", "among twins, the one the question's words name ranks first"),
    Rule("containers_as_context", "a container with members is their context, never a unit of its own"),
    Rule("class_fields", "a method comes with the fields of its class it reads"),
    Rule("imports_used", "the best units bring the imports their bodies use"),
    Rule("constants_used", "the best units bring the top-level constants and tables their bodies read"),
    Rule("quoted_code", "code quoted in the question (`p.new in sentinels`) keeps the lines holding it"),
    Rule(
        "windows_in_large_units",
        "a unit too large for the lines still missing keeps its first line and best window",
    ),
    Rule(
        "windows_by_best_lines",
        "a large unit whose best lines score near the best unit's is windowed too, whatever its fields",
    ),
    Rule("hot_lines", "in code, the lines scoring near the best line join before the fill's units"),
    Rule(
        "best_lines_fill", "the fill ranks a unit by its best lines' scores too, not only its fields' match"
    ),
    Rule("vague_keeps_more", "a question whose words fit many units alike keeps more lines (all: none fit)"),
    Rule("line_numbers", "a line number in the question ('line 198', 'L40-60') keeps its neighbourhood"),
    # language rules (each record's `hooks`)
    Rule("fortran.kinds", "Fortran: a specific's kind/rank suffix (`_dp`, `_2d`) says the question's words"),
    Rule("fortran.abbreviations", "Fortran: a name's shortened words (`vect`, `wts`) say the question's"),
    Rule("fortran.generic", "Fortran: a specific is also named by its generic interface"),
    Rule("matlab.operator_words", "MATLAB: an operator overload's name (`plus`, `mtimes`) says its words"),
    Rule("matlab.usage_named", "MATLAB: the function a help's usage line names ranks first"),
    Rule("powershell.dsc_contract", "PowerShell: DSC's Get/Set/Test-TargetResource say their contract words"),
    Rule(
        "powershell.approved_verb", "PowerShell: the cmdlet whose approved verb the question says ranks first"
    ),
    Rule("r.opening_name", "R: the function named at the question's opening ranks first"),
    Rule("r.roxygen_pages", "R: the function a roxygen page is named for ranks first"),
    Rule("vbnet.constructor_doc_hits", "VB.NET: `Sub New` is what 'Initializes a new instance' documents"),
)
RULES: dict[str, Rule] = {rule.name: rule for rule in _TABLE}

_OFF: ContextVar[frozenset[str]] = ContextVar("ranking_rules_off", default=frozenset())


def on(name: str) -> bool:
    """Whether the rule `name` applies (every rule does unless `rules_off` says otherwise).

    Raises:
        KeyError: `name` is not in `RULES` (a rule must be in the table to run).
    """
    if name not in RULES:
        raise KeyError(name)
    return name not in _OFF.get()


def hook_rule(lang: str | None, hook: object) -> str:
    """The table's name of a language's rule: `<language>.<its function's name>`."""
    return f"{lang}.{getattr(hook, '__name__', type(hook).__name__).lstrip('_')}"


def hook_on(lang: str | None, hook: object) -> bool:
    """Whether a language's rule applies: as `on`, but a rule missing from the table runs (a
    language's new rule must never fail a prune; a test holds the table complete)."""
    return hook_rule(lang, hook) not in _OFF.get()


@contextmanager
def rules_off(*names: str) -> Iterator[None]:
    """Switch the rules `names` off inside the `with` block.

    Raises:
        KeyError: a name is not in `RULES`.
    """
    for name in names:
        if name not in RULES:
            raise KeyError(name)
    token = _OFF.set(_OFF.get() | frozenset(names))
    try:
        yield
    finally:
        _OFF.reset(token)
