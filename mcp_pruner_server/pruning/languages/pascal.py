"""Delphi and Free Pascal: no grammar wheel; its own scan (`pascal_blocks.py`). A `.pp` file is
Puppet's too: Pascal's when its lines say so."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Language
from mcp_pruner_server.pruning.structure.pascal_blocks import is_pascal, pascal_blocks

LANGUAGE = Language(
    name="pascal",
    extensions=(".pas", ".dpr", ".lpr", ".dpk"),
    scanner=pascal_blocks,
    claims=(".pp",),
    recognises=is_pascal,
    # Delphi and Free Pascal: a unit's sections, `uses`, routine heads ended by `;` (JavaScript's
    # `function f(x) {` is not), `var` / `const` alone on a line, `{$…}` directives (Erlang's
    # `begin`, `end;` and `end.` alone on a line are Pascal's too).
    signs=(
        r"^(?i:unit [\w.]+;|program [\w.]+;|interface|implementation|initialization|uses\b.*)\s*$",
        r"^\s*(?i:(?:class )?(?:procedure|function|constructor|destructor) [\w.]+\s*(?:\([^(){}]*\))?"
        r"\s*(?::\s*[\w.<>]+)?;)",
        r"^\s*(?i:\w+\s*=\s*(?:class|record|interface|packed record)\b(?:\s*\([\w., ]*\))?\s*$|"
        r"property \w+.*\bread\b)",
        r"^\s*(?i:var|const)\s*$|^\{\$(?i:mode|ifdef|ifndef|endif|define|i|include|h\+|r)\b",
    ),
)
