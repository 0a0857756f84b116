"""A device in a few words, from its browser's User-Agent (``ua-parser``): what the old device of a moved seat is
told about the new one ("Pixel 8 · Chrome Mobile"), so its player knows where the seat went."""

from __future__ import annotations

import ua_parser

MAX_LENGTH = 60


def device_name(user_agent: str | None) -> str | None:
    """The device (or, for a computer, its operating system) and the browser; ``None`` when nothing is known."""
    if not user_agent:
        return None
    result = ua_parser.parse(user_agent[:512])
    device = result.device.family if result.device and result.device.family != "Other" else None
    system = result.os.family if result.os and result.os.family != "Other" else None
    browser = result.user_agent.family if result.user_agent and result.user_agent.family != "Other" else None
    parts = [part for part in (device or system, browser) if part]
    return " · ".join(parts)[:MAX_LENGTH] or None
