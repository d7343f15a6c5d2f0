"""Each language's own rules for code units, as data: one `LanguageHooks` per language.

`code.code_units` ranks every language's definitions alike; what one language adds to that
(its blocks found by its own lexing, words its headers imply, a reordering of its units, rows of
documentation outside any definition) is a field of its hooks, the `hooks` of its record
(`pruning/languages/`), which `code_units` reads and never names a language itself.

To add a rule for a language: write the function in that language's own module with the
signature of the field (`BlockFinder`, `NameHits`, `Reorder`, `DocRows`; an adapter below when
its own signature differs), then set the field in the language's hooks (below), which its
record names. `name_hits` and
`reorders` are tuples: append to them, they run in order. A rule that reads the whole text or
question once (not once per definition) is made by the entry's `prepare` for one prune, and holds
what it read for that prune alone: nothing one prune reads outlives it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from mcp_pruner_server.pruning.deadline import Deadline
from mcp_pruner_server.pruning.scoring import Doc, LineHits
from mcp_pruner_server.pruning.structure.code_blocks import Block
from mcp_pruner_server.pruning.structure.fortran_generics import generic_hits, generics_of
from mcp_pruner_server.pruning.structure.fortran_names import abbreviated_hits, kind_hits, question_words
from mcp_pruner_server.pruning.structure.matlab_blocks import name_word_hits, usage_named_first
from mcp_pruner_server.pruning.structure.matlab_docs import matlab_doc_bags
from mcp_pruner_server.pruning.structure.powershell import approved_verb_first, dsc_contract_hits
from mcp_pruner_server.pruning.structure.powershell_blocks import powershell_blocks
from mcp_pruner_server.pruning.structure.r_blocks import opening_name_first
from mcp_pruner_server.pruning.structure.r_roxygen import page_owners_first
from mcp_pruner_server.pruning.structure.vbnet_units import constructor_doc_hits


class BlockFinder(Protocol):
    """Every definition block of `lines`, outer before inner (as `code_blocks.find_blocks`)."""

    def __call__(self, lines: Sequence[str], *, deadline: Deadline) -> list[Block]: ...


# The question's words a definition's header implies without saying them, as hits of its name
# field (its own words win where both count one): (block, all lines, question terms) -> hits.
NameHits = Callable[[Block, Sequence[str], Mapping[str, float]], dict[str, int]]


@dataclass(frozen=True)
class Ranked:
    """What a reordering sees of the units: the question, and per unit (definitions first, then
    chunks) its defined name (None for a chunk or an unnamed block) and its header lines; also
    the text's lines and each unit's own lines (a definition's with its doc comment)."""

    question: str
    names: Sequence[str | None]
    signatures: Sequence[str]
    lines: Sequence[str] = ()
    bodies: Sequence[Sequence[int]] = ()


# Name hits made for one prune from what they read once of its text and query, run after the
# entry's own `name_hits`: (lines, query) -> name hits.
Prepare = Callable[[Sequence[str], Mapping[str, float]], tuple[NameHits, ...]]


# The units' scores, some raised (or lowered) for what the question says: (ranked, scores) -> scores.
Reorder = Callable[[Ranked, Sequence[float]], list[float]]
# The bags of a parser's definitions where more than the comments above one are its doc (each
# counting `LEAD_WEIGHT` a line): (lines, line hits, blocks) -> (block's index, its unit's end) -> bag.
DocBags = Callable[[Sequence[str], LineHits, Sequence[Block]], Callable[[int, int], Doc]]
# The rows of documentation outside definitions (a chunk starting on one is scored as a doc
# comment is, `LEAD_WEIGHT` a line, and left out of the average name length).
DocRows = Callable[[Sequence[str]], set[int]]


@dataclass(frozen=True)
class LanguageHooks:
    """One language's rules for `code.code_units`; every field's default is "none"."""

    # Finds the blocks when no parser gave them (default: `code_blocks.find_blocks`).
    block_finder: BlockFinder | None = None
    # Words each definition's header implies, joined to its name field in this order.
    name_hits: tuple[NameHits, ...] = ()
    # Name hits made for each prune (after `name_hits`), holding what they read for it alone.
    prepare: Prepare | None = None
    # Applied in this order after the language-independent boosts, before namesakes share.
    reorders: tuple[Reorder, ...] = ()
    # Documentation rows outside definitions (Perl's POD).
    doc_rows: DocRows | None = None
    # Each definition's bag of terms, its docs weighed (default: `LineHits.led`, the doc above).
    doc_bags: DocBags | None = None
    # A parser's container over `code.CHUNK_LINES` is its header, its body chunks (not one unit).
    chunk_long_containers: bool = False


NO_HOOKS = LanguageHooks()


def _dsc_contract(block: Block, lines: Sequence[str], query: Mapping[str, float]) -> dict[str, int]:
    return dsc_contract_hits(lines[block.header], query)


def _operator_words(block: Block, lines: Sequence[str], query: Mapping[str, float]) -> dict[str, int]:
    return name_word_hits(block.name, query)


def _fortran_name_hits(lines: Sequence[str], query: Mapping[str, float]) -> tuple[NameHits, ...]:
    words = question_words(query)  # read once: a file has hundreds of procedures
    generics = generics_of(lines)

    def kinds(block: Block, lines: Sequence[str], query: Mapping[str, float]) -> dict[str, int]:
        return kind_hits(block.name, words)

    def abbreviations(block: Block, lines: Sequence[str], query: Mapping[str, float]) -> dict[str, int]:
        return abbreviated_hits(block.name, lines[block.header], words)

    def generic(block: Block, lines: Sequence[str], query: Mapping[str, float]) -> dict[str, int]:
        return generic_hits(block.name, generics, query)

    return kinds, abbreviations, generic


def _approved_verb(ranked: Ranked, scores: Sequence[float]) -> list[float]:
    return approved_verb_first(ranked.question, ranked.signatures, scores)


def _opening_name(ranked: Ranked, scores: Sequence[float]) -> list[float]:
    return opening_name_first(ranked.question, ranked.names, scores)


def _roxygen_pages(ranked: Ranked, scores: Sequence[float]) -> list[float]:
    return page_owners_first(ranked.lines, ranked.bodies, ranked.names, scores)


def _usage_named(ranked: Ranked, scores: Sequence[float]) -> list[float]:
    return usage_named_first(ranked.question, ranked.names, scores)


# Fortran's long derived types and modules of declarations only: hundreds of components as
# one unit filled the budget when they won (`languages/queries/fortran.scm`'s `min_rows`).
# A specific's name says its kind and rank (`_dp`, `_2d`: "double precision", "2D"), cuts its
# words short (`vect`, `wts`, `getelm`), and is also its generic's (`interface stop_type`: `fortran_*.py`).
FORTRAN_HOOKS = LanguageHooks(chunk_long_containers=True, prepare=_fortran_name_hits)
# MATLAB's help follows the signature, and a class's help lists its methods (`matlab_docs.py`).
MATLAB_HOOKS = LanguageHooks(name_hits=(_operator_words,), reorders=(_usage_named,), doc_bags=matlab_doc_bags)
POWERSHELL_HOOKS = LanguageHooks(
    block_finder=powershell_blocks,  # its braces, as PowerShell lexes them
    name_hits=(_dsc_contract,),
    reorders=(_approved_verb,),
)
# R: the function a roxygen page is named for after the title's words (`r_roxygen.py`).
R_HOOKS = LanguageHooks(reorders=(_opening_name, _roxygen_pages))
# Visual Basic: `Sub New` is what "Initializes a new instance …" documents (`vbnet_units.py`).
VBNET_HOOKS = LanguageHooks(name_hits=(constructor_doc_hits,))
