"""A read of the command path is defined once (``app.persistence.reads.Read``): its Postgres text, run by psycopg
and asyncpg alike, is compiled from the one Core statement SQLite runs."""

from __future__ import annotations

from typing import cast

from sqlalchemy import Table, bindparam, or_, select

from app.persistence.models import Seat
from app.persistence.reads import Read
from app.services.repo import LATEST_GAME_AND_COMMAND, SEAT_OF_TOKEN

_SEATS = cast(Table, Seat.__table__)


def test_a_reads_postgres_text_numbers_its_parameters() -> None:
    assert "%(" not in LATEST_GAME_AND_COMMAND.sql
    assert LATEST_GAME_AND_COMMAND.names == ("command_id", "table_id", "param_1")
    assert LATEST_GAME_AND_COMMAND.sql.rstrip().endswith("LIMIT $3::INTEGER")
    assert LATEST_GAME_AND_COMMAND._args({"table_id": "t", "command_id": "c"}) == ("c", "t", 1)
    assert SEAT_OF_TOKEN._args({"table_id": "t", "token_hash": "h"}) == ("h", "t")


def test_a_parameter_used_twice_keeps_one_number() -> None:
    read = Read(select(_SEATS.c.id).where(or_(_SEATS.c.name == bindparam("x"), _SEATS.c.table_id == bindparam("x"))))
    assert read.names == ("x",) and read.sql.count("$1") == 2 and "$2" not in read.sql
