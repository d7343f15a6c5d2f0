"""Build multi-language code task sets (dev + held-out) from real sources, deterministically.

    python benchmarks/lang_sets.py --lang go --src /usr/share/gocode/src --out bench-data/lang

A task is a real source file whose target function has its doc comment blanked out; the
question is that comment's first paragraph (a Go-style leading `Name` dropped, so the question
does not name the target) and the gold lines are the function's non-blank lines, attributes
and decorators included — the shared harness's Python tasks, for every language. Files are
shuffled with `--seed`; a file goes to the held-out split when its path's SHA-1 is odd, so the
two splits never share a file. Python tasks come from the harness's own builder (`ast`).

Kotlin, Swift, Scala, Lua, Zig, Perl, Julia, Elixir, Haskell, Dart, OCaml and Objective-C tasks
are built the same way; their docs are also Lua's `---`, Haskell's `-- |`, OCaml's `(**`,
Elixir's `@doc \"""…\"""` (`@spec`, `@impl` after it are attributes) and Julia's docstring
(its indented signature skipped: it names the target); a Haskell function is its signature and
its equations, a Dart one its signature and the body after it, an OCaml one a `let` with
parameters, and paths with "test" or "fuzz" (a fuzzer is a test) in any case are skipped.

The languages' tables are `lang_tables.py`; reading a doc comment into the question,
`lang_docs.py`. F#, Solidity, Groovy, Fortran, PowerShell and Common Lisp, languages the engine
read by its heuristics when their sets were first built, find their definitions and docs in
`lang_others.py`; MATLAB's (its grammar the builder's only) `lang_matlab.py`. R and Erlang, with
no grammar wheel at all, are found by a scan of the builder's own, `lang_unparsed.py`; Clojure,
Visual Basic .NET and Pascal (session 8) by another, `lang_scanned.py`.

Sources used for the sets in README: see "Languages, build logs, grep" there.

Each task also records `path` (relative, with its extension) and `lang`, so a bench can give the
engine the language a `read` of that file would.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import lang_matlab
import lang_others
import lang_perl
import lang_scanned
import lang_unparsed
from lang_docs import describes, doc_comment, last_code_row, last_row, question
from lang_tables import (
    BODIES,
    COMMENT_ONLY_WRAPPERS,
    ELIXIR_DEFS,
    EXTENSIONS,
    FUNCTIONS,
    GRAMMAR,
    NEW_LANGS,
    WRAPPERS,
)

HARNESS = Path("/work/shared/eval/prune_eval.py")
# The harness's bounds: files long enough for pruning to matter, short enough to be one read.
MIN_FILE_LINES, MAX_FILE_LINES = 300, 4000
MIN_QUERY_WORDS = 6
# A note to the maintainers, not a description of the function.
_NOTE = re.compile(r"(?:TODO|FIXME|XXX|HACK)\b|!!!|#?region\b")
_WORD = re.compile(r"[^\W\d_]{2}")  # a word has two letters: `- - - -` rulers are not questions
MIN_GOLD, MAX_GOLD = 3, 80
PER_FILE = 3


def _parser(lang: str) -> Any:
    import tree_sitter

    module, function = GRAMMAR.get(lang, (f"tree_sitter_{lang}", "language"))
    mod = importlib.import_module(module)
    return tree_sitter.Parser(tree_sitter.Language(getattr(mod, function)()))


def _walk(node: Any) -> Iterator[Any]:
    stack = [node]
    while stack:
        cur = stack.pop()
        yield cur
        stack.extend(reversed(cur.named_children))


def _definition(node: Any, lang: str) -> tuple[Any, Any] | None:
    """(the node holding the body, the definition's last node if not its own) for a
    function-like node, or None when it is not a definition."""
    if lang not in NEW_LANGS:
        body = node.child_by_field_name("body")
        return None if body is None else (body, None)
    if lang == "elixir":
        head = node.named_children[0] if node.named_children else None
        if head is None or head.type != "identifier" or head.text not in ELIXIR_DEFS:
            return None
    if lang == "dart":  # `method_signature` then `function_body`, siblings
        if node.parent is not None and node.parent.type == "method_signature":
            return None
        body = node.next_named_sibling
        return (body, body) if body is not None and body.type == "function_body" else None
    if lang == "haskell":  # `f :: …` then the equations of `f`
        name, last, nxt = _field_text(node, "name"), None, node.next_named_sibling
        while nxt is not None and nxt.type in ("function", "bind") and _field_text(nxt, "name") == name:
            last, nxt = nxt, nxt.next_named_sibling
        return None if last is None else (node, last)
    if lang == "julia":
        return node, None  # its statements are its direct children
    if lang == "ocaml":
        binding = next((c for c in node.named_children if c.type == "let_binding"), None)
        has_params = binding is not None and any(c.type == "parameter" for c in binding.named_children)
        return (node, None) if has_params else None
    body = node.child_by_field_name("body")
    if body is None:
        body = next((c for c in node.named_children if c.type in BODIES), None)
    return None if body is None else (body, None)


def _field_text(node: Any, field: str) -> str:
    found = node.child_by_field_name(field)
    return found.text.decode() if found is not None and found.text is not None else ""


def _new_name(node: Any, lang: str) -> str:
    """The defined name where the grammar has no `name` field (Elixir, Julia, OCaml, Objective-C)."""
    head = node.named_children[1] if lang == "elixir" and len(node.named_children) > 1 else node
    if lang == "julia":
        head = next((c for c in node.named_children if c.type == "signature"), node)
    text = (head.text or b"").decode("utf-8", "replace")
    if lang == "objc":  # `- (void)setImage:(UIImage *)image`
        found = re.match(r"[-+]\s*\([^)]*\)\s*(\w+)", text)
        return found.group(1) if found else ""
    if lang == "ocaml":  # `let rec f x =`
        found = re.match(r"let\s+(?:rec\s+)?(\w+)", text)
        return found.group(1) if found else ""
    m = re.match(r"[\w.]*?(\w+[?!]?)\s*\(", text)
    return m.group(1) if m else ""


def _task(
    lang: str, rel: str, name: str, start: int, query: str, lines: list[str], gold: list[int]
) -> dict[str, Any]:
    return {
        "id": f"{lang}:{rel}:{name}:{start + 1}",
        "kind": "code",
        "source_type": "code",
        "lang": lang,
        "path": rel,
        "goal_hint": query,
        "text": "\n".join(lines),
        "gold": gold,
        "critical": [],
    }


def _build_other(lang: str, rel: str, lines: list[str], root: Any) -> list[dict[str, Any]]:
    """The tasks of a language without an engine grammar (`lang_others.py`), or without any
    grammar wheel (`lang_unparsed.py`: `root` is None)."""
    found = []
    if root is None and lang in lang_scanned.EXTENSIONS:
        defs = lang_scanned.definitions(lang, lines)
    elif root is None:
        defs = lang_unparsed.definitions(lang, lines)
    elif lang in lang_matlab.EXTENSIONS:
        defs = lang_matlab.definitions(lines, _walk(root))
    else:
        defs = lang_others.definitions(lang, lines, _walk(root))
    for start, end, c0, c1, query, name in defs:
        if sum(bool(_WORD.search(w)) for w in query.split()) < MIN_QUERY_WORDS:
            continue
        if _NOTE.match(query) or query.startswith("NOTE:"):
            continue
        ctx = list(lines)
        for i in range(c0, c1 + 1):
            ctx[i] = ""
        gold = [i + 1 for i in range(start, end + 1) if ctx[i].strip()]
        if MIN_GOLD <= len(gold) <= MAX_GOLD:
            found.append(_task(lang, rel, name, start, query, ctx, gold))
    return found


def build_file(lang: str, rel: str, text: str, parser: Any, perl_pod: bool = False) -> list[dict[str, Any]]:
    lines = text.split("\n")
    if lang in lang_unparsed.EXTENSIONS or lang in lang_scanned.EXTENSIONS:
        return _build_other(lang, rel, lines, None)
    tree = parser.parse(text.encode("utf-8"))
    if lang in lang_others.EXTENSIONS or lang in lang_matlab.EXTENSIONS:
        return _build_other(lang, rel, lines, tree.root_node)
    pod = lang_perl.pod_index(tree.root_node, lines) if lang == "perl" and perl_pod else None
    found: list[dict[str, Any]] = []
    for node in _walk(tree.root_node):
        if node.type not in FUNCTIONS[lang]:
            continue
        bound = node.parent is not None and node.parent.type == "variable_declarator"
        if node.type == "arrow_function" and not bound:
            continue  # an arrow function is a definition only when it is bound to a name
        definition = _definition(node, lang)
        if definition is None:
            continue
        outer = node
        while outer.parent is not None and outer.parent.type in WRAPPERS:
            outer = outer.parent
        if (
            outer.parent is not None
            and outer.parent.type in COMMENT_ONLY_WRAPPERS
            and outer.prev_sibling is None
        ):
            outer = outer.parent
        end = node.end_point[0] if outer.type in COMMENT_ONLY_WRAPPERS else outer.end_point[0]
        if lang in NEW_LANGS:  # a Scala indented body can hold what follows it: comments, spaces
            end = last_code_row(definition[1] or outer)
        comments, attrs = doc_comment(outer, lang) if pod is None else ([], [])
        if not comments and pod is None:
            continue
        name_node = node.child_by_field_name("name")
        if name_node is None and bound:  # `const name = (…) => …`: the name is the declarator's
            name_node = node.parent.child_by_field_name("name")
        name = name_node.text.decode() if name_node is not None else ""
        if not name and lang in NEW_LANGS:
            name = _new_name(node, lang)
        if pod is not None:
            doc = lang_perl.pod_doc(node, lines, name, pod)
            if doc is None:
                continue
            c0, c1, query = doc
        else:
            c0, c1 = comments[0].start_point[0], last_row(comments[-1])
            query = question(lines, c0, c1, name, lang)
        if sum(bool(_WORD.search(w)) for w in query.split()) < MIN_QUERY_WORDS:
            continue
        if (comments and not describes(comments[0], lang)) or _NOTE.match(query):
            continue
        if lang in NEW_LANGS and query.startswith("NOTE:"):
            continue  # `NOTE:` opens a note to the maintainers, as `TODO` does
        ctx = list(lines)
        for i in range(c0, c1 + 1):
            ctx[i] = ""
        start = attrs[0].start_point[0] if attrs else outer.start_point[0]
        gold = [i + 1 for i in range(start, end + 1) if ctx[i].strip()]
        if not (MIN_GOLD <= len(gold) <= MAX_GOLD):
            continue
        found.append(_task(lang, rel, name, start, query, ctx, gold))
    return found


def _is_shell_script(path: Path) -> bool:
    """An extensionless file that is a shell script: a `sh`/`bash` shebang, or file(1) says so
    (sourced libraries and completions have no shebang)."""
    try:
        with open(path, "rb") as f:
            first = f.readline(200)
    except OSError:
        return False
    if re.match(rb"#!\s*\S*/(?:env\s+)?(?:ba)?sh\b", first):
        return True
    verdict = subprocess.run(
        ["file", "-b", "--mime-type", str(path)], capture_output=True, text=True, check=False
    )
    return verdict.stdout.strip() == "text/x-shellscript"


def _harness() -> ModuleType:
    spec = importlib.util.spec_from_file_location("prune_eval", HARNESS)
    assert spec is not None
    assert spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def held_out(key: str) -> bool:
    """Whether the task keyed `key` (a file's path, a grep task's name) is in the held-out half."""
    return hashlib.sha1(key.encode()).digest()[-1] % 2 == 1


def write_split(out: Path, name: str, split: str, tasks: list[dict[str, Any]]) -> None:
    """`tasks` as `<out>/<name>_<split>.jsonl`, one JSON task a line, and their count said."""
    with open(out / f"{name}_{split}.jsonl", "w", encoding="utf-8") as f:
        for t in tasks:
            f.write(json.dumps(t) + "\n")
    print(f"{name} {split}: {len(tasks)} tasks")


def build(
    lang: str, src: Path, n: int, seed: int, perl_pod: bool = False, suffixes: tuple[str, ...] = ()
) -> list[dict[str, Any]]:
    if lang == "python":
        tasks: list[dict[str, Any]] = _harness().build_code(src, 10 * n, seed)
        for t in tasks:
            t["lang"], t["path"] = "python", t["id"].split(":")[1]
        return tasks
    rng = random.Random(seed)
    unparsed = {**lang_unparsed.EXTENSIONS, **lang_scanned.EXTENSIONS}
    unread = {**lang_others.EXTENSIONS, **unparsed, **lang_matlab.EXTENSIONS}
    extensions = {**EXTENSIONS, **unread}
    new = lang in NEW_LANGS or lang in unread
    skip = re.compile(r"(^|/)(tests?|testdata|__tests__|examples?|benches|vendor)(/|$)|test|spec|\.min\.")
    files = sorted(
        p
        for p in src.rglob("*")
        if p.is_file()
        and not p.is_symlink()
        and p.suffix in (suffixes or extensions[lang])
        and not skip.search(str(p.relative_to(src)))
        and not (new and re.search(skip.pattern + "|fuzz", str(p.relative_to(src)).lower()))
        and (p.suffix or _is_shell_script(p))
    )
    rng.shuffle(files)
    parser = None if lang in unparsed else _parser(lang)
    tasks = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if not (MIN_FILE_LINES <= text.count("\n") <= MAX_FILE_LINES) or path.name.endswith(".d.ts"):
            continue
        found = build_file(lang, str(path.relative_to(src)), text, parser, perl_pod)
        rng.shuffle(found)
        tasks += found[:PER_FILE]
        if len(tasks) >= 10 * n:
            break
    return tasks


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--lang",
        required=True,
        choices=[
            "python",
            *EXTENSIONS,
            *lang_others.EXTENSIONS,
            *lang_unparsed.EXTENSIONS,
            *lang_scanned.EXTENSIONS,
            *lang_matlab.EXTENSIONS,
        ],
    )
    ap.add_argument("--src", type=Path, required=True)
    ap.add_argument("--n", type=int, default=40, help="tasks per split")
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--out", type=Path, required=True, help="directory for <lang>_dev/_held.jsonl")
    ap.add_argument(
        "--perl-doc",
        choices=["comment", "pod"],
        default="comment",
        help="a Perl question from the comment above a sub (sets up to session 5) or its POD (lang_perl.py)",
    )
    ap.add_argument(
        "--extensions",
        nargs="+",
        default=(),
        help="the file suffixes read (default: the language's table; `.F`, `.f95` Fortran trees)",
    )
    args = ap.parse_args()
    tasks = build(args.lang, args.src, args.n, args.seed, args.perl_doc == "pod", tuple(args.extensions))
    args.out.mkdir(parents=True, exist_ok=True)
    for split, pick in (("dev", False), ("held", True)):
        write_split(args.out, args.lang, split, [t for t in tasks if held_out(t["path"]) == pick][: args.n])
    return 0


if __name__ == "__main__":
    sys.exit(main())
