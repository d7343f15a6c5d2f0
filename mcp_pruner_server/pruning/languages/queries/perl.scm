; Perl's own definitions (`structure/syntax_definitions.py`), added to the shared node tables
; (`subroutine_declaration_statement`, a sub bound by an assignment). The tree-sitter-perl wheel
; ships no tags query. The names of the subs given as values stay in `perl.py`: the last word of
; an assignment's left side (`*glob_sub`, `my $handler`) and a quoted name without its `+`
; (`has '+size'`) are no node a query can capture.

; A package given as a block (`package Foo { … }`) holds its subs.
(package_statement (block) @body) @definition.module

; A call given a name and a sub alone: a Moose method modifier (`around grow => sub {…}`), a
; route's handler (`get '/users' => sub {…}`), a helper (`$app->helper(render => sub {…})`).
; More arguments than these two are data (`has x => (default => sub {…})`).
(function_call_expression
  arguments: (list_expression
    . [(autoquoted_bareword) (string_literal) (interpolated_string_literal)]
    . (anonymous_subroutine_expression) .)) @definition.function
(ambiguous_function_call_expression
  arguments: (list_expression
    . [(autoquoted_bareword) (string_literal) (interpolated_string_literal)]
    . (anonymous_subroutine_expression) .)) @definition.function
(method_call_expression
  arguments: (list_expression
    . [(autoquoted_bareword) (string_literal) (interpolated_string_literal)]
    . (anonymous_subroutine_expression) .)) @definition.function
