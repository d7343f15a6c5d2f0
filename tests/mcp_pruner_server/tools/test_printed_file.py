import pytest

from mcp_pruner_server.tools.printed_file import printed_file


@pytest.mark.parametrize(
    ("cmd", "path"),
    [
        ("cat src/shop.py", "src/shop.py"),
        ("cat -- src/shop.py", "src/shop.py"),
        ("sed -n '120,360p' src/shop.py", "src/shop.py"),
        ("sed -n 1,$p main.go", "main.go"),
        ("sed -n -e '1,20p;40,+10p' lib/a.ts", "lib/a.ts"),
        ("head -n 300 main.go", "main.go"),
        ("head -300 main.go", "main.go"),
        ("tail -n +400 src/lib.rs", "src/lib.rs"),
        ("tail --lines=50 src/lib.rs", "src/lib.rs"),
        ("nl -ba src/shop.py | sed -n '120,360p'", "src/shop.py"),
        ("cat -n net.c | head -n 200", "net.c"),
        ("git show HEAD~2:src/shop.py", "src/shop.py"),
        ("git --no-pager show main:README.md", "README.md"),
        ("cd repo && cd src && sed -n '1,80p' shop.py", "shop.py"),
        ('cat "my shop.py"', "my shop.py"),
        ("bash -lc \"sed -n '1,80p' src/shop.py\"", "src/shop.py"),  # Codex's own shape
        ("sh -c 'cat shop.py'", "shop.py"),
    ],
)
def test_a_command_that_only_prints_one_file_names_it(cmd: str, path: str) -> None:
    assert printed_file(cmd) == path


@pytest.mark.parametrize(
    "cmd",
    [
        "cat a.py b.py",  # two files
        "cat *.py",  # a glob
        "cat $FILE",  # a variable
        "cat $(git ls-files | head -1)",  # a substitution
        "cat `which tool`",
        "cat a.py > b.py",  # a redirection prints nothing
        "cat a.py; rm -rf build",  # a second command
        "cat a.py && make test",
        "cat a.py | grep def",  # a filter that is no window of lines
        "nl a.py",  # blank lines unnumbered
        "head -c 100 a.py",  # bytes, not lines
        "tail -f app.log",
        "sed -i 's/a/b/' a.py",
        "sed -n '/def /p' a.py",  # the lines a pattern picks
        "git show HEAD",  # a commit: a diff
        "grep -n def a.py",
        "cat 'unclosed",
        "cat a.py\nrm x",
        "bash -lc 'cat a.py; rm x'",
        "bash -x -c 'cat a.py'",
        "",
    ],
)
def test_any_other_command_names_no_file(cmd: str) -> None:
    assert printed_file(cmd) is None
