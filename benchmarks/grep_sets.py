"""Build grep-output task sets: real `rg` runs over real source trees, seeded, dev / held-out.

    python benchmarks/grep_sets.py --src /usr/share/gocode/src .tools/node_modules ... --out /tmp/langsets

An identifier defined once in a tree and used in several files is searched for with `rg -n`
(half the tasks with `--heading`, the file name on its own line above its hits). Two questions:
where is it defined (gold: the definition's hit, and its file's heading line), and how does one
file use it (gold: that file's hits and heading). The identifier is spelled in the question as
words (`kOnClosed` -> "on closed" / "on-closed"), as people ask. The critical lines are the
definition's hit, or the file's heading and first hit. A tree's files go to the held-out split
when the identifier's SHA-1 is odd.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from lang_sets import held_out, write_split

_DEF = re.compile(
    r"\b(?:func(?:\s*\([^)]*\))?|function|def|fn|class|struct|interface|type|enum)\s+([A-Za-z_][A-Za-z0-9_]{5,})\b"
)
EXTS = {".go", ".rs", ".js", ".ts", ".c", ".h", ".java", ".py"}
MIN_FILES, MIN_HITS, MAX_HITS = 3, 12, 300
PER_TREE = 12
RG = shutil.which("rg") or str(Path(sys.executable).parent / "rg")
RG_TIMEOUT_S = 60


def words(name: str) -> list[str]:
    name = re.sub(r"^k(?=[A-Z])", "", name)
    parts = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", name)
    return [p.lower() for p in parts]


def _rg(root: Path, name: str, heading: bool) -> str:
    cmd = [RG, "-n", "-w", "-F", "--no-config", "--sort", "path", "--color", "never"]
    cmd += ["--heading"] if heading else ["--no-heading"]
    proc = subprocess.run(
        [*cmd, name, "."], cwd=root, capture_output=True, text=True, timeout=RG_TIMEOUT_S, check=False
    )
    return proc.stdout.rstrip("\n")


def _hits(text: str, heading: bool) -> list[tuple[str, int, str]]:
    """(file, output line index, hit text) of every hit line."""
    out: list[tuple[str, int, str]] = []
    current = ""
    for i, line in enumerate(text.split("\n")):
        if heading:
            m = re.match(r"^(\d+)[:-](.*)$", line)
            if m is None:
                current = line
                continue
            out.append((current, i, m.group(2)))
        else:
            m = re.match(r"^(.+?):(\d+):(.*)$", line)
            if m is not None:
                out.append((m.group(1), i, m.group(3)))
    return out


def tasks_for(root: Path, rng: random.Random) -> list[dict[str, Any]]:
    files = sorted(p for p in root.rglob("*") if p.suffix in EXTS and p.is_file())
    rng.shuffle(files)
    names: list[str] = []
    for path in files[:400]:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        names += _DEF.findall(text)
    names = sorted(set(names))
    rng.shuffle(names)
    out: list[dict[str, Any]] = []
    for name in names:
        if len(out) >= PER_TREE or len(words(name)) < 2:
            continue
        heading = rng.random() < 0.5
        text = _rg(root, name, heading)
        hits = _hits(text, heading)
        files_hit = sorted({f for f, _, _ in hits})
        defs = [h for h in hits if _DEF.search(h[2]) and name in _DEF.findall(h[2])]
        if not (MIN_HITS <= len(hits) <= MAX_HITS and len(files_hit) >= MIN_FILES and len(defs) == 1):
            continue
        lines = text.split("\n")
        spelled = rng.choice([" ".join(words(name)), "-".join(words(name))])

        def heading_of(f: str, lines: list[str] = lines, heading: bool = heading) -> list[int]:
            return [i for i, line in enumerate(lines) if heading and line == f]

        if rng.random() < 0.5:
            f, i, _ = defs[0]
            q = rng.choice([f"where is {spelled} defined?", f"show the definition of {spelled}"])
            gold, crit = [*heading_of(f), i], [i]
        else:
            f = rng.choice([x for x in files_hit if x != defs[0][0]])
            stem = " ".join(words(Path(f).stem.replace("_", " ").title().replace(" ", ""))) or Path(f).stem
            mine = [i for g, i, _ in hits if g == f]
            q = f"how does {stem} use {spelled}?"
            gold, crit = sorted([*heading_of(f), *mine]), [*heading_of(f), mine[0]]
        out.append(
            {
                "id": f"grep:{root.name}:{name}:{'heading' if heading else 'flat'}",
                "kind": "grep",
                "source_type": "logs",
                "name": name,
                "heading": heading,
                "goal_hint": q,
                "text": text,
                "gold": sorted(g + 1 for g in gold),
                "critical": sorted(c + 1 for c in crit),
            }
        )
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", type=Path, nargs="+", required=True)
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    tasks: list[dict[str, Any]] = []
    for root in args.src:
        tasks += tasks_for(root, random.Random(f"{args.seed}:{root.name}"))
    args.out.mkdir(parents=True, exist_ok=True)
    for split, pick in (("dev", False), ("held", True)):
        write_split(args.out, "grep", split, [t for t in tasks if held_out(t["name"]) == pick])
    return 0


if __name__ == "__main__":
    sys.exit(main())
