"""Definition blocks from a real parser (tree-sitter), for the languages it has a grammar for.

A function or method is a block with the comments and attributes directly above it; a class,
`impl`, namespace or object of functions is a container block whose members are blocks of
their own (`code.py` makes a container's unit its header and fields up to the first member,
so it never competes with its members). Anything else at the top level (imports, constants,
statements) is left to `code.py`'s chunks. `syntax_blocks` returns None when the language has
no grammar installed, the text is too large to parse in time, or the parse mostly failed:
the engine then uses `code_blocks.find_blocks`, the language-independent heuristics.

The walk is the same for every language; what the grammars' shared node types mean is
`syntax_grammars.py`, which rows a definition's node spans and the name it defines
`syntax_spans.py`, what a parse with errors still tells `syntax_recovery.py`, how a window cut
out of a file (`sed -n '120,360p' f`) that does not parse is read `syntax_window.py`. What one
language adds (its grammar wheel, its own definitions' shapes and names: Elixir's `def` calls,
F#'s `let`s, Fortran's procedures, Solidity's contracts, Haskell's equations, when Groovy's
partial grammar is trusted) is the `Syntax` of its record (`pruning/languages/<name>.py`).
"""

from __future__ import annotations

import functools
from dataclasses import replace

import tree_sitter
from tree_sitter import Node

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.languages.record import Found, Language, Syntax
from mcp_pruner_server.pruning.languages.registry import by_name, grammar_of
from mcp_pruner_server.pruning.structure.code_blocks import MODULE_LIKE_LINES, Block
from mcp_pruner_server.pruning.structure.syntax_definitions import definitions_query
from mcp_pruner_server.pruning.structure.syntax_grammars import (
    ANONYMOUS_BINDERS,
    ANONYMOUS_TYPES,
    ANONYMOUS_WRAPPERS,
    BODY_FIELDS,
    CONTAINERS,
    FUNCTION_VALUES,
    FUNCTIONS,
    KEYWORD_NAMES,
    NOT_WRAPPED,
    TRANSPARENT,
    WRAPPERS,
)
from mcp_pruner_server.pruning.structure.syntax_parse import RecentResults, parse_until
from mcp_pruner_server.pruning.structure.syntax_recovery import (
    dropped_tail,
    failed_rows,
    reparse_tails,
    scope_members,
)
from mcp_pruner_server.pruning.structure.syntax_spans import (
    MAX_DEPTH,
    body_of,
    container_signature_end,
    dart_function,
    definition_name,
    function_body,
    header_row,
    last_code_row,
    last_row,
    leading_row,
    signature_end,
    trailing_doc_row,
)
from mcp_pruner_server.pruning.structure.syntax_window import window_blocks

# Above this many characters the heuristics are used: tree-sitter parses ~20 MB/s, so 2 MB is
# ~0.1 s, and a text this large is a generated bundle or a dump more than a source file.
MAX_PARSE_CHARS = 2_000_000
# A parse that could not place what more than this fraction of the lines hold is not trusted
# (a fragment, a template, the wrong language): the heuristics cope with anything.
MAX_ERROR_FRACTION = 0.2


def _kind(node: Node, syntax: Syntax) -> Found:
    """("function" | "container", the node whose body holds members) for a definition, else None."""
    t = node.type
    if syntax.kind is not None:  # a language whose definitions the shared tables do not describe
        return syntax.kind(node)
    if t in CONTAINERS or (t == "enum_declaration" and syntax.enum_containers):
        body = body_of(node)
        if body is None:
            return ("function", node) if t in ("struct_specifier", "class_specifier") else None
        if _kind(body, syntax) is not None:  # Scala's `extension (s: String) def shout = …`: one member
            return "container", node
        if body.type in ANONYMOUS_TYPES:  # `given Show[Int] = new Show[Int] { … }`
            body = next((c for c in body.named_children if c.type == ANONYMOUS_TYPES[body.type]), body)
        return "container", body
    if t in ANONYMOUS_BINDERS:
        anonymous = _anonymous_type_body(node, syntax)
        if anonymous is not None:
            return "container", anonymous
    if t == "property_declaration" and syntax.accessors:
        spans_lines = node.end_point[0] > node.start_point[0]
        return (
            ("function", node)
            if spans_lines and any(c.type in syntax.accessors for c in node.children)
            else None
        )
    if t in FUNCTIONS or t in syntax.functions:
        if t in ("function_definition", "function_item") or body_of(node) is not None:
            return "function", node
        return ("function", node) if node.end_point[0] > node.start_point[0] else None
    if syntax.own_kind is not None:
        found = syntax.own_kind(node)
        if found is not None:
            return found
    if t == "object":  # an object literal of functions (`module.exports = {…}`) is a container
        members = [c for c in node.named_children if _kind(c, syntax) is not None]
        return ("container", node) if members else None
    if t == "pair":
        value = node.child_by_field_name("value")
        return ("function", node) if value is not None and value.type in FUNCTION_VALUES else None
    for field in BODY_FIELDS:
        inner = node.child_by_field_name(field)
        if inner is not None and inner.type in FUNCTION_VALUES:
            return "function", node
        if inner is not None and inner.type in ("object", "class"):
            found = _kind(inner, syntax)
            if found is not None:
                return found
    return None


