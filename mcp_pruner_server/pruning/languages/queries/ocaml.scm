; OCaml's definitions (`structure/syntax_definitions.py`). The tree-sitter-ocaml wheel's
; queries/tags.scm captures the binding inside a definition (`(module_definition (module_binding
; …) @definition.module)`) with its doc comment as the pattern's first node, so its patterns are
; rooted above or beside the definition the walk asks about, and it has no `let` functions:
; this is ours, with the wheel's names.

; A `let` or `method` is a unit over several lines (a one-line value is left to the chunks).
[(value_definition) (method_definition)] @definition.type

; A `module X = struct … end`, an `include struct … end` and a `class c = object … end` hold
; their members (a class computed before its `object`, `let … in object`, is a chunk).
; A module's or class's name is in the pattern of its shape (a pattern naming a node also
; makes it a definition: `module M = Map.Make (String)` is none).
(module_definition (module_binding (module_name)? @name (structure) @body)) @definition.module
(include_module (structure) @body) @definition.module
(class_definition (class_binding (class_name)? @name body: (object_expression) @body)) @definition.class

; The names of the units: a `let`'s pattern (its first binding's), a method's name.
(value_definition (let_binding pattern: (_) @name)) @definition.type
(method_definition (method_name) @name) @definition.type
