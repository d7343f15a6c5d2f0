"""A task's question: the doc comment directly above a function, and its first paragraph.

`doc_comment` finds the comment nodes above a definition (with the attributes between them
and it), `describes` says whether they are the language's doc comment where it has one
(`/** … */` in Java), and `question` strips their comment marks and markup (`@param`, C# XML,
RDoc's `call-seq:`, Doxygen) and keeps the description's first paragraph, without a leading
name of the target. The languages added after the first twelve read their own doc shapes
(`_NEW_MARKS`, `_is_doc`), so the first twelve's sets stay byte-identical.
"""

from __future__ import annotations

import re
from typing import Any

from lang_tables import ATTRIBUTES, NEW_LANGS

# The doc comment's opening, in languages that have one (the others document with any comment).
DOC_MARKS: dict[str, tuple[bytes, ...]] = {
    "java": (b"/**",),
    "js": (b"/**",),
    "ts": (b"/**",),
    "php": (b"/**",),
    "csharp": (b"///", b"/**"),
    "rust": (b"///", b"/**"),
    # KDoc, Scaladoc, Swift's and Dart's `///`, Zig's `///`, HeaderDoc: a `//` above is a note.
    "kotlin": (b"/**",),
    "scala": (b"/**",),
    "swift": (b"///", b"/**"),
    "dart": (b"///", b"/**"),
    "zig": (b"///",),
    "objc": (b"///", b"/**", b"/*!"),
}
_COMMENT_MARKS = re.compile(r"^\s*(?:/\*\*?|\*/|\*|///?|//!|#+)\s?")
# Also Lua `---` / `--[[` / LDoc's `--[[--`, Haskell `-- |` / `{-|`, OCaml `(**`, Elixir
# `@doc """`, Julia `"""`; a lone OCaml `*)` is a mark whole, not a `*` and a `)`.
_NEW_MARKS = re.compile(
    r"^\s*(?:/\*\*?|\*/|\*+\)|\*|///?|//!|#+|--+(?:\[=*\[-*)?\s*[|^]?|\{-\|?|-\}|\(\*\*?"
    r"|@(?:module)?doc\s+(?:~[sS])?\"(?:\"\")?|\"\"\")\s?"
)
_NEW_END_MARKS = re.compile(r"\s*(?:\*+\)|-\}|\]=*\]|\"\"\"|\")\s*$")
# A ruler: a box's edge, or the underline that makes the line above it a heading (Automake's
# `# func ($ARG)` / `# -----------`, ExifTool's `#------` above the description).
_RULER = re.compile(r"[-=*#~_+]{3,}")
# C# XML docs: `<summary>` is the description, `<param>`, `<returns>` … end it like `@param`.
XML_END = re.compile(r"^<(?:param|typeparam|returns|exception|remarks|example|value|seealso)\b")
XML_REF = re.compile(r"<(?:see|paramref|typeparamref)\s+\w+=\"(?:[A-Z]:)?([^\"]+)\"\s*/>")
XML_TAG = re.compile(r"</?\w+[^>]*>")
# Markup that is not prose: Doxygen `@brief` / `\brief`, fmt's `\rst` … `\endrst`, RDoc's `\Word`.
_MARKUP = re.compile(r"^[@\\]brief\s+|\\(?:end)?rst\b|^\\(?=\w)")
# Dartdoc's directives (`{@template name}`, `{@macro name}`, …) are markup, not prose.
_DARTDOC = re.compile(r"\{@(?:template|endtemplate|macro|category|subCategory|tool|end-tool)\b[^}]*\}")
# Xcode's `// MARK: Section` heads the section below it: it does not describe the function.
_SECTION_MARK = re.compile(rb"\s*//\s*MARK:")


def last_row(node: Any) -> int:
    """The node's last line: a Rust `///` comment ends at column 0 of the next one."""
    row, col = node.end_point
    return int(row) - 1 if col == 0 and row > node.start_point[0] else int(row)


def last_code_row(node: Any) -> int:
    """The row of the last token of `node` that is not a comment."""
    for _ in range(10_000):
        kids = [c for c in node.children if "comment" not in c.type and c.end_point != c.start_point]
        if not kids:
            break
        node = kids[-1]
    return last_row(node)


def _after_code(comment: Any) -> bool:
    """The comment ends a line of code (its previous sibling ends on the row it starts on)."""
    before = comment.prev_sibling
    return before is not None and before.end_point[0] == comment.start_point[0]


