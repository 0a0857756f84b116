"""The bot levels are listed once: ``app.bots.BotLevel`` (the type the API and the settings check) and ``LEVELS``
(each level's decision function) name the same levels in the same order, and every check uses them."""

from __future__ import annotations

from typing import get_args

import pytest

from app.autoplay.settings import BotSettings
from app.autoplay.timers import TIMER_MODES, TimerMode
from app.bots import LEVELS, BotLevel


def test_the_level_type_and_the_functions_name_the_same_levels() -> None:
    assert get_args(BotLevel) == tuple(LEVELS) == ("easy", "normal", "hard")


def test_the_timer_modes_are_the_timer_type() -> None:
    assert get_args(TimerMode) == TIMER_MODES and TIMER_MODES[0] == "off"


def test_a_stand_in_level_outside_the_levels_is_refused() -> None:
    assert BotSettings(stand_in_level="hard").stand_in_level == "hard"
    with pytest.raises(ValueError):
        BotSettings(stand_in_level="expert")  # type: ignore[arg-type]
