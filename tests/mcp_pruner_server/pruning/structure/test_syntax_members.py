"""Members the parser finds in Kotlin, Swift, Scala, Dart, OCaml and Objective-C beyond plain methods:
the blocks a macro line, an accessor or an anonymous type would otherwise hide."""

from __future__ import annotations

from mcp_pruner_server.pruning.structure.syntax_recovery import blank_newer_kotlin
from tests.mcp_pruner_server.pruning.structure.test_syntax import blocks_of

OBJC_MACROS = """\
#import "Widget.h"

NS_ASSUME_NONNULL_BEGIN

@implementation Widget

- (void)grow {
    self.size += 1;
}

@end

NS_ASSUME_NONNULL_END
"""


def test_an_objective_c_macro_line_does_not_hide_the_implementation_after_it() -> None:
    found = [(b.start, b.end, b.container, b.name) for b in blocks_of(OBJC_MACROS, "objc")]
    assert found == [(4, 11, True, None), (6, 9, False, "grow")]


def test_an_objective_c_interface_only_declares_its_methods_it_is_no_block() -> None:
    text = "@interface Widget ()\n@property (nonatomic) int size;\n- (void)grow;\n@end\n\n" + OBJC_MACROS
    found = [(b.start, b.end, b.container, b.name) for b in blocks_of(text, "objc")]
    assert found == [(9, 16, True, None), (11, 14, False, "grow")]


KOTLIN_ACCESSORS = """\
class Widget(private val parts: List<Part>) {
    private val cache = mutableMapOf<String, Int>()

    /** The weight of every part. */
    val weight: Int
        get() = parts.sumOf { it.weight }

    var label: String = ""
        set(value) {
            field = value.trim()
        }

    val size: Int get() = parts.size
}
"""
SWIFT_ACCESSORS = """\
struct Widget {
    var parts: [Part] = []

    /// The weight of every part.
    var weight: Int {
        parts.reduce(0) { $0 + $1.weight }
    }

    var first: Part? {
        get { parts.first }
        set { if let part = newValue { parts.insert(part, at: 0) } }
    }

    var isEmpty: Bool { parts.isEmpty }
}
"""


def test_a_property_with_accessors_over_several_lines_is_a_unit_with_its_doc() -> None:
    # a stored property and a one-line accessor stay with the fields, left to the chunks
    assert [(b.start, b.end, b.parent, b.name) for b in blocks_of(KOTLIN_ACCESSORS, "kotlin")[1:]] == [
        (3, 6, 0, "weight"),
        (7, 11, 0, "label"),
    ]
    assert [(b.start, b.end, b.parent, b.name) for b in blocks_of(SWIFT_ACCESSORS, "swift")[1:]] == [
        (3, 7, 0, "weight"),
        (8, 12, 0, "first"),
    ]


SCALA_GIVENS = """\
object Syntax:
  extension (s: String)
    def shout: String =
      s.toUpperCase

  given intOrder: Ordering[Int] with
    def compare(x: Int, y: Int): Int =
      x - y

  implicit val showInt: Show[Int] = new Show[Int] {
    def show(x: Int): String = {
      x.toString
    }
  }

  given Show[Long] = new Show[Long] {
    def show(x: Long): String = x.toString
  }
"""
SCALA_PACKAGES = """\
package object parsers extends Shared {
  def rep(n: Int): Int = {
    n
  }
}

package a.b {
  object C {
    def f = 1
  }
}
"""
OCAML_MEMBERS = """\
include struct
  let height t =
    t.height
end

class counter init = object (self)
  val mutable n = init

  (* Adds [d]. *)
  method incr d =
    n <- n + d;
    self#get
  method get = n
end
"""
KOTLIN_ANONYMOUS = """\
val handler = object : Handler {
    override fun handle(x: Int): Int {
        return x + 1
    }
}

fun makeHandler(): Handler = object : Handler {
    override fun handle(x: Int): Int {
        return x
    }
}
"""


