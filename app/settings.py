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
    # Postgres: connections the event loop writes the usual socket command with (one statement, no worker thread).
    hot_pool_size: int = 4
    ws_max_message_bytes: int = 16_384
    ws_send_queue: int = 256
    ws_auth_timeout_seconds: float = 10.0
    # Failed socket authentications: per connection (then it is closed 4401), and per client address in
    # ``join_window_seconds`` (then sockets from it are refused until the window has passed).
    ws_auth_failures_per_connection: int = 5
    ws_auth_failures_per_address: int = 30
    # Origins (scheme://host[:port]) besides the server's own that may open the table socket from a browser,
    # comma-separated (PHASE10_WS_ALLOWED_ORIGINS=https://a.example,https://b.example).
    ws_allowed_origins: str = ""
    # Every HTTP request body (JSON here is small) is refused past this many bytes: 413 body_too_large;
    # its next piece must arrive within the first many seconds, and the whole body within the second from the
    # start of the request: else 408 request_timeout.
    max_body_bytes: int = 65_536
    # A game record opened in the replay page (POST /api/records) may be this large, and one client address
    # may open this many an hour (each is replayed through the engine and kept as a replay-only table).
    max_record_bytes: int = 1_000_000  # the bundled proxy lets 1 MB through (deploy/Caddyfile)
    record_uploads_per_hour: int = 30
    http_body_timeout_seconds: float = 30.0
    http_body_total_seconds: float = 5.0
    # Slow clients (``python -m app.serve``): request line and headers within this many seconds; at most
    # this many connections and running requests; idle keep-alive connections closed after this many
    # seconds; websocket frames refused past this many bytes by the protocol layer.
    http_header_timeout_seconds: float = 10.0
    http_limit_concurrency: int = 4096
    # One client address may hold at most this many connections (direct peers, ``app.serve``) and running requests
    # and sockets (its address as the trusted proxy names it, ``app.api.middleware.AddressLimit``).
    http_limit_per_address: int = 256
    http_keep_alive_seconds: int = 5
    ws_max_frame_bytes: int = 65_536
    # Application heartbeat (docs/protocol.md): this often the server pings every socket it has not heard from (a
    # pong, a ping, anything) for as long, and drops one silent for ws_idle_timeout_seconds; 0 turns either off.
    ws_heartbeat_seconds: float = 4.0
    ws_idle_timeout_seconds: float = 10.0
    # The cyclic garbage collector (app/gc_policy.py): every this many seconds the objects frozen out of its
    # sight are examined once (one full collection frees reference cycles among them); 0: never.
    gc_sweep_seconds: float = 600.0
    join_failures_per_table: int = 10
    join_failures_per_address: int = 30
    join_window_seconds: float = 60.0
    # Prefix of every link the server builds (invites, seat moves; e.g. https://phase10.example.org); empty: the
    # origin of the page that asked (its Origin header), else a relative link. Never the Host header.
    public_base_url: str = ""
    # Seat cookies are Secure whenever the request came over HTTPS; this forces it for every request.
    cookie_secure: bool = False
    # How long a one-time link that moves a seat to another device stays valid.
    seat_transfer_minutes: float = 15.0
    # Web Push (app/services/push.py). The VAPID private key (PEM or raw base64url); empty: made on first start
    # and kept in the database. The subject is the contact a push service may use (mailto: or https:).
    vapid_private_key: str = ""
    vapid_subject: str = "mailto:admin@phase10.invalid"
    # A push's connection must be made within the first, each read of its answer within the second.
    push_connect_timeout_seconds: float = 3.0
    push_timeout_seconds: float = 5.0
    # Push services trusted as they are (app/services/push_endpoints.py): names, or "*." and a domain,
    # comma-separated. An endpoint on another host is accepted only if it resolves to public addresses only.
    push_service_hosts: str = ("fcm.googleapis.com,updates.push.services.mozilla.com,*.push.apple.com,"
                               "*.notify.windows.com")
    push_ttl_seconds: int = 12 * 60 * 60
    # A turn timer's reminder goes this fraction of the timer before it runs out, at most the cap before.
    push_reminder_fraction: float = 0.25
    push_reminder_max_seconds: float = 3600.0
    # Test-only: accept http:// push endpoints at a loopback address (the tests' receiver). Never set it in
    # production: browsers' push services are https on public addresses.
    push_allow_http: bool = False
    log_level: str = "INFO"
    log_json: bool = True
    # /metrics (Prometheus text format) is served only to these client addresses or networks (comma-separated,
    # e.g. "127.0.0.1,10.0.0.0/8") or to a request with "Authorization: Bearer <metrics_token>"; both empty
    # (the default): to nobody.
    metrics_allow: str = ""
    metrics_token: str = ""
    # Retention (``app.services.retention``; 0 keeps forever): tables whose game never started, after this many
    # days since they were made; running games nobody played for this many days (the whole table goes);
    # finished games (with their replays), this many days after they ended. Checked every
    # ``prune_every_hours`` by each server process (0: only by ``python -m app.admin prune``).
    retention_unstarted_days: float = 30.0
    retention_idle_days: float = 90.0
    retention_finished_days: float = 730.0
    prune_every_hours: float = 6.0

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
