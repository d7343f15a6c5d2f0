import pytest

from mcp_pruner_server.pruning.terminal import as_shown


def _shown(text: str) -> list[str] | None:
    return as_shown(text, text.split("\n"))


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ("\x1b[1m\x1b[31merror\x1b[0m: mismatched types", "error: mismatched types"),  # cargo
        ("\x1b[31mE       assert 1 == 2\x1b[0m", "E       assert 1 == 2"),  # pytest --color=yes
        ("\x1b[2K\x1b[1G  Compiling serde v1.0", "  Compiling serde v1.0"),  # line erase, cursor move
        ("\x1b]8;;https://x.dev\x07link\x1b]8;;\x07 text", "link text"),  # an OSC 8 hyperlink
        ("Downloading  10%\rDownloading  55%\rDownloading 100%", "Downloading 100%"),  # a redrawn bar
        ("50%\r\r100%\r", "100%"),  # and a CRLF line end
    ],
)
def test_a_line_reads_as_the_terminal_shows_it(given: str, shown: str) -> None:
    assert _shown(f"first\n{given}\nlast") == ["first", shown, "last"]


@pytest.mark.parametrize("text", ["plain\nlines", "crlf line\r\nnext\r\n", "tab\tand % signs [1m"])
def test_a_text_that_shows_as_it_is_is_left_alone(text: str) -> None:
    assert _shown(text) is None
