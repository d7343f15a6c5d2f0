"""Build multi-language code task sets (dev + held-out) from real sources, deterministically.

    python benchmarks/lang_sets.py --lang go --src /usr/share/gocode/src --out bench-data/lang

A task is a real source file whose target function has its doc comment blanked out; the
question is that comment's first paragraph (a Go-style leading `Name` dropped, so the question
does not name the target) and the gold lines are the function's non-blank lines, attributes
and decorators included — the shared harness's Python tasks, for every language. Files are
shuffled with `--seed`; a file goes to the held-out split when its path's SHA-1 is odd, so the
two splits never share a file. Python tasks come from the harness's own builder (`ast`).

Kotlin, Swift, Scala, Lua, Zig, Perl, Julia, Elixir, Haskell and Dart tasks are built the same
way; their docs are also Lua's `---`, Haskell's `-- |`, Elixir's `@doc \"""…\"""` (`@spec`,
`@impl` after it are attributes) and Julia's docstring (its indented signature skipped: it
names the target); a Haskell function is its signature and its equations, a Dart one its
signature and the body after it, and paths with "test" in any case are skipped.

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

HARNESS = Path("/work/shared/eval/prune_eval.py")
# The harness's bounds: files long enough for pruning to matter, short enough to be one read.
MIN_FILE_LINES, MAX_FILE_LINES = 300, 4000
MIN_QUERY_WORDS = 6
# The doc comment's opening, in languages that have one (the others document with any comment).
DOC_MARKS: dict[str, tuple[bytes, ...]] = {
    "java": (b"/**",),
    "js": (b"/**",),
    "ts": (b"/**",),
    "php": (b"/**",),
    "csharp": (b"///", b"/**"),
    "rust": (b"///", b"/**"),
}
# A note to the maintainers, not a description of the function.
_NOTE = re.compile(r"(?:TODO|FIXME|XXX|HACK)\b|!!!|#?region\b")
_WORD = re.compile(r"[^\W\d_]{2}")  # a word has two letters: `- - - -` rulers are not questions
MIN_GOLD, MAX_GOLD = 3, 80
PER_FILE = 3

EXTENSIONS = {
    "js": (".js", ".mjs", ".cjs"),
    "ts": (".ts",),
    "go": (".go",),
    "rust": (".rs",),
    "c": (".c",),
    "java": (".java",),
    "cpp": (".cc", ".cpp", ".cxx", ".hpp", ".hh", ".h"),  # `.h` from C++ trees: the engine sniffs it
    "csharp": (".cs",),
    "ruby": (".rb",),
    "php": (".php",),
    "bash": (".sh", ".bash", ""),  # extensionless: a `sh`/`bash` shebang, or file(1) says shell
    "kotlin": (".kt",),
    "swift": (".swift",),
    "scala": (".scala",),
    "lua": (".lua",),
    "zig": (".zig",),
    "perl": (".pm", ".pl"),
    "julia": (".jl",),
    "elixir": (".ex",),
    "haskell": (".hs",),
    "dart": (".dart",),
    "ocaml": (".ml",),
    "objc": (".m",),
}
# The function-like nodes of each grammar (the builder's own list, independent of the engine's).
FUNCTIONS = {
    "js": {"function_declaration", "generator_function_declaration", "method_definition", "arrow_function"},
    "ts": {"function_declaration", "generator_function_declaration", "method_definition", "arrow_function"},
    "go": {"function_declaration", "method_declaration"},
    "rust": {"function_item"},
    "c": {"function_definition"},
    "java": {"method_declaration", "constructor_declaration"},
    "cpp": {"function_definition"},
    "csharp": {"method_declaration", "constructor_declaration"},
    "ruby": {"method", "singleton_method"},
    "php": {"function_definition", "method_declaration"},
    "bash": {"function_definition"},
    "kotlin": {"function_declaration", "secondary_constructor"},
    "swift": {"function_declaration", "init_declaration"},
    "scala": {"function_definition"},
    "lua": {"function_declaration"},
    "zig": {"function_declaration"},
    "perl": {"subroutine_declaration_statement"},
    "julia": {"function_definition", "macro_definition"},
    "elixir": {"call"},  # `def` / `defp` / `defmacro` calls only (`_elixir_def`)
    "haskell": {"signature"},  # with the equations after it (`_haskell_end`)
    "dart": {"function_signature", "method_signature"},  # the body is the next sibling
    "ocaml": {"value_definition"},  # `let f x = …`, one with parameters
    "objc": {"method_definition", "function_definition"},
}
# Languages added after the first twelve: their comment marks and doc shapes are read by
# `_NEW_MARKS` and `_is_doc`, so the first twelve's sets stay byte-identical.
FIRST_LANGS = frozenset({"js", "ts", "go", "rust", "c", "java", "cpp", "csharp", "ruby", "php", "bash"})
NEW_LANGS = frozenset(EXTENSIONS) - FIRST_LANGS
# A body child, where the grammar has no `body` field (Kotlin, Julia, Elixir).
BODIES = {"function_body", "block", "do_block", "compound_statement"}
ELIXIR_DEFS = {b"def", b"defp", b"defmacro", b"defmacrop", b"defguard", b"defguardp"}
# Grammar module and its language function, where not `tree_sitter_<lang>.language`.
GRAMMAR = {
    "js": ("tree_sitter_javascript", "language"),
    "ts": ("tree_sitter_typescript", "language_typescript"),
    "csharp": ("tree_sitter_c_sharp", "language"),
    "php": ("tree_sitter_php", "language_php"),
    "ocaml": ("tree_sitter_ocaml", "language_ocaml"),
}
# Wrappers whose comment sits above them rather than above the function itself.
WRAPPERS = {
    "variable_declarator",
    "export_statement",
    "lexical_declaration",
    "variable_declaration",
    "decorated_definition",
    "template_declaration",  # C++ `template <…>` above a function
    "implementation_definition",  # Objective-C: a method's comment sits above this
}
# Wrappers whose comment sits above them but whose other statements are not the function's:
# Bash `_comp() {…} && complete -F _comp cmd`.
COMMENT_ONLY_WRAPPERS = {"list"}
ATTRIBUTES = {"attribute_item", "decorator", "annotation", "marker_annotation", "attribute_list"}
_COMMENT_MARKS = re.compile(r"^\s*(?:/\*\*?|\*/|\*|///?|//!|#+)\s?")
# Also Lua `---` / `--[[`, Haskell `-- |` / `{-|`, OCaml `(**`, Elixir `@doc """`, Julia `"""`.
_NEW_MARKS = re.compile(
    r"^\s*(?:/\*\*?|\*/|\*|///?|//!|#+|--+(?:\[=*\[)?\s*[|^]?|\{-\|?|-\}|\(\*\*?"
    r"|@(?:module)?doc\s+(?:~[sS])?\"(?:\"\")?|\"\"\")\s?"
)
_NEW_END_MARKS = re.compile(r"\s*(?:\*+\)|-\}|\]=*\]|\"\"\"|\")\s*$")
# C# XML docs: `<summary>` is the description, `<param>`, `<returns>` … end it like `@param`.
_XML_END = re.compile(r"^<(?:param|typeparam|returns|exception|remarks|example|value|seealso)\b")
_XML_REF = re.compile(r"<(?:see|paramref|typeparamref)\s+\w+=\"(?:[A-Z]:)?([^\"]+)\"\s*/>")
_XML_TAG = re.compile(r"</?\w+[^>]*>")
# Markup that is not prose: Doxygen `@brief` / `\brief`, fmt's `\rst` … `\endrst`, RDoc's `\Word`.
_MARKUP = re.compile(r"^[@\\]brief\s+|\\(?:end)?rst\b|^\\(?=\w)")


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


def _last_row(node: Any) -> int:
    """The node's last line: a Rust `///` comment ends at column 0 of the next one."""
    row, col = node.end_point
    return int(row) - 1 if col == 0 and row > node.start_point[0] else int(row)


