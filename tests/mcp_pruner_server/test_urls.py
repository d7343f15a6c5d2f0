import pytest

from mcp_pruner_server.urls import http_url


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("  https://api.example.com/v1  ", "https://api.example.com/v1"),
        ("http://[::1]:8080/rpc", "http://[::1]:8080/rpc"),
        ("ftp://example.com/", None),
        ("http:///no-host", None),
        ("http://[::1/unbalanced", None),
        ("", None),
        (42, None),
    ],
)
def test_only_an_http_or_https_url_with_a_host_is_a_url(raw: object, expected: str | None) -> None:
    assert http_url(raw) == expected
