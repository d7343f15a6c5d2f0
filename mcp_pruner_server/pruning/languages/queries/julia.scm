; Julia's definitions (`structure/syntax_definitions.py`). The tree-sitter-julia wheel ships no
; tags query. Its definition nodes have no `name` or `body` fields: a module's members are its own
; children (its own `@body`). Names are `julia.py`'s: found down a head of any depth (`(f::F)(x)`,
; `Base.:+`, `@main(args)::Cint`, `f(x)::T where T`), which a query can only list shape by shape.

[(function_definition) (macro_definition) (struct_definition)] @definition.function
(module_definition) @definition.module @body

; A short function is an assignment to a call (`area(r) =` and its lines), a unit only over
; several lines: as units of their own, one-line ones, many alike, outranked the function asked about.
(assignment
  .
  [
    (call_expression)
    (typed_expression . (call_expression))
    (where_expression . (call_expression))
    (where_expression . (typed_expression . (call_expression)))
  ]) @definition.type