def _is_doc(node: Any, lang: str) -> bool:
    """A comment, or a new language's doc that is not one to the grammar: a Haskell `-- |`
    (`haddock`), a Julia docstring above its function, an Elixir `@doc \"""…\"""`."""
    if "comment" in node.type and lang != "haskell":
        return True
    if lang not in NEW_LANGS:
        return False
    if lang == "haskell":
        return bool(node.type == "haddock")  # a plain `--` comment above is not its doc
    if lang == "julia":
        return bool(node.type == "string_literal")
    return lang == "elixir" and _elixir_doc(node)


def _elixir_doc(node: Any) -> bool:
    return node.type == "unary_operator" and re.match(rb'@doc\s+(?:~[sS])?"', node.text or b"") is not None


def _is_attribute(node: Any, lang: str) -> bool:
    """An attribute: also Elixir's `@spec`, `@impl`, `@doc since: …` between `@doc` and `def`."""
    if node.type in ATTRIBUTES:
        return True
    return lang == "elixir" and node.type == "unary_operator" and (node.text or b"").startswith(b"@")


def describes(first_comment: Any, lang: str) -> bool:
    """Whether a comment is the language's doc comment where it has one: a `// why` note above
    a Java method is not its documentation (`/** … */` is), nor `//` above a Rust `fn`."""
    marks = DOC_MARKS.get(lang)
    return marks is None or (first_comment.text or b"").lstrip().startswith(marks)


def doc_comment(outer: Any, lang: str) -> tuple[list[Any], list[Any]]:
    """The comment nodes directly above `outer` (no blank line between) and attribute nodes."""
    comments: list[Any] = []
    attrs: list[Any] = []
    row = outer.start_point[0]
    prev = outer.prev_named_sibling
    while prev is not None and last_row(prev) >= row - 1:
        if _is_doc(prev, lang):
            if prev.text is not None and prev.text.startswith(b"#!"):
                break  # a shebang documents the script, not its first function
            if _after_code(prev):
                break  # `#[attr] // why` explains the line it ends, not the function
            if lang in NEW_LANGS and _SECTION_MARK.match(prev.text or b""):
                break
            comments.insert(0, prev)
        elif _is_attribute(prev, lang):
            if comments:
                break
            attrs.insert(0, prev)
        else:
            break
        row = prev.start_point[0]
        prev = prev.prev_named_sibling
    return comments, attrs


def question(lines: list[str], first: int, last: int, name: str, lang: str) -> str:
    """The first paragraph of the comment on rows `first`..`last`: its marks, markup and tags
    stripped, and a leading `name` of the target dropped."""
    paragraph: list[str] = []
    call_seq = False  # RDoc's `call-seq:` block names the method: the prose after it is asked
    new = lang in NEW_LANGS
    ruled = False  # a ruler under text: that text was a heading, the description follows
    code = False  # inside a Scaladoc `{{{ … }}}` code block: code (an ASCII diagram) is not prose
    for raw in lines[first : last + 1]:
        if lang == "julia" and raw.startswith("    ") and not paragraph:
            continue  # a Julia docstring opens with the indented signature: it names the target
        if new:
            text = _NEW_END_MARKS.sub("", _NEW_MARKS.sub("", raw)).strip().rstrip("*/").strip()
            if code or text.startswith("{{{"):
                code = not text.endswith("}}}")
                continue
            if _RULER.fullmatch(text):
                ruled = bool(paragraph)
                continue
            if ruled:
                paragraph, ruled = [], False
        else:
            text = _COMMENT_MARKS.sub("", raw).strip().rstrip("*/").strip()
        if XML_END.match(text):
            break
        text = _MARKUP.sub("", XML_TAG.sub("", XML_REF.sub(r"\1", text))).strip()
        if lang == "dart":
            text = _DARTDOC.sub("", text).strip()
        if text.startswith("call-seq:"):
            call_seq = True
        if not text:
            call_seq = False
            if paragraph:
                break
            continue
        if call_seq:
            continue
        if text.startswith("@"):  # javadoc / jsdoc tags end the description
            break
        paragraph.append(text)
    words = " ".join(paragraph).split()
    if words and words[0].strip(".,:") in (name, f"{name}()"):
        words = words[1:]
    return " ".join(words)
