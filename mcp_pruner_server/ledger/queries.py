"""What `jeeves gain` and `jeeves show` read from the ledger: plain SQL over `calls`, one function
per question, each returning plain dataclasses (the CLI renders them as text, JSON or HTML).

"Saved" is `raw_tokens - sent_tokens`: what the model would have read unpruned minus what it
read. The recover rate is the share of pruned calls whose `prune_id` a later `recover_text`
asked for; the re-read rate the share of file/command/search calls that asked for the same
target again within the session's window (`LedgerConfig.reread_window`).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass
from typing import Final

RECOVER_TOOLS: Final = ("recover_text", "recover_range")


@dataclass(frozen=True)
class Scope:
    """Which rows a query looks at: since a time, and/or one session."""

    since: float | None = None
    session: str | None = None

    def where(self) -> tuple[str, tuple[object, ...]]:
        clauses: list[str] = []
        params: list[object] = []
        if self.since is not None:
            clauses.append("ts >= ?")
            params.append(self.since)
        if self.session is not None:
            clauses.append("session = ?")
            params.append(self.session)
        return (" WHERE " + " AND ".join(clauses)) if clauses else "", tuple(params)


@dataclass(frozen=True)
class Totals:
    """Counts and tokens over a scope."""

    calls: int
    pruned: int
    fallbacks: int
    raw_tokens: int
    sent_tokens: int
    recover_calls: int
    recovered: int  # pruned calls a recover_text came back for
    rereads: int
    targeted: int  # calls on a file, command or search (those that can be re-reads)

    @property
    def saved_tokens(self) -> int:
        return self.raw_tokens - self.sent_tokens

    @property
    def saved_ratio(self) -> float:
        return self.saved_tokens / self.raw_tokens if self.raw_tokens else 0.0

    @property
    def recover_rate(self) -> float:
        return self.recovered / self.pruned if self.pruned else 0.0

    @property
    def reread_rate(self) -> float:
        return self.rereads / self.targeted if self.targeted else 0.0

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = asdict(self)
        out.update(
            saved_tokens=self.saved_tokens,
            saved_ratio=round(self.saved_ratio, 4),
            recover_rate=round(self.recover_rate, 4),
            reread_rate=round(self.reread_rate, 4),
        )
        return out


_TOTALS_SQL: Final = f"""
SELECT count(*), coalesce(sum(outcome = 'pruned'), 0), coalesce(sum(outcome = 'fallback'), 0),
       coalesce(sum(raw_tokens), 0), coalesce(sum(sent_tokens), 0),
       coalesce(sum(tool IN {RECOVER_TOOLS}), 0), count(DISTINCT recovers),
       coalesce(sum(reread), 0), coalesce(sum(target IS NOT NULL), 0)
