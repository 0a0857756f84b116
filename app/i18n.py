"""Interface text in the languages of the original rulebooks (en, de, fr, it, ru).

Catalogues are flat JSON files in ``app/web/locales/``: ``key -> text`` with ``{name}`` placeholders. The
page picks a language from the ``lang`` cookie (set by the switcher), else from ``Accept-Language``, else
English; a key missing from a catalogue falls back to English so a page never shows a bare key.

The lookup sits below the services (docs/architecture.md, "Layers"): the pages use it through ``app.web.i18n``,
and the push service writes a seat's notification in its language with it.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch", "fr": "Français", "it": "Italiano", "ru": "Русский"}
DEFAULT = "en"
_DIR = Path(__file__).parent / "web" / "locales"


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The full catalogue of ``lang`` (English filled in for missing keys)."""
    base: dict[str, str] = json.loads((_DIR / "en.json").read_text(encoding="utf-8"))
    if lang == DEFAULT or lang not in LANGUAGES:
        return base
    path = _DIR / f"{lang}.json"
    own: dict[str, str] = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    # An English plural form ("key#one") must not win over the language's own text of "key": the page picks
    # the form by the page's language (Intl.PluralRules), and "61 card" is no Russian.
    english = {key: text for key, text in base.items() if "#" not in key or key.split("#")[0] not in own}
    return english | own


def negotiate(cookie: str | None, accept_language: str | None) -> str:
    """The language to serve: the cookie if valid, else the best ``Accept-Language`` match, else English."""
    if cookie in LANGUAGES:
        return cookie
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept_language or "").split(",")):
        piece = part.strip()
        if not piece:
            continue
        tag, _, params = piece.partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        primary = tag.strip().lower().split("-")[0]
        if primary in LANGUAGES and quality > 0:
            ranked.append((-quality, index, primary))
    return min(ranked)[2] if ranked else DEFAULT


def translate(lang: str, key: str, **params: object) -> str:
    """The text of ``key`` in ``lang`` with ``{name}`` placeholders filled."""
    text = catalogue(lang).get(key, key)
    for name, value in params.items():
        text = text.replace("{" + name + "}", str(value))
    return text
