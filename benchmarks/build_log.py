"""A synthetic build/test log of N lines whose failure is on its last lines (benchmarks, tests).

Lines look like a CI job's: timestamps, levels, module names, request ids, numbers; a few
warnings spread through; the payment-webhook failure the question asks about at the very end.
Deterministic for a given N (no randomness: the line number drives every variation).
"""

from __future__ import annotations

import sys

QUESTION = "Why did the payment webhook fail?"
FAILURE_LINE = (
    "ERROR payment.webhook: delivery failed: HTTP 502 from https://hooks.example.test/pay"
    " (order 9f3c, attempt 5/5)"
)
# Words cycled through the filler lines, so the vocabulary looks like a real log's.
_MODULES = (
    "build.compile",
    "deps.resolve",
    "cache.store",
    "tests.runner",
    "net.http",
    "db.migrate",
    "assets.bundle",
)
_VERBS = ("compiled", "resolved", "stored", "ran", "fetched", "applied", "bundled", "checked", "linked")
_NOUNS = ("module", "package", "artifact", "suite", "chunk", "migration", "layer", "target", "fixture")


def line(i: int) -> str:
    """Filler line `i` (0-based): ~75 bytes, like a CI log line."""
    module = _MODULES[i % len(_MODULES)]
    verb = _VERBS[(i // 7) % len(_VERBS)]
    noun = _NOUNS[(i // 3) % len(_NOUNS)]
    level = "WARN " if i % 997 == 0 else "INFO "
    stamp = f"2026-11-23T10:{(i // 60) % 60:02d}:{i % 60:02d}.{i % 1000:03d}Z"
    return f"{stamp} {level}{module}: {verb} {noun} #{i} in {i % 89} ms"


def build_log(lines: int) -> str:
    """`lines` lines (newline-terminated), the last ones a failure with its traceback."""
    tail = [
        "Traceback (most recent call last):",
        '  File "/srv/app/payments/webhook.py", line 88, in deliver',
        "    response.raise_for_status()",
        "httpx.HTTPStatusError: Server error '502 Bad Gateway' for url 'https://hooks.example.test/pay'",
        FAILURE_LINE,
    ]
    body = [line(i) for i in range(max(0, lines - len(tail)))]
    return "\n".join([*body, *tail][-lines:]) + "\n"


if __name__ == "__main__":
    sys.stdout.write(build_log(int(sys.argv[1]) if len(sys.argv) > 1 else 120_000))
