from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_pruner_server.pruning.deadline import Deadline
from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.languages import registry as languages
from mcp_pruner_server.pruning.languages.record import Grammar, Language
from mcp_pruner_server.pruning.structure import syntax
from mcp_pruner_server.pruning.structure.code_blocks import MODULE_LIKE_LINES, Block
from mcp_pruner_server.pruning.structure.syntax import syntax_blocks
from mcp_pruner_server.pruning.types import PruneOptions


def blocks_of(text: str, lang: str) -> list[Block]:
    found = syntax_blocks(text, text.count("\n") + 1, lang)
    assert found is not None
    return found


C_SOURCE = """\
#include <stdio.h>

/* Count the words of a line.  */
static int
count_words (const char *line,
             int sep)
{
  int n = 0;

  for (; *line; line++)
    n += *line == sep;
  return n;
}
"""


def test_a_c_function_spans_its_return_type_comment_and_blank_lines() -> None:
    (block,) = blocks_of(C_SOURCE, "c")
    assert (block.start, block.header, block.end) == (2, 4, 13)
    assert block.sig_end == 7  # the `{` on its own line belongs to the signature
    assert not block.container


JAVA_SOURCE = """\
/** A box. */
@Deprecated
public class Box
{
    private int size;

    /** The size. */
    @Override
    public int size() {
        return size;
    }

    enum Kind { A, B }
}
"""


def test_a_class_is_a_container_of_its_members_with_their_annotations() -> None:
    klass, method, kind = blocks_of(JAVA_SOURCE, "java")
    assert klass.container
    assert (klass.start, klass.sig_end) == (2, 4)  # its doc comment is left to the chunks
    assert (method.start, method.header, method.end, method.parent) == (6, 8, 11, 0)
    assert kind.parent == 0


JS_SOURCE = """\
// Helpers.
module.exports = {
  /** Open it. */
  open(path) {
    return fs.openSync(path);
  },
  close: function (fd) {
    fs.closeSync(fd);
  },
};

const twice = (x) =>
  x * 2;
"""


def test_an_object_of_functions_is_a_container_and_an_arrow_bound_to_a_name_a_function() -> None:
    obj, open_, close, twice = blocks_of(JS_SOURCE, "javascript")
    assert obj.container
    assert (open_.start, open_.header, open_.end, open_.parent) == (2, 3, 6, 0)
    assert (close.start, close.end, close.parent) == (6, 9, 0)
    assert (twice.start, twice.end, twice.parent) == (11, 13, None)


def _factory(body_lines: int) -> str:
    """A TS factory defining two helpers, `body_lines` lines of statements between them."""
    filler = "".join(f"  const v{i} = {i};\n" for i in range(body_lines))
    return (
        "/** Build the plugin. */\n"
        "export function enablePlugin() {\n"
        "  function markChanged(state: State) {\n    state.modified = true;\n  }\n"
        f"{filler}"
        "  const handle = (op: string) => {\n    markChanged(op);\n  };\n"
        "  return { handle };\n"
        "}\n"
    )


def test_a_function_too_long_to_keep_whole_is_the_container_of_the_functions_it_defines() -> None:
    long_body = MODULE_LIKE_LINES
    outer, mark, handle = blocks_of(_factory(long_body), "typescript")
    assert (outer.container, outer.name) == (True, "enablePlugin")
    assert outer.start == outer.header == 1  # its comment is left to the chunks, as a container's
    assert (mark.name, mark.parent, mark.start, mark.end) == ("markChanged", 0, 2, 5)
    assert (handle.name, handle.parent) == ("handle", 0)
    (short,) = blocks_of(_factory(10), "typescript")  # short enough to keep whole: one unit
    assert (short.container, short.start) == (False, 0)