def _after_code(comment: Any) -> bool:
    """The comment ends a line of code (its previous sibling ends on the row it starts on)."""
    before = comment.prev_sibling
    return before is not None and before.end_point[0] == comment.start_point[0]


def _is_doc(node: Any, lang: str) -> bool:
    """A comment, or a new language's doc that is not one to the grammar: a Haskell `-- |`
    (`haddock`), a Julia docstring above its function, an Elixir `@doc \"""…\"""`."""
    if "comment" in node.type and lang != "haskell":
        return True
    if lang not in NEW_LANGS:
        return False
    if lang == "haskell":
        return bool(node.type == "haddock")  # a plain `--` comment above is not its doc
    if lang == "julia":
        return bool(node.type == "string_literal")
    return lang == "elixir" and _elixir_doc(node)


def _elixir_doc(node: Any) -> bool:
    return node.type == "unary_operator" and re.match(rb'@doc\s+(?:~[sS])?"', node.text or b"") is not None


def _is_attribute(node: Any, lang: str) -> bool:
    """An attribute: also Elixir's `@spec`, `@impl`, `@doc since: …` between `@doc` and `def`."""
    if node.type in ATTRIBUTES:
        return True
    return lang == "elixir" and node.type == "unary_operator" and (node.text or b"").startswith(b"@")


