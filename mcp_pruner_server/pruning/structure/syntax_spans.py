"""Where a definition's block lies in a parse tree: its first and last rows, its signature, its name.

`syntax.py` decides which nodes are definitions and walks them; each block's lines are read
here from its node: the comments and attributes directly above it (also where the grammar puts
them outside the node: Ruby's first member, a Scala body's trailing doc), the line its body
opens on, its last line of code, and the name it defines (down a C declarator if need be); and
a Dart function's block from its two nodes, the signature and the body after it.
"""

from __future__ import annotations

from collections.abc import Sequence

from tree_sitter import Node

from mcp_pruner_server.pruning.languages.record import NO_SYNTAX, Syntax
from mcp_pruner_server.pruning.structure.code_blocks import Block
from mcp_pruner_server.pruning.structure.perl_pod import pod_doc_row
from mcp_pruner_server.pruning.structure.syntax_grammars import (
    ATTRIBUTES,
    BODY_FIELDS,
    BODY_NODES,
    DECLARATORS,
    FUNCTION_VALUES,
    STARTS_AT_FIRST_CHILD,
    name_text,
)

# A Perl POD block ends at `=cut`, and the sub it documents starts at most this many lines below.
POD_GAP = 2
# Nesting deeper than this (`#if` in `#if` …) is left to the chunks: recursion stays bounded.
MAX_DEPTH = 64


def body_of(node: Node) -> Node | None:
    """The `body` field, or the body child where the grammar has no such field."""
    found = node.child_by_field_name("body")
    if found is None:
        found = next((c for c in node.named_children if c.type in BODY_NODES), None)
    return found


def function_body(function: Node) -> Node | None:
    """The body of a function, also of one bound to a name (`const f = () => {…}`)."""
    body = body_of(function)  # also a Kotlin `function_body`, which no field names
    for field in BODY_FIELDS[1:]:
        value = function.child_by_field_name(field) if body is None else None
        if value is not None and value.type in FUNCTION_VALUES:
            body = value.child_by_field_name("body")
    return body


def last_row(node: Node) -> int:
    """The node's last line: a Rust `///` comment ends at column 0 of the next one."""
    row, col = node.end_point
    return int(row) - 1 if col == 0 and row > node.start_point[0] else int(row)


def leading_row(node: Node, siblings: Sequence[Node], index: int, syntax: Syntax) -> int:
    """First row of the comments and attributes directly above `node` (no blank line between).

    `node` is `siblings[index]`: the siblings above it are read from that list rather than
    asked of the tree one by one (each ask builds a new Python node).
    """
    top = row = int(node.start_point[0])
    if index > 0:
        while index > 0:
            index -= 1
            above = siblings[index]
            if syntax.pod_docs and above.type == "pod" and row - POD_GAP <= last_row(above) < top:
                return pod_doc_row(above)  # `=cut`, a blank line, then the sub
            if not row - 1 <= last_row(above) < top or not _annotates(above, syntax):
                break
            row = int(above.start_point[0])
        return row
    prev: Node | None = None
    parent = node.parent
    while prev is None and parent is not None and parent.type in STARTS_AT_FIRST_CHILD:
        if parent.start_point[0] != row:
            break
        prev, parent = parent.prev_named_sibling, parent.parent
    while prev is not None and row - 1 <= last_row(prev) < top and _annotates(prev, syntax):
        row = int(prev.start_point[0])
        prev = prev.prev_named_sibling
    return row


def last_code_row(node: Node) -> int:
    """The row of the last token of `node` that is not a comment."""
    for _ in range(MAX_DEPTH):
        k = node.child_count - 1  # from the end: most nodes end in code, found at once
        while k >= 0 and (_is_comment(kid := node.child(k)) or kid.end_point == kid.start_point):
            k -= 1
        if k < 0:
            break
        node = node.child(k)
    return last_row(node)


