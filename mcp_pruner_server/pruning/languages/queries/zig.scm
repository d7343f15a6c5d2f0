; Zig's own definitions (`structure/syntax_definitions.py`), added to the shared node tables
; (`function_declaration`). The tree-sitter-zig wheel ships no tags query. Types are values: a
; `const Foo = struct { … };` is a container, the type's body holding its methods, named by the
; constant that binds it.
(variable_declaration
  . (identifier) @name
  [(struct_declaration) (union_declaration) (enum_declaration) (opaque_declaration)] @body) @definition.class
