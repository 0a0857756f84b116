"""A read of the command path, defined once as a SQLAlchemy Core statement and run by whichever driver the caller
holds.

* SQLite: the Core statement on the session's connection.
* Postgres, a worker thread's session: the statement's one Postgres text (compiled once, Postgres's own ``$1``
  parameters) on the session's own psycopg connection (a ``RawCursor``, in the session's transaction):
  SQLAlchemy's per-statement overhead was the largest part of a command's CPU.
* Postgres, the event loop: the same text on one of the loop's asyncpg connections (``app.persistence.hot``).

So there is one definition of each read and no driver-specific copy of its SQL to keep in step.
"""

from __future__ import annotations

import re
from typing import Any

import psycopg
from psycopg.rows import namedtuple_row
from sqlalchemy.dialects.postgresql import psycopg as pg_psycopg
from sqlalchemy.orm import Session
from sqlalchemy.sql import Select

_PYFORMAT = re.compile(r"%\((\w+)\)s")


def pg_cursor(s: Session) -> Any:
    """A psycopg cursor on ``s``'s connection (inside its transaction) for Postgres's own ``$1`` parameters, rows as
    named tuples."""
    dbapi: Any = s.connection().connection.dbapi_connection
    return psycopg.RawCursor(dbapi, row_factory=namedtuple_row)


class Read:
    """One query: ``first(s, params)`` in a session (either dialect), ``first_on(conn, params)`` on an asyncpg
    connection. ``params`` name the statement's ``bindparam``s."""

    def __init__(self, statement: Select[Any]) -> None:
        self.statement = statement
        compiled = statement.compile(dialect=pg_psycopg.dialect())  # type: ignore[no-untyped-call]
        names: list[str] = []

        def number(match: re.Match[str]) -> str:
            if match.group(1) not in names:
                names.append(match.group(1))
            return f"${names.index(match.group(1)) + 1}"

        # The statement's own literals (its ``LIMIT 1``) become parameters with their values.
        self.sql = _PYFORMAT.sub(number, compiled.string)
        self.names = tuple(names)
        self.defaults = {name: value for name, value in compiled.params.items() if value is not None}

    def _args(self, params: dict[str, Any]) -> tuple[Any, ...]:
        merged = self.defaults | params
        return tuple(merged[name] for name in self.names)

    def first(self, s: Session, params: dict[str, Any]) -> Any:
        """The first row (``None``: none), its columns by name."""
        dialect = s.get_bind().dialect
        if dialect.name == "postgresql" and dialect.driver == "psycopg":
            cursor = pg_cursor(s)
            cursor.execute(self.sql, self._args(params))
            return cursor.fetchone()
        return s.connection().execute(self.statement, params).first()

    async def first_on(self, conn: Any, params: dict[str, Any]) -> Any:
        """The first row on an asyncpg connection (a ``Record``: columns by index and by name)."""
        return await conn.fetchrow(self.sql, *self._args(params))