def _anonymous_type_body(binder: Node, syntax: Syntax) -> Node | None:
    """The body of the anonymous type `binder` binds or returns, when it defines functions."""
    values = binder.named_children
    for _ in range(2):  # the instance, or the function body (`= …`) or indented block holding it
        found = next((c for c in values if c.type in ANONYMOUS_TYPES), None)
        if found is not None:
            body = next((c for c in found.named_children if c.type == ANONYMOUS_TYPES[found.type]), None)
            if body is None:
                return None
            return body if any(_kind(c, syntax) is not None for c in body.named_children) else None
        wrapper = next((c for c in values if c.type in ANONYMOUS_WRAPPERS), None)
        if wrapper is None or wrapper.named_child_count != 1:
            return None
        values = wrapper.named_children
    return None


def _unwrap(node: Node) -> Node:
    """The definition inside wrappers (`export`, decorators, `template<…>`, `const x = …;`)."""
    while node.type in WRAPPERS:
        inner = node.child_by_field_name("declaration") or node.child_by_field_name("definition")
        if inner is None:
            named = [c for c in node.named_children if "comment" not in c.type and c.type not in NOT_WRAPPED]
            if len(named) != 1:
                return node
            inner = named[0]
        if inner.type in ("variable_declarator", "assignment_expression"):
            return inner
        node = inner
    return node


def _wrapped_definition(node: Node, syntax: Syntax) -> Node:
    """The one definition among a wrapper's arguments (`Syntax.wrappers`), else `node`."""
    for wrapper, arguments in syntax.wrappers:
        if node.type != wrapper:
            continue
        held = next((c for c in node.named_children if c.type == arguments), None)
        inner = [] if held is None else held.named_children
        if len(inner) == 1 and _kind(inner[0], syntax) is not None:
            return inner[0]
    return node


