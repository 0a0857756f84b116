"""Interface text: five complete catalogues, placeholders kept, language negotiation."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.web import i18n

LOCALES = Path(i18n.__file__).parent / "locales"
ENGLISH = json.loads((LOCALES / "en.json").read_text(encoding="utf-8"))


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


PLURAL_FORMS = {"zero", "one", "two", "few", "many", "other"}  # the CLDR plural categories


def plain(catalogue: dict[str, str]) -> set[str]:
    return {key for key in catalogue if "#" not in key}


@pytest.mark.parametrize("lang", ["de", "fr", "it", "ru"])
def test_every_language_has_every_key_with_the_same_placeholders(lang: str) -> None:
    own = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
    assert plain(own) == plain(ENGLISH)
    for key, text in ENGLISH.items():
        if "#" not in key:
            assert placeholders(own[key]) == placeholders(text), (lang, key)
            assert own[key].strip(), (lang, key)


@pytest.mark.parametrize("lang", ["en", "de", "fr", "it", "ru"])
def test_plural_forms_belong_to_a_key_with_a_count(lang: str) -> None:
    """A plural form ``key#one`` (chosen by the page with Intl.PluralRules) only refines a key that exists and
    counts ``{n}``, with the same placeholders."""
    own = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
    for key, text in own.items():
        if "#" in key:
            base, form = key.split("#")
            assert form in PLURAL_FORMS and base in own, (lang, key)
            assert "n" in placeholders(own[base]) and placeholders(text) == placeholders(own[base]), (lang, key)


def test_russian_move_texts_name_cards_needing_no_declension() -> None:
    """A card's Russian label is nominative ("жёлтая 4"): in a move's text it stands after a colon or in
    «quotes» after the word "карту" ("сбрасывает карту «жёлтая 4»"), never where its case would have to change
    ("сбрасывает жёлтая 4"). A player is named before a verb in the present tense, which has no gender ("берёт")."""
    russian = json.loads((LOCALES / "ru.json").read_text(encoding="utf-8"))
    moves = {key: text for key, text in russian.items() if key.startswith(("ev.", "notice.did."))}
    assert len(moves) > 30
    for key, text in moves.items():
        for found in re.finditer(r"\{cards?\}", text):
            before, after = text[:found.start()], text[found.end():]
            assert before.endswith((": ", "«")) or before == "", (key, text)
            assert not before.endswith("«") or after.startswith("»"), (key, text)
        if key.startswith("ev.") and text.startswith("{name} "):
            verb = text.split()[1]
            assert not re.fullmatch(r"\w+л", verb), (key, text)  # "взял": a past tense with a gender


def test_every_key_the_pages_use_exists() -> None:
    root = Path(__file__).resolve().parents[2]
    used: set[str] = set()
    for path in [*root.glob("static/js/**/*.js"), *root.glob("templates/*.html")]:
        used |= set(re.findall(r"""\bt\(\s*["']([a-z0-9_]+(?:\.[a-z0-9_]+)+)["']""", path.read_text()))
    assert used, "no keys found"
    assert sorted(used - set(ENGLISH)) == []


@pytest.mark.parametrize(("cookie", "header", "expected"), [
    (None, None, "en"),
    (None, "de-DE,de;q=0.9,en;q=0.8", "de"),
    (None, "en;q=0.5,ru;q=0.9", "ru"),
    (None, "en-US,ru;q=0.9", "en"),
    (None, "es-ES,it;q=0.4", "it"),
    (None, "es-ES,pt;q=0.4", "en"),
    (None, "fr;q=0", "en"),
    ("fr", "de-DE", "fr"),
    ("xx", "it", "it"),
])
def test_negotiate_prefers_the_cookie_then_the_best_accepted(cookie: str | None, header: str | None,
                                                                      expected: str) -> None:
    assert i18n.negotiate(cookie, header) == expected


def test_translate_fills_placeholders_and_falls_back_to_english() -> None:
    assert i18n.translate("de", "table.round", n=3) == "Runde 3"
    assert i18n.translate("en", "no.such.key") == "no.such.key"
    assert i18n.catalogue("xx") == ENGLISH


def test_a_translated_language_gets_no_english_plural_forms() -> None:
    """Russian has its own "table.cards" and no plural forms of it: the page must not pick the English
    "{n} card" for 61 (Intl.PluralRules("ru") calls 61 "one")."""
    ru = i18n.catalogue("ru")
    assert ru["table.cards"] == "карт: {n}"
    assert not [key for key in ru if key.startswith("table.cards#")]
    assert i18n.catalogue("en")["table.cards#one"] == "{n} card"
