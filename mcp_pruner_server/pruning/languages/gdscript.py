"""GDScript, the Godot engine's scripting language: its `func`s and inner `class`es are the shared
tables' `function_definition` and `class_definition` (a `body` field each), so the shared walk
reads them; a file is itself a class (`extends Node`, `class_name Player`) whose functions are
the units, and its `##` doc comments sit above what they document.
"""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language

LANGUAGE = Language(
    name="gdscript",
    extensions=(".gd",),
    grammar=Grammar("tree_sitter_gdscript"),
)
