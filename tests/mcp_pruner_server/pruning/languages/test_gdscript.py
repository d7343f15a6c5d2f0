"""A Godot script (`.gd`) is GDScript, parsed: its functions and inner classes are the units,
each function with the `##` doc above it."""

from __future__ import annotations

from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.structure.languages import language_of
from mcp_pruner_server.pruning.structure.syntax import syntax_blocks
from mcp_pruner_server.pruning.types import PruneOptions

PLAYER = """\
extends CharacterBody2D
class_name Player

const SPEED := 300.0

## Moves the player along the input direction, scaled by its speed.
func move(delta: float) -> void:
\tvar direction := Input.get_vector("left", "right", "up", "down")
\tvelocity = direction * SPEED
\tmove_and_slide()

## Restores the player's health to full and clears its status effects.
func heal() -> void:
\thealth = max_health
\teffects.clear()

class Inventory:
\tvar items := []

\t## Adds an item unless the inventory is full.
\tfunc add(item) -> bool:
\t\tif items.size() >= 10:
\t\t\treturn false
\t\titems.append(item)
\t\treturn true
"""


def test_a_gd_file_is_gdscript() -> None:
    assert language_of("scenes/player.gd", PLAYER.splitlines()) == "gdscript"


def test_functions_with_their_docs_and_inner_classes_with_their_methods_are_blocks() -> None:
    blocks = syntax_blocks(PLAYER, PLAYER.count("\n"), "gdscript")
    assert blocks is not None
    spans = [(b.start, b.end, b.container, b.name) for b in blocks]
    assert spans == [
        (5, 10, False, "move"),
        (11, 15, False, "heal"),
        (16, 25, True, "Inventory"),
        (19, 25, False, "add"),
    ]
    assert blocks[3].parent == 2


def test_a_question_about_healing_keeps_the_heal_function_read_from_its_path() -> None:
    options = PruneOptions(max_prune_ratio=0.8, min_keep_lines=0, include_markers=False, path="player.gd")
    kept = prune(PLAYER, "restore health to full", "code", options, "prn_test").pruned_text
    assert "func heal() -> void:" in kept
    assert "\thealth = max_health" in kept