def _describes(first_comment: Any, lang: str) -> bool:
    """Whether a comment is the language's doc comment where it has one: a `// why` note above
    a Java method is not its documentation (`/** … */` is), nor `//` above a Rust `fn`."""
    marks = DOC_MARKS.get(lang)
    return marks is None or (first_comment.text or b"").lstrip().startswith(marks)


def _doc_comment(outer: Any, lang: str) -> tuple[list[Any], list[Any]]:
    """The comment nodes directly above `outer` (no blank line between) and attribute nodes."""
    comments: list[Any] = []
    attrs: list[Any] = []
    row = outer.start_point[0]
    prev = outer.prev_named_sibling
    while prev is not None and _last_row(prev) >= row - 1:
        if _is_doc(prev, lang):
            if prev.text is not None and prev.text.startswith(b"#!"):
                break  # a shebang documents the script, not its first function
            if _after_code(prev):
                break  # `#[attr] // why` explains the line it ends, not the function
            comments.insert(0, prev)
        elif _is_attribute(prev, lang):
            if comments:
                break
            attrs.insert(0, prev)
        else:
            break
        row = prev.start_point[0]
        prev = prev.prev_named_sibling
    return comments, attrs


def _query(lines: list[str], first: int, last: int, name: str, lang: str) -> str:
    paragraph: list[str] = []
    call_seq = False  # RDoc's `call-seq:` block names the method: the prose after it is asked
    new = lang in NEW_LANGS
    for raw in lines[first : last + 1]:
        if lang == "julia" and raw.startswith("    ") and not paragraph:
            continue  # a Julia docstring opens with the indented signature: it names the target
        if new:
            text = _NEW_END_MARKS.sub("", _NEW_MARKS.sub("", raw)).strip().rstrip("*/").strip()
        else:
            text = _COMMENT_MARKS.sub("", raw).strip().rstrip("*/").strip()
        if _XML_END.match(text):
            break
        text = _MARKUP.sub("", _XML_TAG.sub("", _XML_REF.sub(r"\1", text))).strip()
        if text.startswith("call-seq:"):
            call_seq = True
        if not text:
            call_seq = False
            if paragraph:
                break
            continue
        if call_seq:
            continue
        if text.startswith("@"):  # javadoc / jsdoc tags end the description
            break
        paragraph.append(text)
    words = " ".join(paragraph).split()
    if words and words[0].strip(".,:") in (name, f"{name}()"):
        words = words[1:]
    return " ".join(words)


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


