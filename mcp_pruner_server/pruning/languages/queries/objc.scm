; Objective-C's own definitions (`structure/syntax_definitions.py`), added to the shared node
; tables (`function_definition`, `method_definition`). The tree-sitter-objc wheel ships no tags
; query. An `@implementation` holds its methods as its own children; an `@interface` only
; declares them (a `.m` file's class extension, `@interface Foo ()`): its lines are chunks, never
; a unit named like the class that outranks the methods it lists.
(class_implementation) @definition.class @body

; A method is named by its selector's first part (`setImage` of `setImage:forKey:`).
(method_definition (identifier) @name) @definition.method
