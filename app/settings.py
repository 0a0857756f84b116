"""Server settings, read from environment variables (pydantic-settings).

``DATABASE_URL`` picks the database (a SQLite file under ``./data`` by default, Postgres via
``postgresql+psycopg://...``); every other setting is ``PHASE10_<NAME>``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite:///./data/phase10.db"


class Settings(BaseSettings):
    """Everything the server reads from its environment."""

    model_config = SettingsConfigDict(env_prefix="PHASE10_", extra="ignore", populate_by_name=True)

    database_url: str = Field(
        default=DEFAULT_DATABASE_URL,
        validation_alias=AliasChoices("DATABASE_URL", "PHASE10_DATABASE_URL", "database_url"),
    )
    # Test-only: fix every game's seed so browser tests are deterministic. Never set it in production.
    fixed_seed: int | None = None
    # "auto": Postgres LISTEN/NOTIFY when the database is Postgres, in-memory otherwise.
    hub_backend: Literal["auto", "memory", "postgres"] = "auto"
    # Decoded game states kept per process (the latest version of each recently active game).
    state_cache_size: int = 2000
    # Store the full state every N commands (and at the end); in between, commands are replayed on load.
    snapshot_every: int = 25
    # Threads for database work from the event loop (socket commands, fan-out reads).
    db_threads: int = 24
    ws_max_message_bytes: int = 16_384
    ws_send_queue: int = 256
    ws_auth_timeout_seconds: float = 10.0
    join_failures_per_table: int = 10
    join_failures_per_address: int = 30
    join_window_seconds: float = 60.0
    # Prefix of invite links; empty means a relative link such as /join/<table>?code=<code>.
    public_base_url: str = ""
    cookie_secure: bool = False
    # Web Push (app/services/push.py). The VAPID private key (PEM or raw base64url); empty: made on first start
    # and kept in the database. The subject is the contact a push service may use (mailto: or https:).
    vapid_private_key: str = ""
    vapid_subject: str = "mailto:admin@phase10.invalid"
    push_timeout_seconds: float = 10.0
    push_ttl_seconds: int = 12 * 60 * 60
    # A turn timer's reminder goes this fraction of the timer before it runs out, at most the cap before.
    push_reminder_fraction: float = 0.25
    push_reminder_max_seconds: float = 3600.0
    # Test-only: accept http:// push endpoints (a receiver on loopback). Browsers' push services are https.
    push_allow_http: bool = False
    log_level: str = "INFO"
    log_json: bool = True

    @property
    def is_postgres(self) -> bool:
        return self.database_url.startswith("postgresql")

    @property
    def use_pg_hub(self) -> bool:
        if self.hub_backend == "auto":
            return self.is_postgres
        return self.hub_backend == "postgres"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings from the environment."""
    return Settings()