def test_a_long_factory_is_the_container_of_the_helpers_of_the_closure_it_returns() -> None:
    filler = "".join(f"    const v{i} = {i};\n" for i in range(MODULE_LIKE_LINES))
    text = (
        "export function getHandler(opts: Options) {\n"
        "  const encoder = opts.encoder;\n"
        "  return (client: Client) => {\n"
        "    function respond(message: string) {\n      client.send(encoder(message));\n    }\n"
        f"{filler}"
        "    const abort = () => {\n      client.close();\n    };\n"
        "  };\n"
        "}\n"
    )
    outer, respond, abort = blocks_of(text, "typescript")
    assert (outer.container, outer.name) == (True, "getHandler")
    assert (respond.name, respond.parent, respond.start, respond.end) == ("respond", 0, 3, 6)
    assert (abort.name, abort.parent) == ("abort", 0)
    fields = "".join(f"    v{i} = {i};\n" for i in range(MODULE_LIKE_LINES))
    returns_a_class = (
        "export function getHandler(opts: Options) {\n"
        "  const encoder = opts.encoder;\n"
        "  return class Handler {\n"
        "    respond(message: string) {\n      send(encoder(message));\n    }\n"
        f"{fields}"
        "  };\n"
        "}\n"
    )
    outer, respond = blocks_of(returns_a_class, "typescript")
    assert (outer.container, respond.name, respond.parent, respond.start) == (True, "respond", 0, 3)


RUST_SOURCE = """\
/// A thing.
impl<T> Thing for Wrapper<T>
where
    T: Clone,
{
    /// Make one.
    #[inline]
    fn make(&self) -> T {
        self.0.clone()
    }
}
"""


def test_a_rust_doc_comment_and_attribute_belong_to_the_function_not_the_next_line() -> None:
    imp, make = blocks_of(RUST_SOURCE, "rust")
    assert imp.container
    assert imp.sig_end == 5  # the `where` clause and the `{` line
    assert (make.start, make.header, make.end, make.parent) == (5, 7, 10, 0)


def test_functions_inside_an_ifdef_are_found() -> None:
    text = "#ifdef X\nint f(void)\n{\n  return 1;\n}\n#endif\n"
    (block,) = blocks_of(text, "c")
    assert (block.start, block.end) == (1, 5)


def test_no_grammar_or_too_much_text_or_a_failed_parse_means_the_heuristics() -> None:
    assert syntax_blocks("def f():\n    pass\n", 3, "python") is None  # indentation does it
    assert syntax_blocks("x", 1, None) is None
    assert syntax_blocks("x", 1, "cobol") is None
    assert syntax_blocks("{{{{ ]] this is not go ((\n" * 20, 21, "go") is None
    for lang in ("csharp", "ruby", "php", "bash", "cpp"):
        assert syntax_blocks("{{{{ ]] (( end end fi } def\n" * 20, 21, lang) is None


def test_text_over_the_parse_limit_is_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(syntax, "MAX_PARSE_CHARS", 10)
    assert syntax_blocks("func f() {\n}\n", 3, "go") is None


@pytest.mark.parametrize(
    ("lang", "text"), [("go", "func f() {\n}\n"), ("ruby", "def f\n  1\nend\n"), ("csharp", "class A { }\n")]
)
def test_a_missing_grammar_wheel_means_the_heuristics(
    monkeypatch: pytest.MonkeyPatch, lang: str, text: str
) -> None:
    assert syntax_blocks(text, 3, lang)  # installed: the parser finds the unit
    missing = replace(languages.by_name(lang), grammar=Grammar("tree_sitter_not_installed"))
    monkeypatch.setitem(languages.LANGUAGES, lang, missing)
    languages.grammar_of.cache_clear()
    try:
        assert syntax_blocks(text, 3, lang) is None
    finally:
        languages.grammar_of.cache_clear()


