"""Alembic environment: the URL comes from the caller's config or from DATABASE_URL (app.settings)."""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context
from sqlalchemy import create_engine, pool

# Every model module (the same Base): ``alembic check`` compares the whole schema with them.
import app.analysis.models  # noqa: F401  (game_analysis: the stored analysis of finished games)
import app.autoplay.models  # noqa: F401  (bot_seat, table_clock, duty_lease: the same Base, kept with the bots' runtime)
import app.persistence.push  # noqa: F401  (push_key and push_subscription: Web Push)
import app.services.models  # noqa: F401  (rematch offers and seat transfers: the same Base)
from app.persistence.models import Base
from app.settings import Settings

config = context.config
if config.config_file_name is not None and not config.attributes.get("skip_logging"):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def _url() -> str:
    url = config.get_main_option("sqlalchemy.url")
    return url or Settings().database_url


def run_migrations_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    url = _url()
    if url.startswith("sqlite"):
        from app.persistence.db import _sqlite_engine

        engine = _sqlite_engine(url, immediate=False)
    else:
        engine = create_engine(url, poolclass=pool.NullPool)
    with engine.connect() as connection:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
