"""A window cut out of a file (its top the end of a body, its members in a class above it) parses."""

from __future__ import annotations

from mcp_pruner_server.pruning.structure.syntax import clear_parse_cache, syntax_blocks
from mcp_pruner_server.pruning.structure.syntax_window import window_texts

# `sed -n` of a C# file: the end of one method's body, two methods, the class's `}`.
CSHARP_WINDOW = """\
                return cached;
            }
            return Compute(key);
        }

        /// <summary>Parse the digest of a value.</summary>
        public static int ParseDigest(string text)
        {
            var n = text.Length;
            return n * 31;
        }

        private static void Reset() { }
    }
"""

# The same of a JavaScript class: its methods have no `function` keyword.
JS_WINDOW = """\
        this.count += 1;
      }
    }
    return this;
  }

  combineFlags(combine = true) {
    this._combine = !!combine;
    return this;
  }

  allowUnknown(allow = true) {
    this._allow = allow;
    return this;
  }
}
"""


def _names(text: str, lang: str) -> list[str | None]:
    clear_parse_cache()
    blocks = syntax_blocks(text, text.count("\n") + 1, lang)
    assert blocks is not None
    return [b.name for b in blocks]


def test_the_methods_of_a_csharp_window_are_blocks() -> None:
    assert _names(CSHARP_WINDOW, "csharp") == ["ParseDigest", "Reset"]


def test_the_methods_of_a_javascript_window_are_blocks_without_the_orphan_body() -> None:
    clear_parse_cache()
    blocks = syntax_blocks(JS_WINDOW, JS_WINDOW.count("\n") + 1, "javascript")
    assert blocks is not None
    assert [(b.name, b.header, b.parent) for b in blocks] == [
        ("combineFlags", 6, None),
        ("allowUnknown", 11, None),
    ]


def test_balanced_text_is_no_window() -> None:
    text = "class A {\n  f() {\n    return 1;\n  }\n}\n"
    assert list(window_texts(text, "javascript")) == []


def test_braces_in_strings_and_comments_are_not_counted() -> None:
    text = 'class A {\n  f() {\n    return "}}";  // }\n  }\n}\n'
    assert list(window_texts(text, "javascript")) == []


def test_readings_keep_every_row() -> None:
    rows = CSHARP_WINDOW.count("\n")
    readings = list(window_texts(CSHARP_WINDOW, "csharp"))
    assert len(readings) == 2
    assert all(r.count("\n") == rows for r, _ in readings)


# A window that opens inside a comment: its `*/` closes nothing.
KOTLIN_WINDOW = """\
 * Licensed under the Apache License, Version 2.0.
 */
@file:Suppress("PLATFORM_CLASS_MAPPED_TO_KOTLIN")

package com.squareup.moshi

import java.lang.reflect.Type

/** Factory methods for types. */
public object Types {
  /**
   * Resolves the name of the adapter of [clazz].
   */
  public fun adapterName(clazz: Class<*>): String {
    return clazz.name + "JsonAdapter"
  }
}
"""


def test_a_window_opening_inside_a_comment_is_read_without_it() -> None:
    readings = list(window_texts(KOTLIN_WINDOW, "kotlin"))
    assert len(readings) == 1
    assert readings[0][0].split("\n")[:3] == ["", "", '@file:Suppress("PLATFORM_CLASS_MAPPED_TO_KOTLIN")']
    assert _names(KOTLIN_WINDOW, "kotlin") == ["Types", "adapterName"]


def test_a_window_inside_a_class_whose_header_and_end_are_outside_it_parses() -> None:
    members = CSHARP_WINDOW.split("\n")[4:-2]  # from the blank line after the orphan to `Reset`
    assert _names("\n".join(members), "csharp") == ["ParseDigest", "Reset"]


# Objective-C: methods at the left margin, their `@implementation` above the window.
OBJC_WINDOW = """\
    [self didFinish];
}

- (void)discoverServices
{
    if (hasRequested) { return; }
    [self sendQuery];
}

- (BOOL)handleQuery:(XMPPIQ *)iq
{
    return YES;
}
"""


def test_the_methods_of_an_objective_c_window_are_blocks() -> None:
    assert _names(OBJC_WINDOW, "objc") == ["discoverServices", "handleQuery"]
