"""The words of the five catalogues, read as a player would:

- a laid set is named by its number ("set of 7s"), never in the words the phases use for a set's size ("set of
  7", "набор из 7", "gruppo di 7"), for every number 1–12 and a set of jokers only;
- no sentence gives a player a gender they never gave (Russian past tenses after a name, "вышел(а)", Italian
  "è uscito", French "est sorti", "prévenu");
- one word per concept in each language (Mattel's penalty points and Master's minus points, R-12, are two
  concepts; a round is not a hand);
- counts go through the plural forms the page picks with Intl.PluralRules (``key#one``, ``#few``, ``#many``),
  never "card(s)", "Karte(n)", "carta/e";
- the help page behind the invite's loopback warning speaks the page's language.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from app.web import i18n

LOCALES = Path(i18n.__file__).parent / "locales"
LANGS = ("en", "de", "fr", "it", "ru")
CAT = {lang: json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8")) for lang in LANGS}
EN = CAT["en"]


def fill(text: str, **params: object) -> str:
    for name, value in params.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def set_label(lang: str, number: int) -> str:
    """What static/js/cards.js P10.groupLabel says for a set of ``number``: its own key, else the general one."""
    own = CAT[lang]
    return fill(own.get(f"group.set.{number}", own["group.set"]), number=number)


@pytest.mark.parametrize("lang", LANGS)
def test_a_set_is_named_by_its_number_not_by_its_size(lang: str) -> None:
    own = CAT[lang]
    labels = [set_label(lang, n) for n in range(1, 13)]
    assert len(set(labels)) == 12, labels
    for number, label in enumerate(labels, start=1):
        assert str(number) in label or lang == "ru", label
        # the phase's words for a set of this size, without the count ("set of 7", "набор из 7")
        size = fill(own["phase.one.set"], size=number).removeprefix("1 ").strip()
        words = size.split(" uguali")[0]  # Italian: "gruppo di 7 uguali"
        assert not re.search(rf"(?<!\w){re.escape(words)}(?!\w)", label), (lang, label, size)
    assert own["group.set_jokers"].strip() and own["group.set_jokers"] not in labels


# Forms that give a player a gender: Russian past tenses (and their hedges "взял(а)") in sentences about a
# player; Italian and French participles of "to go out", "to come back", "to be told".
RU_PAST = re.compile(r"(?<![а-яё])[а-яё]*[аеиоуыяёю]л(?:а|ся|ась|\(а\)|\(ась\)|\(шла\))?(?![а-яё(])", re.I)
RU_NOT_VERBS = {"стол", "стола", "правил", "правила", "журнал", "файл", "зал", "сначала", "начала"}
RU_SHORT = re.compile(r"(?<![а-яё])(согласен|согласна|должен|должна|готов|готова|рад|рада)(?![а-яё])", re.I)
GENDERED = {
    "it": re.compile(r"\b(è|sei|sono|siete) (uscit|tornat|arrivat|partit)[oaie]\b|[^\W\d_]\([oa]\)", re.I),
    "fr": re.compile(r"\b(est|es|êtes|sont|suis) (sorti|revenu|parti|arrivé|resté)(e|s|es)?\b|prévenu|\(e\)", re.I),
}


def about_a_player(key: str, text: str) -> bool:
    return bool(re.search(r"\{(name|names|target|owner|to)\}", text)) or key.startswith(
        ("rematch.", "notice.did.", "summary.", "scores.", "table.awaited", "notice."))


def test_russian_sentences_about_players_have_no_gender() -> None:
    wrong = []
    for key, text in CAT["ru"].items():
        if "(а)" in text or "(ась)" in text:
            wrong.append((key, text))
        if not about_a_player(key, text):
            continue
        verbs = [w for w in RU_PAST.findall(text) if w.lower() not in RU_NOT_VERBS]
        # the nobody/somebody of a sentence ("никто не вышел") and a thing's gender are no player's gender
        verbs = [w for w in verbs if not re.search(rf"(никто|игрок|раунд|ссылка|карта|фаза)\s+(не\s+)?{w}", text, re.I)]
        if verbs or RU_SHORT.search(text):
            wrong.append((key, text))
    assert wrong == []


@pytest.mark.parametrize("lang", ["it", "fr"])
def test_no_participle_gives_a_player_a_gender(lang: str) -> None:
    assert [(k, v) for k, v in CAT[lang].items() if GENDERED[lang].search(v)] == []


def test_french_speaks_to_the_player_in_one_way() -> None:
    """"vous" throughout ("passe ton tour" is the name of the card)."""
    tu = re.compile(r"\b(tu|ton|ta|tes|toi)\b|\bt'", re.I)
    assert [(k, v) for k, v in CAT["fr"].items() if tu.search(v.replace("passe ton tour", ""))] == []


# per language: the word of a concept, and words that must not stand for it
TERMS: dict[str, dict[str, tuple[str, str | None]]] = {
    "penalty": {"de": (r"strafpunkt", r"minuspunkt"), "fr": (r"pénalité", r"négati"), "it": (r"penalità", r"negativ"),
                "ru": (r"штраф", r"минус")},
    "minus point": {"de": (r"minuspunkt", r"strafpunkt"), "fr": (r"négati", r"pénalité"),
                    "it": (r"negativ", r"penalità"), "ru": (r"минус", r"штраф")},
    "round": {"de": (r"runde", None), "fr": (r"manche", None), "it": (r"\bround\b", r"\bman[oi]\b"),
              "ru": (r"раунд", None)},
}


@pytest.mark.parametrize("lang", ["de", "fr", "it", "ru"])
def test_one_word_per_concept(lang: str) -> None:
    own = CAT[lang]
    wrong = []
    for key, english in EN.items():
        if key not in own:
            continue
        for concept, words in TERMS.items():
            pattern = r"\brounds?\b(?! a )" if concept == "round" else concept
            if not re.search(pattern, english, re.I):
                continue
            right, other = words[lang]
            if concept == "round" and "hand" in english.lower():
                other = None  # a hand is "mano" beside the round
            if not re.search(right, own[key], re.I) or (other and re.search(other, own[key], re.I)):
                wrong.append((concept, key, own[key]))
    assert wrong == []


HEDGES = re.compile(r"[^\W\d_]\((s|n|en|er|e|es|а|ы|и|ась|шла)\)|[^\W\d_]/[aei]\b", re.I)

# counts whose noun changes with the number: {n} and the forms of the key
COUNTED = ["ev.cards_swapped", "ev.marker_moved", "ev.cards_kept", "ev.hand_kept", "ev.draw_pile_rebuilt",
           "notice.round_cost", "notice.round_cost_minus", "wait.custom_phases"]
FORMS = {"en": ("one",), "de": ("one",), "fr": ("one",), "it": ("one",), "ru": ("one", "few", "many")}


@pytest.mark.parametrize("lang", LANGS)
def test_counts_use_plural_forms_not_brackets(lang: str) -> None:
    own = CAT[lang]
    assert [(k, v) for k, v in own.items() if HEDGES.search(v)] == []
    missing = []
    for key in COUNTED + [k.split("#")[0] for k in EN if "#" in k]:
        if "{n}" not in own.get(key, "{n}") and key in COUNTED:
            missing.append((key, "no {n}"))
        # a number before its noun needs the forms; "карт: {n}" needs none
        if re.search(r"\{n\} [^\W\d_]", own.get(key, "")):
            missing += [(key, form) for form in FORMS[lang] if f"{key}#{form}" not in own]
    assert sorted(set(missing)) == []


def test_the_page_picks_the_forms_by_n() -> None:
    """The keys above are given their count as ``n`` (static/js/common.js picks ``key#form`` by ``params.n``)."""
    cards = (Path(__file__).resolve().parents[2] / "static" / "js" / "cards.js").read_text(encoding="utf-8")
    for key in ("ev.cards_swapped", "ev.marker_moved", "ev.cards_kept", "ev.draw_pile_rebuilt"):
        call = re.search(rf't\("{re.escape(key)}", \{{([^}}]*)\}}', cards)
        assert call and re.search(r"\bn:", call.group(1)), key


HEADINGS = {"en": "Play with friends elsewhere", "de": "Mit Freunden anderswo spielen",
            "fr": "Jouer avec des amis ailleurs", "it": "Giocare con amici lontani", "ru": "Играть с друзьями издалека"}


@pytest.mark.parametrize("lang", LANGS)
def test_the_invite_help_speaks_the_page_language(client: Any, lang: str) -> None:
    page = client.get("/help/invite", headers={"cookie": f"lang={lang}"}).text
    assert f'<html lang="{lang}">' in page
    assert f"<h2>{HEADINGS[lang]}</h2>" in page
    for way in ("PHASE10_PUBLIC_BASE_URL", "deploy/domain.yml", "tailscale funnel 8000", "FORWARDED_ALLOW_IPS"):
        assert way in page, way
    if lang != "en":
        assert "Play with friends elsewhere" not in page and "Out of the box" not in page
