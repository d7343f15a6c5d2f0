; F#'s definitions (`structure/syntax_definitions.py`). The tree-sitter-fsharp wheel's
; queries/tags.scm roots its patterns above the definitions (`(file (declaration_expression
; (function_or_value_defn …)))`, a type's members under its `type_definition`) and has no
; members' units or containers: this is ours. Its grammar gives the `///` doc above a definition
; to the one before (the tail of its body), so "over several lines" counts lines of code
; (`Syntax.trailing_comments`). Names are `fsharp.py`'s (a `let`'s first bound name inside
; patterns and errors, a member's last identifier).

; A `let` with parameters is a function; one binding a value is a unit over several lines.
(function_or_value_defn (function_declaration_left)) @definition.function
(function_or_value_defn) @definition.type

; A member is the definition it holds (`member this.Spin(…)`); `abstract Area : unit -> float`
; declares only, and `member val Count = 0 with get, set` is a unit over several lines only.
; Its attributes (`[<Benchmark>]`) and comments come first.
(member_defn
  . [(method_or_prop_defn) (value_declaration) (additional_constr_defn) (access_modifier)] @definition.method)
(member_defn
  . [(attributes) (xml_doc) (line_comment) (block_comment)]
  . [(method_or_prop_defn) (value_declaration) (additional_constr_defn) (access_modifier)] @definition.method)
(member_defn . (property_or_ident) @definition.type)
(member_defn . [(attributes) (xml_doc) (line_comment) (block_comment)] . (property_or_ident) @definition.type)

; A module, namespace or interface implementation holds its members.
[(module_defn) (namespace) (named_module) (interface_implementation)] @definition.module @body

; `type A = … and B = …`: each type is one of its own, the definition their container.
(type_definition
  [(anon_type_defn) (record_type_defn) (union_type_defn) (type_extension) (interface_type_defn)]
  [(anon_type_defn) (record_type_defn) (union_type_defn) (type_extension) (interface_type_defn)]) @definition.class @body

; A type with members holds them (in its `with` elements, nested as the grammar nests them, but
; in a class or an interface); so does a type of an `… and …` definition, walked as a member of it.
(type_definition
  [
    (anon_type_defn
      [(member_defn) (interface_implementation) (type_extension_elements [(member_defn) (interface_implementation)]) (type_extension_elements (type_extension_elements [(member_defn) (interface_implementation)]))])
    (record_type_defn
      [(type_extension_elements [(member_defn) (interface_implementation)]) (type_extension_elements (type_extension_elements [(member_defn) (interface_implementation)]))])
    (union_type_defn
      [(type_extension_elements [(member_defn) (interface_implementation)]) (type_extension_elements (type_extension_elements [(member_defn) (interface_implementation)]))])
    (type_extension
      [(type_extension_elements [(member_defn) (interface_implementation)]) (type_extension_elements (type_extension_elements [(member_defn) (interface_implementation)]))])
    (interface_type_defn
      [(member_defn) (interface_implementation)])
  ] @body) @definition.class
(anon_type_defn
  [(member_defn) (interface_implementation) (type_extension_elements [(member_defn) (interface_implementation)]) (type_extension_elements (type_extension_elements [(member_defn) (interface_implementation)]))]) @definition.class @body
(record_type_defn
  [(type_extension_elements [(member_defn) (interface_implementation)]) (type_extension_elements (type_extension_elements [(member_defn) (interface_implementation)]))]) @definition.class @body
(union_type_defn
  [(type_extension_elements [(member_defn) (interface_implementation)]) (type_extension_elements (type_extension_elements [(member_defn) (interface_implementation)]))]) @definition.class @body
(type_extension
  [(type_extension_elements [(member_defn) (interface_implementation)]) (type_extension_elements (type_extension_elements [(member_defn) (interface_implementation)]))]) @definition.class @body
(interface_type_defn
  [(member_defn) (interface_implementation)]) @definition.class @body

; A type without members is a unit over several lines.
[(type_definition) (anon_type_defn) (record_type_defn) (union_type_defn) (type_extension) (interface_type_defn)] @definition.type
