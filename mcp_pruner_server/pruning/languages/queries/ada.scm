; Ada's definitions (`structure/syntax_definitions.py`). The tree-sitter-ada wheel ships no tags
; query. A package's body holds its subprograms in its declarative part, a package's
; declaration (a `.ads` spec) holds their declarations as its own children; a subprogram's body,
; an expression function, a task's body and a declaration in a spec (with its `--` comment) are
; units; a type is one over several lines (a record's components).

(package_body name: (_)? @name (non_empty_declarative_part) @body) @definition.module
(package_body name: (_)? @name) @definition.module @body
(package_declaration name: (_)? @name) @definition.module @body

(subprogram_body
  [(procedure_specification name: (_)? @name) (function_specification name: (_)? @name)]) @definition.function
(subprogram_declaration
  [(procedure_specification name: (_)? @name) (function_specification name: (_)? @name)]) @definition.function
(expression_function_declaration (function_specification name: (_)? @name)) @definition.function
(task_body . (identifier)? @name) @definition.function

(full_type_declaration . (identifier)? @name) @definition.type
