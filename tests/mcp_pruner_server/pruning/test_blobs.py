"""Data blobs (base64, hex) are read as a word and kept only when nothing else is left."""

from __future__ import annotations

import base64
import json
import random

from mcp_pruner_server.pruning.blobs import blob_lines, blobs_cut_short
from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.types import PruneOptions

_RANDOM = random.Random(7)


def _b64(n: int) -> str:
    return base64.b64encode(bytes(_RANDOM.randrange(256) for _ in range(n))).decode()


def test_base64_and_hex_lines_are_blobs_and_code_is_not() -> None:
    lines = [
        f'      "image/png": "{_b64(3000)}",',  # a notebook's figure
        f"  src: url(data:font/woff2;base64,{_b64(2000)}) format('woff2');",  # an embedded font
        bytes(_RANDOM.randrange(256) for _ in range(800)).hex(),
        "var a=function(b){return b+1};" * 60,  # a minified line is code
        "The quick brown fox jumps over the lazy dog. " * 40,  # a long prose line
        "short line",
    ]
    assert blob_lines(lines) == frozenset({0, 1, 2})
    short = blobs_cut_short(lines, blob_lines(lines))
    assert short is not None
    assert short[0] == '      "image/png": "BLOB",'
    assert short[3:] == lines[3:]


def _notebook() -> str:
    cells = []
    for k in range(20):
        source = [f"def step_{k}(frame):\n", f"    return frame['c{k}'] / frame['c{k}'].max()\n"]
        outputs = [{"output_type": "display_data", "data": {"image/png": _b64(3000)}}]
        cells.append({"cell_type": "code", "source": source, "outputs": outputs})
    return json.dumps({"cells": cells}, indent=1)


def test_a_notebooks_cell_is_kept_without_its_image() -> None:
    text = _notebook()
    question = "How does step_7 normalise its column?"
    result = prune(text, question, "code", PruneOptions(max_prune_ratio=0.9), "p")
    assert "def step_7(frame)" in result.pruned_text
    assert "image/png" in text
    assert not any(len(line) > 1000 for line in result.pruned_text.split("\n"))


def test_a_blob_is_kept_when_the_floor_leaves_nothing_else() -> None:
    lines = ["header", *(_b64(1500) for _ in range(4))]
    result = prune("\n".join(lines), "header?", "code", PruneOptions(min_keep_lines=5), "p")
    assert result.pruned_text == "\n".join(lines)


def test_a_blob_whose_line_the_question_names_is_kept() -> None:
    lines = [f"def helper_{k}():\n    return {k}\n" for k in range(30)]
    text = "".join(lines[:15]) + f'APP_ICON = "{_b64(3000)}"\n' + "".join(lines[15:])
    result = prune(text, "Where is APP_ICON set?", "code", PruneOptions(), "p")
    assert any(line.startswith('APP_ICON = "') for line in result.pruned_text.split("\n"))