def _last_code_row(node: Any) -> int:
    """The row of the last token of `node` that is not a comment."""
    for _ in range(10_000):
        kids = [c for c in node.children if "comment" not in c.type and c.end_point != c.start_point]
        if not kids:
            break
        node = kids[-1]
    return _last_row(node)


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


def build_file(lang: str, rel: str, text: str, parser: Any) -> list[dict[str, Any]]:
    lines = text.split("\n")
    tree = parser.parse(text.encode("utf-8"))
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
            end = _last_code_row(definition[1] or outer)
        comments, attrs = _doc_comment(outer, lang)
        if not comments:
            continue
        name_node = node.child_by_field_name("name")
        if name_node is None and bound:  # `const name = (…) => …`: the name is the declarator's
            name_node = node.parent.child_by_field_name("name")
        name = name_node.text.decode() if name_node is not None else ""
        if not name and lang in NEW_LANGS:
            name = _new_name(node, lang)
        c0, c1 = comments[0].start_point[0], _last_row(comments[-1])
        query = _query(lines, c0, c1, name, lang)
        if sum(bool(_WORD.search(w)) for w in query.split()) < MIN_QUERY_WORDS:
            continue
        if not _describes(comments[0], lang) or _NOTE.match(query):
            continue
        ctx = list(lines)
        for i in range(c0, c1 + 1):
            ctx[i] = ""
        start = attrs[0].start_point[0] if attrs else outer.start_point[0]
        gold = [i + 1 for i in range(start, end + 1) if ctx[i].strip()]
        if not (MIN_GOLD <= len(gold) <= MAX_GOLD):
            continue
        found.append(
            {
                "id": f"{lang}:{rel}:{name}:{start + 1}",
                "kind": "code",
                "source_type": "code",
                "lang": lang,
                "path": rel,
                "goal_hint": query,
                "text": "\n".join(ctx),
                "gold": gold,
                "critical": [],
            }
        )
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


def build(lang: str, src: Path, n: int, seed: int) -> list[dict[str, Any]]:
    if lang == "python":
        tasks: list[dict[str, Any]] = _harness().build_code(src, 10 * n, seed)
        for t in tasks:
            t["lang"], t["path"] = "python", t["id"].split(":")[1]
        return tasks
    rng = random.Random(seed)
    skip = re.compile(r"(^|/)(tests?|testdata|__tests__|examples?|benches|vendor)(/|$)|test|spec|\.min\.")
    files = sorted(
        p
        for p in src.rglob("*")
        if p.is_file()
        and not p.is_symlink()
        and p.suffix in EXTENSIONS[lang]
        and not skip.search(str(p.relative_to(src)))
        and not (lang in NEW_LANGS and skip.search(str(p.relative_to(src)).lower()))
        and (p.suffix or _is_shell_script(p))
    )
    rng.shuffle(files)
    parser = _parser(lang)
    tasks = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if not (MIN_FILE_LINES <= text.count("\n") <= MAX_FILE_LINES) or path.name.endswith(".d.ts"):
            continue
        found = build_file(lang, str(path.relative_to(src)), text, parser)
        rng.shuffle(found)
        tasks += found[:PER_FILE]
        if len(tasks) >= 10 * n:
            break
    return tasks


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lang", required=True, choices=["python", *EXTENSIONS])
    ap.add_argument("--src", type=Path, required=True)
    ap.add_argument("--n", type=int, default=40, help="tasks per split")
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--out", type=Path, required=True, help="directory for <lang>_dev/_held.jsonl")
    args = ap.parse_args()
    tasks = build(args.lang, args.src, args.n, args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    for split, pick in (("dev", False), ("held", True)):
        write_split(args.out, args.lang, split, [t for t in tasks if held_out(t["path"]) == pick][: args.n])
    return 0


if __name__ == "__main__":
    sys.exit(main())
