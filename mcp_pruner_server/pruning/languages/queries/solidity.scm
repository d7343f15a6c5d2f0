; Solidity's definitions (`structure/syntax_definitions.py`). From the tree-sitter-solidity
; wheel's queries/tags.scm, with what the engine reads besides: a contract's members in its body,
; constructors, modifiers, `receive` / `fallback` (named by their keyword, and the unnamed
; `function()` of Solidity before 0.6 by what it is, its fallback), and errors; an event,
; struct, enum or error is a unit over several lines only. Names are optional (`(_)? @name`):
; one match a node.

[
  (contract_declaration name: (_)? @name body: (_) @body)
  (library_declaration name: (_)? @name body: (_) @body)
  (interface_declaration name: (_)? @name body: (_) @body)
] @definition.class

[
  (function_definition name: (_)? @name)
  (modifier_definition name: (_)? @name)
] @definition.function

((constructor_definition) @definition.function
  (#set! name "constructor"))

(fallback_receive_definition . ["receive" "fallback"] @name) @definition.function

((fallback_receive_definition . "function") @definition.function
  (#set! name "fallback"))

[
  (event_definition name: (_)? @name)
  (struct_declaration name: (_)? @name)
  (enum_declaration name: (_)? @name)
  (error_declaration name: (_)? @name)
] @definition.type
