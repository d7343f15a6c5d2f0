"""The one file a `bash` command only prints: its output is that file's text, to prune as `read` would.

Agents read files through the shell as often as through `read` (Codex above all): `cat f`,
`sed -n '120,360p' f`, `head -n 300 f`, `tail -n +400 f`, `nl -ba f | sed -n '1,200p'`,
`git show HEAD:f`, or any of them inside `bash -lc '…'`. Pruned as a log, such a file loses what
makes it code (its functions are units, its language has a parser); with the file's name the
engine reads it as code (or as docs, for a `.md`). Only commands whose output is nothing but
lines of that one file, in its order, are recognised: any other command, redirection,
substitution, glob or second file gives None, and the output stays a log.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

# Shell syntax that can make the output something else than the file's lines.
_CONTROL = frozenset({";", ";;", "&", "||", "|&", ">", ">>", "<", "<<", "<<<", "(", ")", ">&", "<&", "&>"})
_SHELLS = frozenset({"bash", "sh", "zsh", "dash"})
_UNSAFE_CHARS = re.compile(r"[`$*?\[\]{}~]")  # substitutions, variables, globs: in a file name
# sed -n's printing scripts: `10,20p`, `5p`, `10,$p`, `10,+5p`, several joined by `;`.
_SED_RANGE = r"\s*(?:\d+|\$)(?:\s*,\s*(?:\d+|\$|\+\d+))?\s*p\s*"
_SED_PRINT = re.compile(rf"{_SED_RANGE}(?:;{_SED_RANGE})*;?\s*")
# head / tail counts: `-n 20` (two words, looked at apart), `-n20`, `-20`, `--lines=20`, tail's `-n +20`.
_COUNT_OPTION = re.compile(r"-\d+|-n\+?\d+|--lines=\+?\d+")


def printed_file(cmd: str) -> str | None:
    """The path `cmd` prints lines of, and nothing else, or None."""
    if "`" in cmd or "$(" in cmd or "\n" in cmd:
        return None
    try:
        lexer = shlex.shlex(cmd, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        tokens = list(lexer)
    except ValueError:  # an unclosed quote
        return None
    if any(t in _CONTROL for t in tokens):
        return None
    if len(tokens) == 3 and tokens[0] in _SHELLS and tokens[1] in ("-c", "-lc"):
        return printed_file(tokens[2])  # `bash -lc "sed -n '1,80p' f"`, as Codex writes its commands
    commands = _split(tokens, "&&")
    while len(commands) > 1 and _is_cd(commands[0]):
        commands = commands[1:]
    if len(commands) != 1:
        return None
    stages = _split(commands[0], "|")
    path = _file_of(stages[0])
    if path is None or not all(_window(stage) for stage in stages[1:]):
        return None
    return path


def _split(tokens: Sequence[str], operator: str) -> list[list[str]]:
    parts: list[list[str]] = [[]]
    for token in tokens:
        if token == operator:
            parts.append([])
        else:
            parts[-1].append(token)
    return parts


def _is_cd(words: Sequence[str]) -> bool:
    return len(words) == 2 and words[0] == "cd"


def _file_of(words: Sequence[str]) -> str | None:
    """The one file a printing command names, if it is one of those recognised."""
    if not words:
        return None
    program, args = words[0], list(words[1:])
    if program == "git":
        return _git_show_path(args)
    operands: list[str] | None
    if program == "cat":
        operands = [a for a in args if a not in ("--", "-n")]  # `cat -n` numbers lines as `nl -ba` does
    elif program == "nl":  # every line numbered (`nl` alone leaves blank lines unnumbered)
        operands = args[1:] if args[:1] == ["-ba"] else args[2:] if args[:2] == ["-b", "a"] else None
    elif program == "sed":
        operands = _without_sed_print(args)
    elif program in ("head", "tail"):
        operands = _without_count(args)
    else:
        return None
    if operands is None or len(operands) != 1 or operands[0].startswith("-"):
        return None
    return _plain_path(operands[0])


def _window(words: Sequence[str]) -> bool:
    """`sed -n 'a,bp'`, `head -n N`, `tail -n N` reading the pipe: they print some of its lines."""
    if not words:
        return False
    if words[0] == "sed":
        return _without_sed_print(words[1:]) == []
    if words[0] in ("head", "tail"):
        return _without_count(words[1:]) == []
    return False


def _without_sed_print(args: Sequence[str]) -> list[str] | None:
    """`sed -n SCRIPT [FILE]` or `sed -n -e SCRIPT [FILE]` with a printing script: the rest."""
    rest = list(args)
    if not rest or rest[0] != "-n":
        return None
    rest = rest[1:]
    if rest and rest[0] == "-e":
        rest = rest[1:]
    if not rest or not _SED_PRINT.fullmatch(rest[0]):
        return None
    return rest[1:]


def _without_count(args: Sequence[str]) -> list[str] | None:
    """`head`/`tail` arguments without their line count (tail's `-f` is no print of a file)."""
    rest = list(args)
    if len(rest) >= 2 and rest[0] == "-n" and re.fullmatch(r"\+?\d+", rest[1]):
        return rest[2:]
    if rest and _COUNT_OPTION.fullmatch(rest[0]):
        return rest[1:]
    if rest and rest[0].startswith("-"):
        return None
    return rest


def _git_show_path(args: Sequence[str]) -> str | None:
    """`git show REV:PATH` (or `git --no-pager show …`): the blob's text."""
    rest = list(args)
    if rest and rest[0] == "--no-pager":
        rest = rest[1:]
    if len(rest) != 2 or rest[0] != "show" or rest[1].startswith("-") or ":" not in rest[1]:
        return None
    return _plain_path(rest[1].split(":", 1)[1])


def _plain_path(word: str) -> str | None:
    if not word or _UNSAFE_CHARS.search(word) or word.endswith("/"):
        return None
    return word
