from __future__ import annotations

import pytest

from mcp_pruner_server.pruning.structure.languages import language_of


@pytest.mark.parametrize(
    ("path", "lang"),
    [
        ("src/app.js", "javascript"),
        ("lib/index.MJS", "javascript"),
        ("a/b.ts", "typescript"),
        ("view.tsx", "tsx"),
        ("cmd/main.go", "go"),
        ("src/lib.rs", "rust"),
        ("malloc/malloc.c", "c"),
        ("include/x.hpp", "cpp"),
        ("java/util/ArrayList.java", "java"),
        ("pkg/mod.py", "python"),
    ],
)
def test_the_extension_names_the_language(path: str, lang: str) -> None:
    assert language_of(path) == lang


@pytest.mark.parametrize(
    ("first_line", "lang"),
    [
        ("#!/usr/bin/env python3", "python"),
        ("#! /usr/bin/python3.11 -u", "python"),
        ("#!/usr/bin/env -S node --no-warnings", "javascript"),
        ("#!/usr/local/bin/ts-node", "typescript"),
        ("#!/bin/bash", None),
        ("import os", None),
        ("", None),
    ],
)
def test_a_shebang_names_the_language_when_the_path_does_not(first_line: str, lang: str | None) -> None:
    assert language_of("bin/tool", first_line) == lang
    assert language_of(None, first_line) == lang


def test_the_extension_wins_over_the_shebang() -> None:
    assert language_of("tool.js", "#!/usr/bin/env python3") == "javascript"


def test_an_unknown_extension_without_a_shebang_is_no_language() -> None:
    assert language_of("notes.cfg", "x = 1") is None
