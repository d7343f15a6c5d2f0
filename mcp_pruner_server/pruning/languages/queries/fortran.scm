; Fortran's definitions (`structure/syntax_definitions.py`). From the tree-sitter-fortran wheel's
; queries/tags.scm, whose patterns name the opening statement (`function_statement`): the engine
; needs the whole definition, from its opening statement to its `end`. Names are the opening
; statement's (`disc_area` of `pure function disc_area(r)`), spelled as written. A module's
; members are its own children (its procedures after `contains` in `internal_procedures`, which
; the walk goes through), so a container is its own `@body`.

; A derived type over 30 lines is a container, not a unit: a configuration type of hundreds of
; components, kept whole, is the whole budget when it wins (`code.py` makes its header its unit
; and its components chunks).
((derived_type_definition) @definition.class @body
  (#set! min_rows "30"))

; Modules, submodules and interface blocks hold their members; a program holds its own
; procedures, else it is one unit.
[(module) (submodule)] @definition.module @body
(interface) @definition.interface @body
(program (internal_procedures)) @definition.module @body
[(function) (subroutine) (module_procedure) (derived_type_definition) (program)] @definition.function

; The name its opening statement gives: its `name` field, else its first name.
(function . (function_statement name: (_) @name)) @definition.function
(subroutine . (subroutine_statement name: (_) @name)) @definition.function
(module_procedure . (module_procedure_statement name: (_) @name)) @definition.function
(function . (function_statement (name) @name)) @definition.function
(subroutine . (subroutine_statement (name) @name)) @definition.function
(module_procedure . (module_procedure_statement (name) @name)) @definition.function
(derived_type_definition . (derived_type_statement (type_name) @name)) @definition.function
(program . (program_statement (name) @name)) @definition.function
(module . (module_statement (name) @name)) @definition.module
(submodule . (submodule_statement (name) @name)) @definition.module
(interface . (interface_statement (name) @name)) @definition.interface