def test_scala_givens_extensions_and_anonymous_instances_hold_their_methods() -> None:
    assert [(b.start, b.end, b.container, b.parent, b.name) for b in blocks_of(SCALA_GIVENS, "scala")] == [
        (0, 18, True, None, "Syntax"),
        (1, 4, True, 0, None),  # `extension (s: String)`
        (2, 4, False, 1, "shout"),
        (5, 8, True, 0, "intOrder"),
        (6, 8, False, 3, "compare"),
        (9, 14, True, 0, None),  # `implicit val showInt = new Show[Int] {`
        (10, 13, False, 5, "show"),
        (15, 18, True, 0, None),  # `given Show[Long] = new Show[Long] {`
        (16, 17, False, 7, "show"),
    ]


def test_a_scala_package_object_and_a_braced_package_hold_their_members() -> None:
    assert [(b.start, b.end, b.container, b.parent, b.name) for b in blocks_of(SCALA_PACKAGES, "scala")] == [
        (0, 5, True, None, "parsers"),
        (1, 4, False, 0, "rep"),
        (6, 11, True, None, "a.b"),
        (7, 10, True, 2, "C"),
        (8, 9, False, 3, "f"),
    ]


def test_an_ocaml_include_struct_and_a_class_hold_their_lets_and_methods() -> None:
    assert [(b.start, b.end, b.container, b.parent, b.name) for b in blocks_of(OCAML_MEMBERS, "ocaml")] == [
        (0, 4, True, None, None),  # `include struct … end`
        (1, 3, False, 0, "height"),
        (5, 14, True, None, "counter"),
        (8, 12, False, 2, "incr"),  # with its comment; `method get = n` is one line, as a `let`
    ]


def test_a_kotlin_object_bound_to_a_name_holds_its_methods_a_function_returning_one_is_a_unit() -> None:
    assert [
        (b.start, b.end, b.container, b.parent, b.name) for b in blocks_of(KOTLIN_ANONYMOUS, "kotlin")
    ] == [
        (0, 5, True, None, "handler"),
        (1, 4, False, 0, "handle"),
        (6, 11, False, None, "makeHandler"),  # short: kept whole, as any function
    ]


def test_a_long_kotlin_function_is_the_container_of_its_local_functions() -> None:
    filler = "".join(f"    val v{k} = step({k})\n" for k in range(160))
    step = "    fun step(x: Int): Int {\n        return x * 2\n    }\n"
    text = f"fun process(items: List<Int>): Int {{\n{step}{filler}    return 0\n}}\n"
    found = [(b.start, b.end, b.container, b.parent, b.name) for b in blocks_of(text, "kotlin")]
    assert found == [(0, 166, True, None, "process"), (1, 4, False, 0, "step")]


def test_a_long_function_returning_an_anonymous_object_is_the_container_of_its_methods() -> None:
    filler = "".join(f"    val v{k} = {k}\n" for k in range(160))
    handle = "    override fun handle(x: Int): Int {\n        return x\n    }\n"
    text = f"fun makeHandler(): Handler = object : Handler {{\n{filler}{handle}}}\n"
    found = [(b.start, b.end, b.container, b.parent, b.name) for b in blocks_of(text, "kotlin")]
    assert found == [(0, 165, True, None, "makeHandler"), (161, 164, False, 0, "handle")]


KOTLIN_NEWER = """\
class Pricing {
    fun price(item: Any): Int = when (item) {
        is Book if item.pages > 100 -> 20
        is Book -> 10
        else -> 0
    }

    context(scope: Raise<String>)
    fun check(x: Int): Int {
        return x
    }

    fun total(items: List<Any>): Int {
        return items.sumOf { price(it) }
    }
}
"""


def test_newer_kotlin_syntax_hides_no_member_after_it() -> None:
    # a `when` guard and a context parameter are newer than the grammar: the class's members stay
    found = [(b.start, b.end, b.name) for b in blocks_of(KOTLIN_NEWER, "kotlin")[1:]]
    assert found == [(1, 6, "price"), (8, 11, "check"), (12, 15, "total")]


