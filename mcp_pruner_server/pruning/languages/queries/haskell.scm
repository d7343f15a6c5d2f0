; Haskell's own definitions (`structure/syntax_definitions.py`), added to the shared node tables
; (`class`, `instance`). The tree-sitter-haskell wheel ships no tags query. Each equation
; (`f 0 = 1`, `x = …`) is a definition; `haskell.py` joins a function's equations into one block
; and gives it its type signature as its head, which a query cannot say (siblings, in order).
[(function) (bind)] @definition.function
