"""URL checks shared by the config loaders (`pruning_config`, `gateway/config`)."""

from __future__ import annotations

from urllib.parse import urlsplit


def http_url(raw: object) -> str | None:
    """`raw` stripped when it is an http:// or https:// URL with a host, else None."""
    value = raw.strip() if isinstance(raw, str) else ""
    try:
        parts = urlsplit(value)
        valid = parts.scheme in ("http", "https") and bool(parts.hostname)
    except ValueError:  # e.g. an unbalanced "[" in the host
        valid = False
    return value if valid else None
