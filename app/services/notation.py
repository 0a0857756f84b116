"""The move notation of a game record (docs/record.md, "Move notation"): one readable line per command, what
PGN's moves are to chess, so that a person can follow a game from its record without the engine.

A line is ``<name>: <move>``; cards are written by colour and number (``R12`` red 12, ``Y3``, ``G7``, ``B8``),
a Mattel wild ``W``, a Master joker ``J`` with its range and, unless it fits every colour, its colours
(``J1-6``, ``J7-12:RB``), action cards by their letter (``S`` skip, ``T`` take two, ``A`` all mine, ``F`` give
me five). Groups are numbered from 1 in the order they lie on the table. The card a draw brings is named from
the command's events (a record is of a finished game: nothing is hidden any more).

Pure: command and card JSON in, text out. The cards of each rule set are its deck (``DECK`` of its material),
so a command's card ids are named as the rule set names them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from app.rules.board.material import DECK as BOARD_DECK
from app.rules.core.cards import Card, card_to_json
from app.rules.master.deck import DECK as MASTER_DECK
from app.rules.mattel.deck import DECK as MATTEL_DECK

COLOUR_LETTERS = {"red": "R", "yellow": "Y", "green": "G", "blue": "B"}
ACTION_LETTERS = {"skip": "S", "take_two": "T", "all_mine": "A", "give_me_five": "F"}
_DECKS: dict[str, tuple[Card, ...]] = {"mattel": MATTEL_DECK, "master": MASTER_DECK, "board": BOARD_DECK}


@cache
def cards_of(ruleset: str) -> Mapping[int, Mapping[str, Any]]:
    """Card id -> card JSON of ``ruleset``'s deck (empty for a rule set without a known deck)."""
    return {card.id: card_to_json(card) for card in _DECKS.get(ruleset, ())}


def card_token(card: Mapping[str, Any] | None) -> str:
    """A card as the notation writes it (``R12``, ``W``, ``J1-6:RB``, ``S``; ``?`` for an unknown card)."""
    if not isinstance(card, Mapping):
        return "?"
    kind = card.get("kind")
    colour = COLOUR_LETTERS.get(str(card.get("colour")), "")
    if kind == "number":
        return f"{colour}{card.get('number')}"
    if kind == "action":
        return ACTION_LETTERS.get(str(card.get("action")), str(card.get("action")))
    if kind == "joker":
        if card.get("number") is not None:  # a board-game card turned into a joker keeps its face (B-6)
            return f"J({colour}{card.get('number')})"
        low, high = card.get("low", 1), card.get("high", 12)
        colours = card.get("colours") or []
        if (low, high) == (1, 12) and len(colours) in (0, 4):
            return "W"
        text = f"J{low}-{high}"
        if colours and len(colours) < 4:
            text += ":" + "".join(COLOUR_LETTERS.get(str(c), "?") for c in colours)
        return text
    return "?"


def _name(names: Sequence[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"seat {seat}"


def _drawn(events: Iterable[Mapping[str, Any]], seat: int) -> list[Mapping[str, Any]]:
    out: list[Mapping[str, Any]] = []
    for e in events:
        if e.get("seat") != seat:
            continue
        if e.get("type") in ("card_drawn", "card_searched", "offer_taken") and isinstance(e.get("card"), Mapping):
            out.append(e["card"])
        elif e.get("type") == "two_cards_drawn" and isinstance(e.get("cards"), list):
            out.extend(c for c in e["cards"] if isinstance(c, Mapping))
    return out


def move_text(ruleset: str, seat: int, command: Mapping[str, Any], names: Sequence[str],
              events: Iterable[Mapping[str, Any]] = ()) -> str:
    """The notation of ``command`` played by ``seat`` (``names``: the seats' names in seat order); ``events``
    (the engine's full events of the command) name what a draw brought and what the dice showed."""
    cards = cards_of(ruleset)
    events = list(events)

    def token(card_id: Any) -> str:
        return card_token(cards.get(card_id)) if isinstance(card_id, int) else "?"

    def tokens(ids: Any) -> str:
        return " ".join(token(i) for i in ids) if isinstance(ids, list | tuple) else "?"

    kind = command.get("type")
    target = command.get("target")
    on = f" on {_name(names, target)}" if isinstance(target, int) else ""
    if kind == "draw":
        got = " ".join(card_token(c) for c in _drawn(events, seat))
        pile = "discard" if command.get("pile") == "discard" else "draw"
        what = f"take {got or '?'} from the discard pile" if pile == "discard" else f"draw {got}".rstrip()
    elif kind == "lay_phase":
        groups = command.get("groups")
        what = "lay " + " | ".join(tokens(g) for g in groups) if isinstance(groups, list) else "lay ?"
    elif kind == "hit":
        group = command.get("group")
        end = command.get("end")
        what = f"hit {token(command.get('card'))} on group {group + 1 if isinstance(group, int) else '?'}"
        if end in ("low", "high"):
            what += f" ({end} end)"
    elif kind == "discard":
        what = f"discard {token(command.get('card'))}{on}"
    elif kind == "play_action":
        what = f"play {token(command.get('card'))}{on}"
    elif kind == "choose_take_two":
        what = f"keep {token(command.get('keep'))}"
    elif kind == "offer_card":
        what = f"offer {token(command.get('card'))}"
    elif kind == "take_offer":
        what = f"take {token(command.get('card'))}"
    elif kind == "keep_hand":
        what = "keep the hand" if command.get("keep") else "take a new hand"
    elif kind == "roll_dice":
        dice = next((e.get("dice") for e in events if e.get("type") == "dice_rolled"), None)
        what = "roll" + ("".join(f" {d}" for d in dice) if isinstance(dice, list) else "")
    elif kind == "move":
        what = f"move {command.get('steps')}"
    elif kind == "choose_action":
        what = f"choose {command.get('action')}"
    elif kind == "search":
        what = f"search {token(command.get('card'))}"
    elif kind == "swap":
        what = f"swap {tokens(command.get('cards'))}"
    elif kind == "ask":
        what = f"ask {command.get('number')} {command.get('direction')}"
    elif kind == "give":
        what = f"give {token(command.get('card'))}"
    elif kind == "end_turn":
        what = "end the turn"
    elif kind == "keep":
        what = f"keep {tokens(command.get('cards'))}".rstrip()
    else:
        what = str(kind)
    return f"{_name(names, seat)}: {what}"