def test_the_same_text_is_parsed_once_and_each_caller_gets_its_own_list(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parses: list[str] = []
    parse = syntax._blocks

    def counting(
        text: str, line_count: int, language: Language, deadline: Deadline
    ) -> tuple[Block, ...] | None:
        parses.append(language.name)
        return parse(text, line_count, language, deadline)

    monkeypatch.setattr(syntax, "_blocks", counting)
    syntax.clear_parse_cache()
    text = "func f() {\n}\n\nfunc g() {\n}\n"
    first = blocks_of(text, "go")
    first.clear()  # a caller's list is its own
    assert blocks_of(text, "go") == blocks_of(text, "go") != []
    assert parses == ["go"]
    blocks_of(text + "// another text\n", "go")
    monkeypatch.setattr(syntax, "MAX_CACHED_CHARS", 10)  # a large text is parsed each time
    blocks_of(text, "go")
    assert parses == ["go", "go", "go"]


def _kept(text: str, goal: str, path: str | None) -> list[str]:
    options = PruneOptions(max_prune_ratio=0.8, min_keep_lines=0, include_markers=False, path=path)
    return prune(text, goal, "code", options, "t").pruned_text.split("\n")


@pytest.mark.parametrize("path", ["words.c", None])  # None: the lines say C (`#include`)
def test_the_engine_keeps_the_whole_c_function_the_parser_found(path: str | None) -> None:
    filler = "".join(f"static int g{k} (int a)\n{{\n  return a + {k};\n}}\n\n" for k in range(30))
    text = "#include <stdio.h>\n#include <string.h>\n\n" + filler + C_SOURCE.split("\n", 2)[2] + filler
    kept = _kept(text, "count the words of a line separated by sep", path)
    body = C_SOURCE.split("\n")[3:13]
    assert all(line in kept for line in body if line.strip())


def test_a_minified_line_prunes_without_error_in_every_language() -> None:
    text = "var a=" + "1+" * 50_000 + "1;\n" + "function f(x) {\n  return x;\n}\n"
    for path in (
        "m.js",
        "m.ts",
        "m.c",
        "m.go",
        "m.rs",
        "m.java",
        "m.cs",
        "m.rb",
        "m.php",
        "m.sh",
        "m.hpp",
        None,
    ):
        result = prune(text, "f", "code", PruneOptions(path=path), "t")
        assert "internal_error" not in result.warnings


def test_the_parser_names_what_a_block_defines() -> None:
    assert [b.name for b in blocks_of(C_SOURCE, "c")] == ["count_words"]
    assert [b.name for b in blocks_of(JAVA_SOURCE, "java")] == ["Box", "size", "Kind"]
    assert [b.name for b in blocks_of(JS_SOURCE, "javascript")] == [None, "open", "close", "twice"]


SOURCES = {"c": C_SOURCE, "java": JAVA_SOURCE, "javascript": JS_SOURCE, "rust": RUST_SOURCE}


@settings(max_examples=80, deadline=None)
@given(lang=st.sampled_from(sorted(SOURCES)), keep=st.lists(st.booleans(), min_size=40, max_size=40))
def test_blocks_of_damaged_code_lie_inside_it_and_nest(lang: str, keep: list[bool]) -> None:
    _damaged_blocks_nest(SOURCES[lang], lang, keep)


def _damaged_blocks_nest(source: str, lang: str, keep: list[bool]) -> None:
    lines = [line for line, k in zip((source * 3).split("\n"), keep * 2, strict=False) if k]
    text = "\n".join(lines)
    found = syntax_blocks(text, len(lines), lang)
    if found is None:
        return
    for b in found:
        assert 0 <= b.start <= b.header < b.end <= len(lines)
        assert b.sig_end is not None
        assert b.header < b.sig_end <= b.end
        if b.parent is not None:
            outer = found[b.parent]
            assert outer.container
            assert outer.start <= b.start
            assert b.end <= outer.end


def test_a_kept_method_brings_its_class_line_and_the_fields_it_uses() -> None:
    methods = "".join(f"    int other{k}(int a) {{\n        return a * {k};\n    }}\n\n" for k in range(40))
    text = (
        "public class Counter {\n    private int unused;\n    private int count;\n\n"
        + methods
        + "    public int increment(int step) {\n        count += step;\n        return count;\n    }\n}\n"
    )
    options = PruneOptions(max_prune_ratio=0.99, min_keep_lines=0, include_markers=False, path="Counter.java")
    kept = prune(text, "increment the counter by step", "code", options, "t").pruned_text.split("\n")
    assert "public class Counter {" in kept
    assert "    private int count;" in kept
    assert "    private int unused;" not in kept
    assert "        count += step;" in kept


def test_a_kept_php_method_brings_the_properties_it_uses() -> None:
    method = "    public function other{k}($a)\n    {{\n        return $a * {k};\n    }}\n\n"
    methods = "".join(method.format(k=k) for k in range(40))
    text = (
        "<?php\n\nclass Cookie\n{\n    protected $name;\n    protected ?bool $secure = null;\n\n"
        + methods
        + "    public function isSecure()\n    {\n        return $this->secure ?? false;\n    }\n}\n"
    )
    options = PruneOptions(max_prune_ratio=0.99, min_keep_lines=0, include_markers=False, path="Cookie.php")
    kept = prune(text, "is the cookie secure", "code", options, "t").pruned_text.split("\n")
    assert "class Cookie" in kept
    assert "    protected ?bool $secure = null;" in kept
    assert "    protected $name;" not in kept


CSHARP_SOURCE = """\
using System;

namespace Acme.Widgets
{
    /// <summary>A widget.</summary>
    public sealed class Widget
    {
        private int _size;

        /// <summary>Grows the widget by
        /// <paramref name="step"/>.</summary>
        [Obsolete("use Resize")]
        public int Grow(int step)
        {
            _size += step;
            return _size;
        }

        public int Size
        {
            get { return _size; }
        }
    }
}
"""

RUBY_SOURCE = """\
require 'set'

module Acme
  # A widget.
  class Widget
    # Grows the widget
    # by step.
    def grow(step)
      @size += step
    end

    def self.build = new
  end
end
"""

PHP_SOURCE = """\
<?php
namespace Acme\\Widgets;

/** A widget. */
class Widget
{
    private int $size = 0;

    /**
     * Grows the widget.
     */
    #[Pure]
    public function grow(int $step): int
    {
        return $this->size += $step;
    }
}

trait Sized {
    public function size(): int { return 0; }
}
"""

BASH_SOURCE = """\
#!/bin/bash
set -e

# Complete the widget command.
_widget()
{
    local cur
    COMPREPLY=()
} &&
    complete -F _widget widget

function grow {
    echo grow
}
"""

CPP_SOURCE = """\
#include <vector>

namespace acme {

/// A widget.
template <typename T>
class Widget {
 public:
  /// Grows the widget.
  void grow(int step) {
    size_ += step;
  }

 private:
  int size_ = 0;
};

/// Shrinks it.
template <typename T>
void Widget<T>::shrink(int step)
{
  size_ -= step;
}

}  // namespace acme
"""


def _spans(text: str, lang: str) -> list[tuple[int, int, int, bool, int | None, str | None]]:
    return [(b.start, b.header, b.end, b.container, b.parent, b.name) for b in blocks_of(text, lang)]


def test_csharp_units_are_methods_with_their_doc_and_attributes_inside_containers() -> None:
    assert _spans(CSHARP_SOURCE, "csharp") == [
        (2, 2, 24, True, None, "Acme.Widgets"),
        (5, 5, 23, True, 0, "Widget"),  # the class's own doc is left to the chunks
        (9, 12, 17, False, 1, "Grow"),
        (18, 18, 22, False, 1, "Size"),  # a property with accessors over several lines
    ]
    assert blocks_of(CSHARP_SOURCE, "csharp")[2].sig_end == 14  # Allman `{` is the signature's


def test_ruby_units_are_methods_with_their_comments_inside_modules_and_classes() -> None:
    assert _spans(RUBY_SOURCE, "ruby") == [
        (2, 2, 14, True, None, "Acme"),
        (4, 4, 13, True, 0, "Widget"),  # its comment sits in the module's body
        (5, 7, 10, False, 1, "grow"),  # the first member's comment, outside Ruby's body node
        (11, 11, 12, False, 1, "build"),
    ]
    assert [b.sig_end for b in blocks_of(RUBY_SOURCE, "ruby")] == [3, 5, 8, 12]


def test_php_units_are_functions_with_their_docblock_and_attributes() -> None:
    assert _spans(PHP_SOURCE, "php") == [
        (4, 4, 17, True, None, "Widget"),
        (8, 12, 16, False, 0, "grow"),
        (18, 18, 21, True, None, "Sized"),
        (19, 19, 20, False, 2, "size"),
    ]


def test_a_php_helper_defined_inside_its_function_exists_guard_is_a_unit() -> None:
    text = (
        "<?php\n\nif (! function_exists('blank')) {\n    /**\n     * Is it blank.\n     */\n"
        "    function blank($value)\n    {\n        if (is_null($value)) {\n            return true;\n"
        "        }\n\n        return empty($value);\n    }\n}\n"
    )
    assert _spans(text, "php") == [(3, 6, 14, False, None, "blank")]  # all of it, blank line and all


def test_bash_functions_are_units_also_inside_a_complete_list() -> None:
    assert _spans(BASH_SOURCE, "bash") == [
        (3, 4, 9, False, None, "_widget"),
        (11, 11, 14, False, None, "grow"),
    ]


def test_cpp_units_are_member_and_out_of_class_functions_with_templates_and_docs() -> None:
    assert _spans(CPP_SOURCE, "cpp") == [
        (2, 2, 25, True, None, "acme"),
        (6, 6, 16, True, 0, "Widget"),  # `template <…>` and its doc are left to the chunks
        (8, 9, 12, False, 1, "grow"),
        (17, 19, 23, False, 0, "shrink"),  # doc comment, `template <…>`, `Widget<T>::` name
    ]


@pytest.mark.parametrize(
    ("path", "source", "goal", "body"),
    [
        ("Widget.cs", CSHARP_SOURCE, "grows the widget by a step", (12, 17)),
        ("widget.rb", RUBY_SOURCE, "grows the widget by step", (7, 10)),
        ("Widget.php", PHP_SOURCE, "grows the widget", (12, 16)),
        ("widget.sh", BASH_SOURCE, "complete the widget command", (4, 9)),
        ("widget.hpp", CPP_SOURCE, "shrinks it", (18, 23)),
    ],
)
def test_the_engine_keeps_the_whole_unit_in_every_new_language(
    path: str, source: str, goal: str, body: tuple[int, int]
) -> None:
    lines = source.split("\n")
    kept = _kept(source, goal, path)
    assert all(line in kept for line in lines[body[0] : body[1]] if line.strip())


def test_a_macro_line_before_a_namespace_does_not_hide_its_members() -> None:
    text = (
        "namespace absl {\nABSL_NAMESPACE_BEGIN\nnamespace strings_internal {\n\n"
        "// Splits.\nint Split(int a) {\n  return a;\n}\n\n}  // namespace strings_internal\n"
        "ABSL_NAMESPACE_END\n}  // namespace absl\n"
    )
    spans = [(b.start, b.end, b.container, b.name) for b in blocks_of(text, "cpp")]
    assert spans == [(0, 12, True, "absl"), (2, 10, True, "strings_internal"), (4, 8, False, "Split")]


def test_a_cpp_class_with_an_export_macro_is_a_container_of_its_members() -> None:
    text = (
        "namespace acme {\nclass ACME_API Widget\n{\npublic:\n    explicit Widget(int size)\n"
        "        : size_(size)\n    {}\n\n    // Grows it.\n    int grow(int step)\n    {\n"
        "        return size_ += step;\n    }\n\nprivate:\n    int size_;\n};\n}\n"
    )
    spans = [(b.start, b.end, b.container, b.name) for b in blocks_of(text, "cpp")]
    assert spans == [
        (0, 18, True, "acme"),
        (1, 17, True, "Widget"),  # was one function of 16 lines
        (4, 7, False, "Widget"),
        (8, 13, False, "grow"),
    ]


def test_a_cpp_specialisation_is_named_without_its_template_arguments() -> None:
    text = "template <>\nclass Widget<int, std::tuple<T...>> {\n  void grow() {\n  }\n};\n"
    assert [b.name for b in blocks_of(text, "cpp")] == ["Widget", "grow"]


NEW_SOURCES = {
    "csharp": CSHARP_SOURCE,
    "ruby": RUBY_SOURCE,
    "php": PHP_SOURCE,
    "bash": BASH_SOURCE,
    "cpp": CPP_SOURCE,
}


@settings(max_examples=80, deadline=None)
@given(lang=st.sampled_from(sorted(NEW_SOURCES)), keep=st.lists(st.booleans(), min_size=40, max_size=40))
def test_blocks_of_damaged_code_nest_in_the_new_languages_too(lang: str, keep: list[bool]) -> None:
    _damaged_blocks_nest(NEW_SOURCES[lang], lang, keep)