def test_only_a_guard_before_its_branch_arrow_is_blanked() -> None:
    guarded = "        is Int if x > 0 -> x"
    assert blank_newer_kotlin(guarded) == "        is Int" + " " * 9 + " -> x"
    # the branch's arrow comes first: the `if` and the lambda's `->` after it are the branch's code
    lambda_line = "        is Foo -> list.filter { if (it) a else b }.map { y -> y }"
    assert blank_newer_kotlin(lambda_line) == lambda_line
    plain = "    val y = if (x) 1 else 2"
    assert blank_newer_kotlin(plain) == plain


def test_the_members_after_a_construct_the_parser_gave_up_on_are_parsed_again() -> None:
    # `$$"…"` (Kotlin 2.2) is newer than the grammar: the parser dropped the rest of the class
    methods = "".join(
        f"    fun rate{k}(x: Int): Int {{\n        return x * {k}\n    }}\n\n" for k in range(8)
    )
    label = '    fun label(x: Int): String {\n        return $$"cost: $$x"\n    }\n\n'
    text = f"class Price {{\n{label}{methods}}}\n"
    names = [b.name for b in blocks_of(text, "kotlin")]
    assert names[-8:] == [f"rate{k}" for k in range(8)]


def test_blank_lines_after_a_last_broken_function_count_as_no_failure() -> None:
    # the parser drops the rows after an unclosed `(`; blank ones hold nothing it failed to read
    funcs = "".join(f"fun g{k}() {{\n    y()\n}}\n" for k in range(10))
    text = funcs + "fun f() {\n  val x = (1 +\n}\n" + "\n" * 10
    names = [b.name for b in blocks_of(text, "kotlin")]
    assert names[:10] == [f"g{k}" for k in range(10)]


DART_MEMBERS = """\
class Box {
  final List<int> items;

  Box(this.items);

  /// A box of [values].
  factory Box.of(Iterable<int> values) {
    return Box(values.toList());
  }
}

/// The version of the format.
String get version {
  return '1';
}

extension type Meters(double value) {
  Meters add(Meters other) {
    return Meters(value + other.value);
  }
}
"""


def test_dart_factories_top_level_getters_and_extension_types_methods_are_units() -> None:
    found = [(b.start, b.end, b.parent, b.name) for b in blocks_of(DART_MEMBERS, "dart")]
    assert found == [
        (0, 10, None, "Box"),
        (5, 9, 0, "Box"),  # `factory Box.of(…)`: named by its class, as a named constructor
        (11, 15, None, "version"),
        (16, 21, None, "Meters"),  # Dart 3 `extension type`
        (17, 20, 3, "add"),
    ]


def test_a_swift_subscript_and_deinit_are_named_by_their_keyword() -> None:
    text = (
        "final class Grid {\n    var cells: [Int] = []\n\n"
        "    subscript(row: Int) -> Int {\n        get { cells[row] }\n"
        "        set { cells[row] = newValue }\n    }\n\n"
        "    deinit {\n        cells.removeAll()\n    }\n}\n"
    )
    assert [b.name for b in blocks_of(text, "swift")] == ["Grid", "subscript", "deinit"]


def test_a_kotlin_enum_entry_with_a_body_holds_its_methods() -> None:
    text = (
        "enum class Op {\n    ADD {\n        override fun apply(a: Int, b: Int): Int {\n"
        "            return a + b\n        }\n    },\n    NOP;\n\n"
        "    abstract fun apply(a: Int, b: Int): Int\n}\n"
    )
    found = [(b.start, b.end, b.container, b.parent, b.name) for b in blocks_of(text, "kotlin")]
    assert found == [(0, 10, True, None, "Op"), (1, 6, True, 0, None), (2, 5, False, 1, "apply")]
