"""Sentences of the log and the replay's step line that read wrong before, in all five languages, made by the real
scripts (``P10.eventText``) from the engine's own events: Master's first discard that goes under the draw pile is
named and the sentence starts with a capital (R-5); the board game's turned joker is named by its face, not as
"joker (face green 2) into a joker" (B-6); one player "chooses", several "choose" (R-11); counts have their
plural form, never "card(s)" or "field(s)" (B-7, B-9)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from app.web import i18n

from .test_event_texts import NAMES, page_for, samples

BRACKETED = re.compile(r"\w\((?:s|n|er|e|en)\)|\w/e\b")


def texts(page: Any, events: list[dict[str, Any]], names: dict[int, str] | None = None) -> list[str]:
    result: list[str] = page.evaluate("([events, names]) => events.map((e) => P10.eventText(e, names))",
                                      [events, {str(k): v for k, v in (names or NAMES).items()}])
    return result


def of_type(rid: str, kind: str) -> list[dict[str, Any]]:
    found = [e for e in samples(rid) if e["type"] == kind]
    assert found, (rid, kind)
    return found


@pytest.mark.e2e
@pytest.mark.parametrize("lang", sorted(i18n.LANGUAGES))
def test_event_sentences_name_their_card_agree_and_count(browser: Any, lang: str) -> None:
    page = page_for(browser, lang)
    catalogue = i18n.catalogue(lang)
    try:
        # the first discard turned up and put under the draw pile is named, and the sentence has a capital
        for event, text in zip(of_type("master", "starter_returned"),
                               texts(page, of_type("master", "starter_returned")), strict=True):
            name = page.evaluate("(e) => P10.cardLabel(e.card || P10.labelledCard(e.card_kind, e.card_label))", event)
            assert name != catalogue["card.hidden"] and name in text, (lang, event, text)
            assert text[0].isupper() or text[0] in "«", (lang, text)
        # B-6: a turned joker is named by its printed face, and "joker" is not said twice
        for event, text in zip(of_type("board", "joker_turned"), texts(page, of_type("board", "joker_turned")),
                               strict=True):
            face = page.evaluate("(c) => P10.t('card.number', {colour: P10.t('colour.' + c.colour), number: c.number})",
                                 event["card"])
            turned = page.evaluate("(face) => P10.t('card.turned', {face})", face)
            assert face in text and turned not in text, (lang, text)
        # one player chooses, several choose
        one, several = texts(page, [{"type": "keep_choices_asked", "seats": [1]},
                                    {"type": "keep_choices_asked", "seats": [0, 1]}], {0: "Anna", 1: "Bot 2"})
        assert one == page.evaluate("(names) => P10.t('ev.keep_asked_one', {names})", "Bot 2"), (lang, one)
        assert several == page.evaluate("(names) => P10.t('ev.keep_asked', {names})", "Anna, Bot 2")
        if lang == "en":
            assert one == "All mine: Bot 2 chooses whether to keep their hand."
            assert several == "All mine: Anna, Bot 2 choose whether to keep their hands."
        # B-7, B-9: counts in their plural form, no "card(s)", "Feld(er)", "carta/e"
        counted = []
        for count in (1, 2, 5):
            counted += [{"type": "cards_swapped", "seat": 0, "count": count, "cards": []},
                        {"type": "marker_moved", "seat": 0, "fields": count},
                        {"type": "cards_kept", "seat": 0, "count": count, "cards": []}]
        said = texts(page, counted)
        for event, text in zip(counted, said, strict=True):
            assert not BRACKETED.search(text), (lang, event, text)
            assert "undefined" not in text and "{" not in text, (lang, text)
        if lang != "ru":  # Russian says "карт: 1", a count after a colon, in one form
            assert said[0].replace("1", "") != said[3].replace("2", ""), (lang, said[0], said[3])
        if lang == "en":
            assert said[0].startswith("Anna swapped 1 card;") and said[3].startswith("Anna swapped 2 cards;")
            assert said[1:3] == ["Anna's marker moved 1 field.", "Anna kept 1 card."]
            assert said[4:6] == ["Anna's marker moved 2 fields.", "Anna kept 2 cards."]
    finally:
        page.close()


@pytest.mark.e2e
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_B8_the_board_series_shows_fields_not_penalty_averages(browser: Any, lang: str) -> None:
    """The series of a board game table: each result is the marker's field and the standings' last column the
    fields gained (``fields``), not an average of penalty points; a card game's keeps its average."""
    page = page_for(browser, lang, ("cards.js", "board.js", "series.js"))
    catalogue = i18n.catalogue(lang)

    def series(ruleset: str) -> dict[str, Any]:
        board = ruleset == "board"
        return {"games": [{"number": 1, "ruleset": ruleset, "status": "finished", "rounds": 4, "replay": "#",
                           "players": [{"seat": 0, "name": "Anna", "score": 7 if board else 45, "winner": True},
                                       {"seat": 1, "name": "Ben", "score": 5 if board else 80, "winner": False}]}],
                "standings": [{"name": "Anna", "games": 1, "games_won": 1, "rounds_won": 3, "phases_made": 4,
                               "average_score": None if board else 11.3, "fields": 7 if board else None},
                              {"name": "Ben", "games": 1, "games_won": 0, "rounds_won": 1, "phases_made": 3,
                               "average_score": None if board else 20.0, "fields": 5 if board else None}]}

    shown = """(data) => { const node = P10.seriesView(data); document.body.replaceChildren(node);
      return {games: node.querySelector('.series-games td').textContent,
              head: [...node.querySelectorAll('.series-standings th[scope=col]')].map((x) => x.textContent),
              last: [...node.querySelectorAll('.series-standings tbody tr')].map((r) => r.lastChild.textContent)}; }"""
    try:
        board = page.evaluate(shown, series("board"))
        cards = page.evaluate(shown, series("mattel"))
    finally:
        page.close()
    field = catalogue["series.field"]
    assert field.replace("{n}", "7") in board["games"] and field.replace("{n}", "5") in board["games"], board
    assert board["head"][-1] == catalogue["series.fields"] and board["last"] == ["7", "5"], board
    assert cards["head"][-1] == catalogue["series.average"] and "45" in cards["games"], cards
    assert field.replace("{n}", "45") not in cards["games"]
