"""Groovy (Gradle, Nextflow, Jenkins pipelines): its grammar is Java's with Groovy's additions, and
the shared tables read it; but it misreads much Groovy without many errors to show for it (a field
without `;` swallows the method after it, `i<n` reads as a generic, a `trait` as a call: in much
real Groovy it finds barely half the methods), so a parse is trusted only where its definitions
head or hold most of the lines the heuristics read as headers (`covers_headers`).
"""

from __future__ import annotations

from collections.abc import Sequence

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.code_blocks import Block, is_header

MIN_HEADER_COVERAGE = 0.8


def covers_headers(blocks: Sequence[Block], text: str) -> bool:
    """Whether the definitions `blocks` head or hold most of the lines of `text` that
    `code_blocks.is_header` reads as definition headers."""
    lines = text.split("\n")
    covered = [False] * len(lines)
    for b in blocks:
        if b.container:
            covered[b.header] = True
        else:
            covered[b.header : b.end] = [True] * (b.end - b.header)
    headers = [i for i, line in enumerate(lines) if is_header(line)]
    return sum(covered[i] for i in headers) >= MIN_HEADER_COVERAGE * len(headers)


LANGUAGE = Language(
    name="groovy",
    extensions=(".groovy", ".gradle", ".nf"),
    file_names=("jenkinsfile",),
    interpreters=("groovy",),
    grammar=Grammar("tree_sitter_groovy"),
    syntax=Syntax(trusted=covers_headers, trailing_comments=True, container_opener="class _ {"),
    # Groovy: its own packages and AST annotations, `def f(x) {` (Scala types its parameters, Python ends
    # with `:`), Java's typed declarations without a `;`, `println x`, closures over `.each {`.
    signs=(
        r"^import (?:static )?(?:groovy|org\.codehaus\.groovy|org\.apache\.groovy|spock)\.",
        r"^\s*@(?:CompileStatic|CompileDynamic|TypeChecked|Canonical|TupleConstructor|Memoized|PackageScope|"
        r"InheritConstructors|AutoClone|Field|Grab|Newify|Sortable|MapConstructor|NamedVariant|AutoFinal)\b",
        r"^\s*(?:(?:public|private|protected|static|final|synchronized|abstract)\s+)*def\s+[\w\"']+\s*\([^:]*\)\s*"
        r"(?:throws [\w., ]+)?\{\s*$",
        r"^\s*(?:(?:private|protected|public|static|final)\s+)*(?:String|Integer|Long|Boolean|Double|Map|List|Set|"
        r"Object|Closure|File|BigDecimal)(?:<[^;]*>)?(?:\[\])?\s+[a-z]\w*\s*(?:=[^;]*[^;,({+*/&|=.\s-]\s*)?$",
        r"^\s*println\s+[^\s(=]|\.(?:each|eachWithIndex|findAll|collectEntries|collectMany|eachLine)\s*\{(?!\s*\|)",
    ),
)
