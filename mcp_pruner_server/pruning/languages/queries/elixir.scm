; Elixir's definitions (`structure/syntax_definitions.py`). From the tree-sitter-elixir wheel's
; queries/tags.scm, with what the engine reads besides: `defimpl`, a module's members in its
; `do` block (`@body`; without one it defines nothing), operators (`def a <~> b`) and any other
; head (`def unquote(name)(x)`) as an unnamed definition (the name is optional: one match a node).

; A module, protocol or implementation: its `do` block holds its members.
(call
  target: (identifier) @_keyword
  (arguments
    .
    [
      (identifier) @name
      (alias) @name
      (call target: [(identifier) (alias)] @name)
      (binary_operator left: [(identifier) (alias)] @name)
      (binary_operator left: (call target: [(identifier) (alias)] @name))
    ])?
  (do_block) @body
  (#any-of? @_keyword "defmodule" "defprotocol" "defimpl")) @definition.module

; A function, macro or guard: `def f(x)`, `def f(x) when …`, `defp g, do: 1`, `def a <~> b`.
(call
  target: (identifier) @_keyword
  (arguments
    .
    [
      (identifier) @name
      (alias) @name
      (call target: [(identifier) (alias)] @name)
      (binary_operator left: [(identifier) (alias)] @name)
      (binary_operator left: (call target: [(identifier) (alias)] @name))
    ])?
  (#any-of? @_keyword "def" "defp" "defmacro" "defmacrop" "defguard" "defguardp" "defdelegate" "defn" "defnp")) @definition.function
