; An OCaml interface's declarations (`structure/syntax_definitions.py`). The tree-sitter-ocaml
; wheel's queries/tags.scm is the implementation's (`ocaml.scm` says why it is not read as-is)
; and has no `val`: this is ours.

; A `val` or `external` is a unit, whatever its length (its doc is what tells it apart).
[(value_specification) (external)] @definition.function

; `module type S = sig … end` and `module X : sig … end` hold their members, named in the
; pattern of that shape (a pattern naming a node also makes it a definition).
(module_type_definition (module_type_name)? @name body: (signature) @body) @definition.interface
(module_definition (module_binding (module_name)? @name module_type: (signature) @body)) @definition.module

; The name a `val` or `external` declares.
(value_specification (value_name) @name) @definition.function
(external (value_name) @name) @definition.function
