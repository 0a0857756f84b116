"""Bot runner settings from the environment (``PHASE10_BOT_<NAME>``)."""

from __future__ import annotations

from pydantic_settings import BaseSettings, SettingsConfigDict

from app.bots import BotLevel


class BotSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="PHASE10_BOT_", extra="ignore")

    # Pause before a bot (or a stand-in) moves, so that humans can follow.
    delay_seconds: float = 1.0
    # turn_timer lengths.
    relaxed_seconds: float = 120.0
    fast_seconds: float = 30.0
    # How long a seated player may be disconnected before a stand-in bot plays for them.
    stand_in_grace_seconds: float = 30.0
    # The level of the stand-in bot: easy, normal or hard.
    stand_in_level: BotLevel = "normal"
    # How often tables with stand-ins enabled are re-checked for disconnected players.
    tick_seconds: float = 1.0
    # A table's duties (bot, stand-in and timer decisions, push reminders) stay with one process this long after
    # its last renewal (three per lease, at most one per tick): a process killed without handing over is taken
    # over within about 1.3 times this.
    lease_seconds: float = 5.0