FROM calls"""


def totals(conn: sqlite3.Connection, scope: Scope) -> Totals:
    where, params = scope.where()
    row = conn.execute(_TOTALS_SQL + where, params).fetchone()
    return Totals(*(int(v) for v in row))


@dataclass(frozen=True)
class Group:
    """One line of a breakdown (per project, agent, tool, target or day)."""

    key: str
    calls: int
    raw_tokens: int
    sent_tokens: int

    @property
    def saved_tokens(self) -> int:
        return self.raw_tokens - self.sent_tokens

    def to_dict(self) -> dict[str, object]:
        return {**asdict(self), "saved_tokens": self.saved_tokens}


# The columns a breakdown may group by (never a user-given string in SQL).
GROUP_COLUMNS: Final = {
    "project": "project",
    "agent": "coalesce(agent, '(unknown)')",
    "tool": "tool",
    "session": "session",
}


def breakdown(conn: sqlite3.Connection, by: str, scope: Scope, limit: int = 20) -> list[Group]:
    """Calls and tokens per `by` (a `GROUP_COLUMNS` key), most tokens saved first."""
    column = GROUP_COLUMNS[by]
    where, params = scope.where()
    sql = (
        f"SELECT {column} AS k, count(*), coalesce(sum(raw_tokens), 0), coalesce(sum(sent_tokens), 0) "
        f"FROM calls{where} GROUP BY k ORDER BY sum(raw_tokens) - sum(sent_tokens) DESC, k LIMIT ?"
    )
    return [Group(str(k), int(c), int(r), int(s)) for k, c, r, s in conn.execute(sql, (*params, limit))]


def top_targets(conn: sqlite3.Connection, kind: str, scope: Scope, limit: int = 10) -> list[Group]:
    """The files ("file") or commands ("command") that saved the most tokens."""
    where, params = scope.where()
    where = (where + " AND" if where else " WHERE") + " target_kind = ?"
    sql = (
        "SELECT target, count(*), sum(raw_tokens), sum(sent_tokens) "
        f"FROM calls{where} GROUP BY target HAVING sum(raw_tokens) > sum(sent_tokens) "
        "ORDER BY sum(raw_tokens) - sum(sent_tokens) DESC, target LIMIT ?"
    )
    rows = conn.execute(sql, (*params, kind, limit))
    return [Group(str(t), int(c), int(r), int(s)) for t, c, r, s in rows]


def daily(conn: sqlite3.Connection, since: float) -> list[Group]:
    """Per local day since `since`: calls and tokens (days without calls are absent)."""
    sql = (
        "SELECT date(ts, 'unixepoch', 'localtime') AS d, count(*), sum(raw_tokens), sum(sent_tokens) "
        "FROM calls WHERE ts >= ? GROUP BY d ORDER BY d"
    )
    return [Group(str(d), int(c), int(r), int(s)) for d, c, r, s in conn.execute(sql, (since,))]


@dataclass(frozen=True)
class CallRow:
    """One call as `jeeves gain --session` and `jeeves show` print it."""

    id: int
    ts: float
    session: str
    project: str
    agent: str | None
    tool: str
    outcome: str
    reason: str | None
    question: str | None
    target: str | None
    target_kind: str | None
    raw_tokens: int
    sent_tokens: int
    latency_ms: float
    prune_id: str | None
    prune_ids: str | None
    recovers: int | None
    reread: bool
    removed: list[dict[str, object]]

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


_ROW_SQL: Final = (
    "SELECT id, ts, session, project, agent, tool, outcome, reason, question, target, target_kind, "
    "raw_tokens, sent_tokens, latency_ms, prune_id, prune_ids, recovers, reread, removed FROM calls"
)


def _call_row(row: sqlite3.Row | tuple[object, ...]) -> CallRow:
    values = list(row)
    removed = values[-1]
    values[-1] = json.loads(removed) if isinstance(removed, str) else []
    values[-2] = bool(values[-2])
    return CallRow(*values)  # the columns are _ROW_SQL's, in order


def session_calls(conn: sqlite3.Connection, session: str) -> list[CallRow]:
    """Every call of one session, in order."""
    return [_call_row(r) for r in conn.execute(_ROW_SQL + " WHERE session = ? ORDER BY id", (session,))]


def last_session(conn: sqlite3.Connection) -> str | None:
    """The session of the latest call."""
    row = conn.execute("SELECT session FROM calls ORDER BY ts DESC, id DESC LIMIT 1").fetchone()
    return None if row is None else str(row[0])


def call_by_prune_id(conn: sqlite3.Connection, prune_id: str) -> CallRow | None:
    """The pruned call that produced `prune_id` (bash: its stdout's or its stderr's id)."""
    matches = "(prune_id = ? OR ' ' || prune_ids || ' ' LIKE ?)"
    sql = _ROW_SQL + f" WHERE tool NOT IN {RECOVER_TOOLS} AND {matches}"
    row = conn.execute(sql + " ORDER BY id DESC LIMIT 1", (prune_id, f"% {prune_id} %")).fetchone()
    return None if row is None else _call_row(row)
