; Lua's own definitions (`structure/syntax_definitions.py`), added to the shared node tables
; (`function_declaration`, `function_definition`). From the tree-sitter-lua wheel's
; queries/tags.scm, whose names are kept (the last part of a path: `f` of `M.f`, `M:f`, as calls
; write it), with what the engine reads besides: a function is the `function_definition` an
; assignment or a `return` binds (the wheel's captures the statement), and a table of functions
; (`local M = { f = function … end }`, a module's `return { … }`) holds them as a class holds its
; methods, where the wheel takes the table itself for one function.

; `function M.f()`, `function M:f()`, `local function f()`: the name without its table.
(function_declaration
  name: [
    (identifier) @name
    (dot_index_expression field: (identifier) @name)
    (method_index_expression method: (identifier) @name)
  ]) @definition.function

; The one value of an assignment or a `return`: a function, or a table holding functions. Its
; name is the first variable's, without its table: the shapes of a path first (the first pattern
; that names a node gives its name), then any other (`M["f"]` whole).
(assignment_statement
  (variable_list . name: (dot_index_expression field: (identifier) @name))
  (expression_list . (function_definition) @definition.function .))
(assignment_statement
  (variable_list . name: (_) @name)
  (expression_list . (function_definition) @definition.function .))
(return_statement
  (expression_list . (function_definition) @definition.function .))
(assignment_statement
  (variable_list . name: (dot_index_expression field: (identifier) @name))
  (expression_list . (table_constructor (field value: (function_definition))) @body .)) @definition.class
(assignment_statement
  (variable_list . name: (_) @name)
  (expression_list . (table_constructor (field value: (function_definition))) @body .)) @definition.class
(return_statement
  (expression_list . (table_constructor (field value: (function_definition))) @body .)) @definition.class

; A table's field: a function, or a table holding functions.
(field name: (_)? @name value: (function_definition)) @definition.function
(field
  name: (_)? @name
  value: (table_constructor (field value: (function_definition))) @body) @definition.class