def _walk(
    scope: Node, syntax: Syntax, enclosing: int | None, out: list[Block], depth: int, deadline: Deadline
) -> None:
    if depth > MAX_DEPTH:
        return
    # an error node's tokens say where a class opens (`scope_members`): all its children are read
    siblings = scope.children if scope.type == "ERROR" else scope.named_children
    unwrap = syntax.unwrap or _unwrap
    # one by one: the members of a class opened in an error node are added to `out` as met
    for index, child, parent in deadline.paced_each(scope_members(scope, siblings, enclosing, out)):
        if "comment" in child.type:
            continue  # defines nothing (C#'s `///` docs are one node per line: most children)
        if child.type in syntax.bodiless_signatures:
            dart_function(child, siblings, index, parent, out)
            continue
        node = unwrap(child)
        if syntax.wrappers:
            node = _wrapped_definition(node, syntax)
        found = _kind(node, syntax)
        if found is None:
            if child.type in TRANSPARENT or child.type in syntax.transparent or child.type == "ERROR":
                _walk(child, syntax, parent, out, depth + 1, deadline)
            continue
        kind, inner = found
        definition = inner if kind == "function" else node
        header = max(header_row(definition), child.start_point[0])
        end = (last_code_row(child) if syntax.trailing_comments else last_row(child)) + 1
        container = kind == "container"
        if syntax.doc_below is not None and not container:
            end = syntax.doc_below(siblings, index, end)
        if syntax.head_end is not None and (syntax.head_end_of_containers or not container):
            sig = syntax.head_end(definition, header)
        elif container:
            sig = container_signature_end(inner, header)
        else:
            sig = signature_end(definition, header)
        # a container's comments and annotations are not its members' context: left to chunks
        start = header if container else leading_row(child, siblings, index, syntax)
        if syntax.trailing_comments and index > 0 and start == child.start_point[0] and not container:
            start = trailing_doc_row(siblings[index - 1], start)
        name = KEYWORD_NAMES.get(definition.type)
        if name is None and syntax.own_name is not None:
            name = syntax.own_name(node)
        if name is None:
            name = (syntax.name or definition_name)(node)
        if syntax.rename is not None:
            name = syntax.rename(definition, name)
        if name is None and definition.type == "secondary_constructor" and parent is not None:
            name = out[parent].name  # Kotlin's `constructor(…)`: named by its class, as in Java
        if syntax.joins_equation is not None and syntax.joins_equation(out, parent, name, siblings, index):
            out[-1] = replace(out[-1], end=end)  # `f 0 = …` then `f n = …`: one function
            continue
        if syntax.signature_above is not None and not container:  # its head is its type signature
            signature = syntax.signature_above(siblings, index, start, name)
            if signature is not None:
                if last_row(siblings[signature]) + 1 < header:  # apart: the signature alone
                    sig = last_row(siblings[signature]) + 1
                header = int(siblings[signature].start_point[0])
                start = min(start, leading_row(siblings[signature], siblings, signature, syntax))
        out.append(Block(start, header, end, container, parent, sig_end=min(sig, end), name=name))
        if container:
            _walk(inner, syntax, len(out) - 1, out, depth + 1, deadline)
        elif end - header >= MODULE_LIKE_LINES or (
            syntax.returns_type is not None and syntax.returns_type(definition)
        ):  # a module-like function
            _split(definition, syntax, out, depth, deadline)


def _split(function: Node, syntax: Syntax, out: list[Block], depth: int, deadline: Deadline) -> None:
    """Make the function just added (`out[-1]`) the container of the functions its body
    defines, if it defines any: kept whole, it would be more than a read's budget."""
    body = function_body(function)
    k = len(out) - 1
    if body is not None:
        _walk(body, syntax, k, out, depth + 1, deadline)
        for returned in _returned_scopes(body, syntax):  # `return (client) => { function respond() … }`
            _walk(returned, syntax, k, out, depth + 1, deadline)
    anonymous = _anonymous_type_body(function, syntax)  # `= object : Handler { override fun … }`
    if anonymous is not None:
        _walk(anonymous, syntax, k, out, depth + 1, deadline)
    if len(out) > k + 1:  # its comments, like a container's, are left to the chunks
        out[k] = replace(out[k], start=out[k].header, container=True)


def _returned_scopes(body: Node, syntax: Syntax) -> list[Node]:
    """What holds the definitions of the functions and types `body` returns: a factory's closure
    holds its helpers, Zig's `fn Server(comptime H: type) type { return struct {…}; }` its methods."""
    found = []
    inner: Node | None
    for statement in body.named_children:
        if statement.type == "expression_statement" and statement.named_child_count == 1:
            statement = statement.named_children[0]  # Zig's `return struct {…};`
        if statement.type not in ("return_statement", "return_expression"):
            continue
        for value in statement.named_children:
            if value.type in FUNCTION_VALUES:
                inner = function_body(value)
            elif value.type in syntax.type_values:
                inner = value
            else:
                kind = _kind(value, syntax)
                inner = kind[1] if kind is not None and kind[0] == "container" else None
            if inner is not None and inner.named_child_count:
                found.append(inner)
    return found


# The blocks of the last few texts parsed, by text and language (`RecentResults`). Only texts up
# to `MAX_CACHED_CHARS` are kept: the cache holds at most ~2 million characters of text.
PARSE_CACHE_SIZE = 8
MAX_CACHED_CHARS = 256_000
_RECENT_PARSES: RecentResults[tuple[str, int, str], tuple[Block, ...] | None] = RecentResults(
    PARSE_CACHE_SIZE
)


