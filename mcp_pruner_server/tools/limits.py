"""Argument limits (docs/tools.md#argument-rules), shared by the schemas and the validator."""

from typing import Final

FOCUS_QUESTION_MAX_CHARS: Final = 1000  # contract: a question, not a document
MAX_OUTPUT_BYTES_MIN: Final = 1024  # contract lower bound: less is useless to an agent
MAX_OUTPUT_BYTES_MAX: Final = 10 * 1024 * 1024  # contract upper bound (10 MiB)
READ_MAX_OUTPUT_BYTES_DEFAULT: Final = 1024 * 1024  # a whole source file, not a whole dataset
BASH_MAX_OUTPUT_BYTES_DEFAULT: Final = 1024 * 1024  # a long test run's log
GREP_MAX_OUTPUT_BYTES_DEFAULT: Final = 1024 * 1024  # 5000 matches of ~200 bytes
TIMEOUT_MS_MIN: Final = 100  # contract: below this a spawn alone can time out
TIMEOUT_MS_MAX: Final = 300_000  # contract: 5 minutes, the longest an agent should block
TIMEOUT_MS_DEFAULT: Final = 30_000  # contract default
BASH_CMD_MAX_CHARS: Final = 50_000  # contract
ENV_KEY_PATTERN: Final = r"^[A-Z_][A-Z0-9_]*$"  # contract: plain upper-case names only
ENV_VALUE_MAX_CHARS: Final = 4000  # contract
ENV_MAX_ENTRIES: Final = 200  # contract
GREP_PATTERN_MAX_CHARS: Final = 10_000  # contract
GREP_PATHS_MAX: Final = 100  # contract
MAX_MATCHES_MAX: Final = 5000  # contract
MAX_MATCHES_DEFAULT: Final = 500  # contract
CONTEXT_LINES_MAX: Final = 20  # (+) beyond this, read the file instead
