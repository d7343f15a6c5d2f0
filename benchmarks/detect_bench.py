"""How texts without a path are recognised: every source file of some trees, read whole as
`prune_text` or a gateway observation gives it, its language guessed from its lines
(`languages.language_of(None, lines)`) against the one its path names.

    python benchmarks/detect_bench.py TREE… [--min-lines 50]

One row per language the paths name: files, the share recognised, what the others were read as
(None: no language, the heuristics). Files under `--min-lines` lines are left out (a short text
says little, and costs little whatever the engine does with it).
"""

from __future__ import annotations

import argparse
import collections
from pathlib import Path

from mcp_pruner_server.pruning.structure.languages import language_of


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="+", type=Path)
    parser.add_argument("--min-lines", type=int, default=50)
    args = parser.parse_args()
    read_as: dict[str, collections.Counter[str | None]] = collections.defaultdict(collections.Counter)
    for tree in args.trees:
        for path in sorted(p for p in tree.rglob("*") if p.is_file()):
            lang = language_of(path.name)
            if lang is None:
                continue
            try:
                lines = path.read_text(encoding="utf-8").split("\n")
            except (UnicodeDecodeError, OSError):
                continue
            if len(lines) >= args.min_lines:
                read_as[language_of(path.name, lines) or lang][language_of(None, lines)] += 1
    print("| language | files | recognised | read as |")
    print("|---|---|---|---|")
    for lang, counts in sorted(read_as.items()):
        total = sum(counts.values())
        others = ", ".join(f"{other} {n}" for other, n in counts.most_common() if other != lang)
        print(f"| {lang} | {total} | {counts[lang] / total:.2f} | {others or '-'} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
