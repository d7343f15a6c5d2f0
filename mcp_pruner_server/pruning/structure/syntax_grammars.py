"""What the tree-sitter grammars' node types mean: the shared tables `syntax.py` walks by.

`syntax.py` finds definition blocks with one walk for every language; what differs between
languages is which node types define a function, hold members, wrap a definition or merely
nest it (`#ifdef`), and where a grammar gives no field for a body or a name. The tables shared by
every grammar are here; what one language adds (its own node types and their readers: OCaml's
`let` and `module`, Objective-C's selectors), and its grammar wheel, is its record's
(`pruning/languages/`).
"""

from __future__ import annotations

from tree_sitter import Node

# Nodes that define a function-like unit.
FUNCTIONS = frozenset(
    {
        "function_definition",  # Python, C, C++, PHP, Bash
        "function_declaration",  # JS/TS, Go
        "generator_function_declaration",
        "method_definition",  # JS/TS
        "method_declaration",  # Go, Java, C#, PHP
        "constructor_declaration",
        "destructor_declaration",  # C#
        "operator_declaration",
        "conversion_operator_declaration",
        "method",  # Ruby
        "singleton_method",  # Ruby `def self.x`
        "compact_constructor_declaration",
        "function_item",  # Rust
        "macro_definition",
        "type_declaration",  # Go `type X struct {…}`: a whole definition, members are outside
        "struct_item",
        "enum_item",
        "union_item",
        "type_alias_declaration",
        "enum_declaration",  # TS (Java's enums are containers, below)
        "secondary_constructor",  # Kotlin
        "init_declaration",  # Swift
        "deinit_declaration",
        "subscript_declaration",
        "subroutine_declaration_statement",  # Perl
    }
)
# Nodes whose body holds members: (node type, field of the body).
CONTAINERS = frozenset(
    {
        "class_definition",  # Python
        "class_declaration",  # JS/TS, Java
        "abstract_class_declaration",
        "class",  # JS class expression (`const A = class {…}`)
        "interface_declaration",
        "record_declaration",
        "annotation_type_declaration",
        "impl_item",  # Rust
        "trait_item",
        "mod_item",
        "internal_module",  # TS namespace
        "module",
        "namespace_definition",  # C++
        "class_specifier",
        "struct_specifier",
        "linkage_specification",  # `extern "C" { … }`
        "namespace_declaration",  # C#
        "struct_declaration",
        "trait_declaration",  # PHP
        "singleton_class",  # Ruby `class << self`
        "object_declaration",  # Kotlin
        "companion_object",
        "enum_entry",  # Kotlin's `ADD { override fun apply(…) … }`: only one with a body holds members
        "protocol_declaration",  # Swift
        "object_definition",  # Scala
        "package_object",  # `package object fastparse { … }`
        "package_clause",  # `package a.b { … }` (without braces it has no body: not a container)
        "trait_definition",
        "enum_definition",
        "given_definition",  # Scala 3 `given Ordering[A] with` and its methods
        "extension_definition",  # Scala 3 `extension (s: String)` and its methods
        "instance",  # Haskell (`class` is above)
        "extension_declaration",  # Dart
        "extension_type_declaration",  # Dart 3 `extension type Meters(double value) { … }`
        "mixin_declaration",
    }
)
# An anonymous type's instance (Kotlin's `object : Handler { … }`, Scala's `new Show[A] { … }`) bound
# to a name is a class: its methods are the units, the binding their container. (A function that
# returns one is a unit as any other, split only when long.) Node type -> its body's type.
ANONYMOUS_TYPES = {"object_literal": "class_body", "instance_expression": "template_body"}
# What binds one to a name: a property or value.
ANONYMOUS_BINDERS = frozenset({"property_declaration", "val_definition"})
# Where a function's body wraps the instance (`= object : … {`, an indented `new … {`).
ANONYMOUS_WRAPPERS = frozenset({"function_body", "indented_block"})
# Definitions named by their keyword: a Swift `subscript(i: Int) -> T` (whose `name` field is its
# result type) and `deinit`; several subscripts of a type are overloads.
KEYWORD_NAMES = {"subscript_declaration": "subscript", "deinit_declaration": "deinit"}
# Nodes wrapping a definition whose doc comment sits above the wrapper.
WRAPPERS = frozenset(
    {
        "export_statement",
        "decorated_definition",
        "template_declaration",
        "expression_statement",
        "lexical_declaration",
        "variable_declaration",
        "declaration",
        "ambient_declaration",
        "implementation_definition",  # Objective-C: one method, its comment above this
    }
)
# What binds a function to a name (`const f = () => …`, `a.b = function …`, `k: function …`).
FUNCTION_VALUES = frozenset(
    {
        "arrow_function",
        "function_expression",
        "function",
        "generator_function",
        "anonymous_function",
        "anonymous_subroutine_expression",  # Perl's `*name = sub {…}`
    }
)
# Statements whose definitions belong to the enclosing scope (`#ifdef`, `if TYPE_CHECKING:`).
TRANSPARENT = frozenset(
    {
        "preproc_if",
        "preproc_ifdef",
        "preproc_else",
        "preproc_elif",
        "preproc_elifdef",
        "if_statement",
        "else_clause",
        "elif_clause",
        "try_statement",
        "except_clause",
        "finally_clause",
        "block",
        "compound_statement",  # PHP `if (! function_exists('f')) { function f() … }`
        "enum_body_declarations",
        "list",  # Bash `_comp() { … } && complete -F _comp cmd`
        "declarations",  # Haskell's top level
        "block_statement",  # Perl's bare block: `{ my %cache; sub lookup {…} }`
        "phaser_statement",  # Perl's `BEGIN { … }`
        "do_statement",  # Lua's `do local cache = {} function M.f() … end end`
        "internal_procedures",  # Fortran's `contains` and the procedures after it
        "type_extension_elements",  # F#'s `with` and the members after it
    }
)
# A C declarator wraps the name (`*f(…)`, `f(…)`): followed down to it.
DECLARATORS = frozenset({"function_declarator", "pointer_declarator", "parenthesized_declarator"})
# Longer "names" are not names (a computed key, a minified expression).
MAX_NAME = 200
ATTRIBUTES = frozenset({"attribute_item", "decorator", "annotation", "marker_annotation", "attribute_list"})
# What a wrapper holds besides the definition (`template <typename T>`'s parameters).
NOT_WRAPPED = ATTRIBUTES | {"template_parameter_list"}
# A first member's comments can lie outside its parent: Ruby's `body_statement` starts at the
# first member (the comment above it is the class's child), Bash's `f() {…} && complete …` list
# starts at the function.
STARTS_AT_FIRST_CHILD = frozenset({"body_statement", "list", "declarations"})
BODY_FIELDS = ("body", "value", "right")
# A definition's body where the grammar gives it no `body` field (Kotlin).
BODY_NODES = frozenset(
    {
        "function_body",
        "class_body",
        "enum_class_body",
        "class_declarations",
        "instance_declarations",
        "extension_body",  # Dart
        "enum_body",
        "internal_procedures",  # a Fortran procedure's own procedures, after its `contains`
    }
)


def unwrapped(node: Node) -> Node:
    """`Syntax.unwrap` of a language whose definitions come without a wrapper: the node itself."""
    return node


def name_text(node: Node) -> str | None:
    """The node's text as a name, None when it is too long to be one (`MAX_NAME`)."""
    text = node.text
    return text.decode("utf-8", "replace") if text is not None and len(text) <= MAX_NAME else None
