"""F#: its grammar gives functions as `let`s (`function_or_value_defn`, inside a `declaration_expression`
that also holds its `[<Attribute>]`s) and types' members as `member`s (`member_defn`, each in a
`type_extension_elements` of its own); a type, `module X =`, namespace or top-level `module` holds
them. A `let` binding a value is a unit only over several lines (as OCaml's). Its grammar gives the
`///` doc above a definition to the one before (the tail of that one's body): the walk ends each
definition at its last line of code and looks for its doc there (`trailing_comments`). Its calls
need no parentheses; its grammar parses ~2 MB/s (~1 MB/s on a busy machine), so its bound is
smaller for the same ~0.1 s. Which nodes define what is its definitions query
(`queries/fsharp.scm`); the names they define, and the one definition a wrapper holds, are read here.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from mcp_pruner_server.pruning.languages.record import Calls, Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.ml_code import fsharp_lines
from mcp_pruner_server.pruning.structure.syntax_grammars import name_text

# F#: what holds the members of a type, and the wrappers around one definition.
_FSHARP_TYPES = frozenset(
    {"anon_type_defn", "record_type_defn", "union_type_defn", "type_extension", "interface_type_defn"}
)


_FSHARP_MEMBERS = frozenset({"member_defn", "interface_implementation", "function_or_value_defn"})


# What sits around a definition and is no definition: its attributes and comments.
_FSHARP_ASIDE = frozenset({"attributes", "xml_doc", "line_comment", "block_comment"})


def _named(node: Node) -> list[Node]:
    return [c for c in node.named_children if c.type not in _FSHARP_ASIDE]


def fsharp_unwrap(node: Node) -> Node:
    """The one definition a `declaration_expression` or `type_extension_elements` holds."""
    if node.type not in ("declaration_expression", "type_extension_elements"):
        return node
    inner = _named(node)
    return inner[0] if len(inner) == 1 and inner[0].type in _FSHARP_MEMBERS else node


def _type_body(node: Node) -> Node | None:
    return next((c for c in node.named_children if c.type in _FSHARP_TYPES), None)


def fsharp_name(node: Node) -> str | None:
    """`add` of `let inline add x y`, `Spin` of `member this.Spin(…)`, `Widget` of its type."""
    t = node.type
    if t == "member_defn":
        inner = _named(node)
        node, t = (inner[0], inner[0].type) if inner else (node, t)
    if t == "additional_constr_defn":
        return "new"
    if t == "method_or_prop_defn":
        named = node.child_by_field_name("name")
        method = None if named is None else named.child_by_field_name("method")
        found = method or (None if named is None else _last_identifier(named))
    elif t == "function_or_value_defn":
        left = node.named_children[0] if node.named_child_count else None
        if left is not None and left.type == "ERROR":  # its head inside an error: its left side there
            left = next((c for c in left.named_children if c.type.endswith("_declaration_left")), None)
        found = None if left is None else (_first_identifier(left) or left)
    elif t in ("type_definition", "type_extension") or t in _FSHARP_TYPES:
        body = _type_body(node) if t == "type_definition" else node
        type_name = (
            None if body is None else next((c for c in body.named_children if c.type == "type_name"), None)
        )
        named = None if type_name is None else type_name.child_by_field_name("type_name")
        found = None if named is None else _last_identifier(named)
    elif t == "module_defn":
        found = next((c for c in node.named_children if c.type == "identifier"), None)
    else:
        named = node.child_by_field_name("name")
        found = None if named is None else _last_identifier(named)
    return None if found is None else name_text(found)


def _first_identifier(node: Node) -> Node | None:
    """The first name a `let`'s left side binds: `f` of `f x`, `(|Even|Odd|)` whole."""
    for child in node.named_children:
        if child.type in ("identifier", "active_pattern", "op_identifier"):
            return child
        if child.type == "identifier_pattern":
            return _first_identifier(child) or child
        if child.type == "long_identifier_or_op":
            return child
    return None


def _last_identifier(node: Node) -> Node | None:
    """`Name` of `this.Name`, `Widgets` of `Acme.Widgets`; the node itself when it is one."""
    if node.type in ("identifier", "op_identifier"):
        return node
    found = [c for c in node.named_children if c.type in ("identifier", "op_identifier")]
    return found[-1] if found else node


def fsharp_signature_end(node: Node, header: int) -> int:
    """Exclusive end of a definition's head: the line of its `=` (or a type extension's `with`)."""
    if node.type == "type_definition":
        node = _type_body(node) or node
    for child in node.children:
        if child.type in ("=", "with"):
            return max(header + 1, int(child.start_point[0]) + 1)
        if child.type == "type_extension_elements":  # `type System.String with` holds its `with`
            return max(header + 1, int(child.start_point[0]) + 1)
    return header + 1


def _annotates(node: Node) -> bool:
    """Its `///` docs are `xml_doc` nodes, a line each; `[<Attributes>]` belong to what they precede."""
    return "comment" in node.type or node.type in ("xml_doc", "attributes")


LANGUAGE = Language(
    name="fsharp",
    extensions=(".fs", ".fsx"),
    grammar=Grammar("tree_sitter_fsharp"),
    max_parse_chars=250_000,
    syntax=Syntax(
        definitions="ours",
        unwrap=fsharp_unwrap,
        name=fsharp_name,
        head_end=fsharp_signature_end,
        head_end_of_containers=True,
        trailing_comments=True,
        annotates=_annotates,
    ),
    calls=Calls(bare_words=re.compile(r"(?<![\w'~?])[A-Za-z_][\w']*"), code_of=fsharp_lines),
    # F#: attributes (`[<AutoOpen>]`), members, `let inline` / `let mutable`, `module M =`, `open System`,
    # `'T` type parameters, `printfn`, computation expressions (`let!`, `return!`).
    signs=(
        r"^\s*\[<[A-Z][\w.]*(?:\(.*\))?(?:\s*;\s*[A-Z][\w.]*(?:\(.*\))?)*>\]",
        r"^\s*(?:(?:static|abstract|override|default)\s+)*member\s+(?:(?:inline|private|internal|val)\s+)*[\w.]+",
        r"^\s*let\s+(?:inline|private|internal|mutable)\s|^\s*(?:let|use|return|do|match|yield)!\s",
        r"^\s*module\s+(?:(?:private|internal|rec)\s+)?[A-Z]\w*\s*=\s*$"
        r"|^open (?:type )?(?:System|FSharp|Microsoft)\b",
        r"<'[A-Z]\w*(?:\s*,\s*'[A-Z]\w*)*>|eprintfn\s+\$?\"|printfn\s+\$?\"|failwithf\s+\$?\"",
    ),
)