def syntax_blocks(
    text: str, line_count: int, lang: str | None, *, deadline: Deadline = NO_DEADLINE
) -> list[Block] | None:
    """Every definition block of `text` in `lang`, outer before inner; None to use the heuristics.

    Raises:
        EngineTimeout: `deadline` passed during the parse.
    """
    if lang is None:
        return None
    language = by_name(lang)
    if len(text) > (language.max_parse_chars or MAX_PARSE_CHARS):
        return None
    if language.fragment is not None and "<?" not in text:
        language = by_name(language.fragment)  # else the whole fragment would be HTML text, with no units
    if grammar_of(language.name) is None:
        return None
    parse = functools.partial(_blocks, text, line_count, language, deadline)
    found = (
        _RECENT_PARSES.get_or_compute((text, line_count, language.name), parse)
        if len(text) <= MAX_CACHED_CHARS
        else parse()
    )
    return None if found is None else list(found)


def clear_parse_cache() -> None:
    """Forget every cached parse: a benchmark of the parser must not time the cache."""
    _RECENT_PARSES.clear()


def _blocks(text: str, line_count: int, language: Language, deadline: Deadline) -> tuple[Block, ...] | None:
    parser = tree_sitter.Parser(grammar_of(language.name))
    read = functools.partial(_read, parser, line_count=line_count, language=language, deadline=deadline)
    found, _ = read(text)
    # untrusted or empty: perhaps a window cut out of a file, its ends inside units
    window = None if found else window_blocks(text, language.name, read)
    return found if window is None else window


def prepare_language(name: str) -> None:
    """Load the grammar of the language `name` and compile its definitions query now, not at the
    first parse of a text in it: both are once per process, and the compile alone cost that parse
    35-73 ms for Julia, Elixir, Objective-C, Perl, Fortran, F# (a cost per grammar: a one-line
    pattern took Julia 14.5 ms). An engine worker runs this for each language while it waits for
    a call (`engine.preparations`).

    Raises:
        DefinitionsQueryError: the language's query does not compile for the installed grammar.
    """
    _syntax_of(name)


@functools.cache
def _syntax_of(name: str) -> Syntax:
    """The record's `Syntax`, its `kind` and `name` read from its definitions query if it has one."""
    language = by_name(name)
    syntax = language.syntax
    grammar = grammar_of(name)
    if syntax.definitions is None or grammar is None or language.grammar is None:
        return syntax
    own = syntax.definitions == "ours"
    query = definitions_query(name, grammar, language.grammar.module, own, syntax.trailing_comments)
    if syntax.adds_to_shared:
        return replace(syntax, own_kind=query.kind, own_name=query.name)
    return replace(syntax, kind=query.kind, name=syntax.name or query.name)  # a record's own reader wins


def _read(
    parser: tree_sitter.Parser, text: str, *, line_count: int, language: Language, deadline: Deadline
) -> tuple[tuple[Block, ...] | None, int]:
    """The blocks of a parse of `text`, None if not trusted; and how many rows failed."""
    syntax = _syntax_of(language.name)
    if syntax.blanked is not None:
        text = syntax.blanked(text)
    tree = parse_until(parser, text.encode("utf-8", "surrogatepass"), deadline)
    most_failed = MAX_ERROR_FRACTION * line_count
    failed = failed_rows(tree.root_node, deadline=deadline, most=most_failed)
    if failed > most_failed:
        return (
            None,
            failed,
        )  # before the walk: a text of errors (binary, a log under a code name) took seconds
    out: list[Block] = []
    _walk(tree.root_node, syntax, None, out, 0, deadline)  # the root too may be one error node
    has_error = tree.root_node.has_error
    if dropped_tail(tree.root_node, deadline) is not None:
        parse = functools.partial(parse_until, parser, deadline=deadline)
        walk = functools.partial(_walk, syntax=syntax, enclosing=None, out=out, depth=0, deadline=deadline)
        failed += reparse_tails(parse, text, tree.root_node, walk, deadline)
    if failed > most_failed:
        return None, failed
    if not out and has_error:
        return None, failed  # a parse that failed and found nothing: the heuristics can't do worse
    if syntax.trusted is not None and not syntax.trusted(out, text):
        return None, failed
    for k in range(len(out) - 1, -1, -1):  # a recovered container's `}` can close before a member's
        parent = out[k].parent
        if parent is not None and out[parent].end < out[k].end:
            out[parent] = replace(out[parent], end=out[k].end)
    return tuple(out), failed