def trailing_doc_row(prev: Node, top: int) -> int:
    """First row of the comments ending `prev` directly above row `top` (a Scala indented body
    holds the next member's doc comment), else `top`."""
    if last_row(prev) < top - 1:
        return top  # a blank line between: nothing of `prev` is directly above
    row, node = top, prev
    for _ in range(MAX_DEPTH):
        kids = [c for c in node.children if c.end_point != c.start_point]
        while kids and _is_comment(kids[-1]) and row - 1 <= last_row(kids[-1]) < top:
            row = int(kids.pop().start_point[0])
        if row < top or not kids:
            return row
        node = kids[-1]
    return row


def _is_comment(node: Node) -> bool:
    return "comment" in node.type or node.type == "xml_doc"  # F#'s `///` lines


def _annotates(node: Node, syntax: Syntax) -> bool:
    if syntax.annotates is not None:
        return syntax.annotates(node)
    return "comment" in node.type or node.type in ATTRIBUTES


def definition_name(node: Node) -> str | None:
    """The defined name: a `name` / `key` field, or down a C declarator to its identifier."""
    for _ in range(MAX_DEPTH):
        found = node.child_by_field_name("name") or node.child_by_field_name("key")
        if found is not None and found.type == "template_type":  # `Layout<T…>`: the name is `Layout`
            found = found.child_by_field_name("name") or found
        if found is not None and found.type not in DECLARATORS:
            return name_text(found)
        inner = found or node.child_by_field_name("declarator")
        if inner is None:
            return None
        node = inner
        if node.type in ("identifier", "field_identifier", "type_identifier", "operator_name"):
            return name_text(node)
        if node.type in ("qualified_identifier", "destructor_name"):
            node = node.child_by_field_name("name") or node
            if node.type in ("qualified_identifier", "destructor_name"):
                return None
            return name_text(node)
    return None


def header_row(node: Node) -> int:
    named = node.child_by_field_name("name") or node.child_by_field_name("declarator")
    return int(named.start_point[0]) if named is not None else int(node.start_point[0])


def _opens_with_brace(body: Node) -> bool:
    first = body.child(0) if body.child_count else None  # a leaf body (`def x = 1`) has none
    return first is not None and first.type == "{"


def signature_end(node: Node, header: int) -> int:
    """Exclusive end of the signature: the line opening the body (`{`), or the one before it."""
    body = body_of(node)
    if body is None:
        return header + 1
    if body.type == "body_statement":  # Ruby: no brace; the body starts at its first statement
        params = node.child_by_field_name("parameters")
        return max(header, int(params.end_point[0]) if params is not None else header) + 1
    row = int(body.start_point[0])
    return max(header + 1, row + 1 if _opens_with_brace(body) else row)


def container_signature_end(body: Node, header: int) -> int:
    """A container's signature ends on the line its body opens (`{`, or `:` in Python)."""
    if body.type == "body_statement":  # Ruby's body starts at its first member
        return header + 1
    return max(header + 1, int(body.start_point[0]) + (1 if _opens_with_brace(body) else 0))


def dart_function(
    signature: Node, siblings: Sequence[Node], index: int, parent: int | None, out: list[Block]
) -> None:
    """A Dart function: its signature node and the `function_body` sibling after it (Dart gives
    a function as the two), added to `out` unless abstract (a declaration only, left to the chunks)."""
    body = siblings[index + 1] if index + 1 < len(siblings) else None
    if body is None or body.type != "function_body":
        return
    header = int(signature.start_point[0])
    end = last_row(body) + 1
    named = signature.named_children
    inner = named[0] if signature.type == "method_signature" and named else signature
    sig = max(
        header + 1, int(body.start_point[0]) + (1 if body.text is not None and body.text[:1] == b"{" else 0)
    )
    start = leading_row(signature, siblings, index, NO_SYNTAX)  # Dart reads its docs as most do
    name = definition_name(inner)
    if name is None and inner.type == "factory_constructor_signature":  # `factory Box.of(…)`
        name = next((name_text(c) for c in inner.named_children if c.type == "identifier"), None)
    out.append(Block(start, header, end, False, parent, sig_end=min(sig, end), name=name))
