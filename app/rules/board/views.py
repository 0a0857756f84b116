"""What each seat may see of a board game (C-9, B-5 search, B-6 turned cards), and the full record."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core import events as core_events
from ..core import viewparts
from ..core.cards import as_joker, card_to_json
from ..core.commands import LayPhase, Pile, card_moves
from ..core.events import CardDiscarded, hands_left_json, redact
from ..core.table import hand_json
from ..core.viewparts import groups_view, history_view, phase_list_view
from .game import (
    ask_candidates,
    asked_order,
    awaited,
    choosable,
    current_phase,
    keep_choices,
    legal_commands,
    move_options,
    phase_number,
    phases,
    present,
    ring,
    sequence,
    two_discards,
    walk,
)
from .material import KEEP_MAX, SWAP_MAX, action_of
from .state import (
    BoardEvent,
    BoardRoundEnded,
    BoardState,
    CardGiven,
    CardSearched,
    CardsKept,
    CardsSwapped,
    JokerTurned,
    Stage,
)


def _public_prompt(state: BoardState, seat: int) -> dict[str, Any]:
    """What everyone may know about what ``seat`` is awaited for."""
    stage = state.stage
    out: dict[str, Any] = {"seat": seat, "action": stage.value}
    if stage is Stage.TAKE:
        out["remaining"] = state.to_take
    elif stage is Stage.GIVE:
        out["number"] = state.asked
        out["to"] = state.turn
    elif stage is Stage.MOVE:
        out["dice"] = list(state.dice)
    elif stage is Stage.ROLL:
        out["again"] = state.further  # B-5: the further turn an again field gave
    return out


def prompt(state: BoardState, seat: int) -> dict[str, Any] | None:
    """What ``seat`` is awaited for now, with every choice it has (B-5, B-7, B-8), or ``None``."""
    if seat not in awaited(state):
        return None
    stage = state.stage
    out = _public_prompt(state, seat)
    player = state.players[seat]
    if stage is Stage.MOVE:
        size = len(ring(state.options))
        out["moves"] = [{"steps": s, "field": walk(state.pawns, seat, s, size)} for s in move_options(state.dice)]
    elif stage is Stage.CHOOSE:
        out["actions"] = list(choosable(state, seat))
    elif stage is Stage.TAKE:
        piles = [Pile.DRAW.value]
        if state.piles.discard:
            piles.append(Pile.DISCARD.value)
        out["piles"] = piles
        out["again"] = state.again
    elif stage is Stage.SEARCH:
        # B-5: the searching player alone sees the whole discard pile while searching (bottom first).
        out["discard_pile"] = hand_json(state.piles.discard)
    elif stage is Stage.SWAP:
        out["min"] = 1
        out["max"] = min(SWAP_MAX, len(player.hand))
    elif stage is Stage.ASK:
        out["numbers"] = list(range(1, 13))
        out["directions"] = ["left", "right"]
        out["left_order"] = list(asked_order(seat, "left", len(state.players)))
        out["right_order"] = list(asked_order(seat, "right", len(state.players)))
    elif stage is Stage.GIVE:
        assert state.asked is not None
        out["cards"] = [c.id for c in ask_candidates(state, seat, state.asked)]
    elif stage is Stage.PLAY:
        legal = legal_commands(state, seat)
        out["can_lay"] = any(isinstance(c, LayPhase) for c in legal)
        out["can_hit"] = player.laid and len(player.hand) >= 2
        out["then"] = "discard"
        out["two_discards"] = two_discards(state, seat)
        out.update(card_moves(legal))  # where each hand card may go (C-4, B-6, B-7)
    elif stage is Stage.DISCARD2:
        out["optional"] = True
        out.update(card_moves(legal_commands(state, seat)))
    elif stage is Stage.KEEP:
        out["max"] = KEEP_MAX
        out["choices"] = len(keep_choices(player.hand))
    return out


_PHASES = phase_list_view(phases, sequence)


def _public(state: BoardState) -> dict[str, Any]:
    seq = sequence(state.options)
    listed = phases(state.options)
    fields = ring(state.options)
    players = []
    for seat, p in enumerate(state.players):
        number = phase_number(state, seat)
        players.append({
            "seat": seat, "hand_size": len(p.hand), "phase": number,
            "phase_description": listed[number - 1].describe(), "marker": p.phase,
            "finished": p.phase >= len(seq), "laid": p.laid, "pawn": state.pawns[seat],
            "score": p.phase,  # B-8: marker fields gained so far (the board game counts no penalty points)
            # B-6: the face of a turned card is visible to every other player.
            "turned": [card_to_json(as_joker(c)) for c in p.hand if c.id in state.turned],
        })
    top = state.piles.discard[-1] if state.piles.discard else None
    return {
        "ruleset": "board", "round": state.round, "turn": state.turn, "stage": state.stage.value,
        "over": state.stage is Stage.OVER, "winners": list(state.winners), "players": players,
        "ring": [{"index": i, "field": f, "action": action_of(f)} for i, f in enumerate(fields)],
        "pawns": list(state.pawns), "dice": list(state.dice), "again": state.again,
        "table": groups_view(state.table),
        "draw_size": len(state.piles.draw), "discard_size": len(state.piles.discard),
        "discard_top": None if top is None else card_to_json(top),
        "awaited": list(awaited(state)),
        "waiting": [_public_prompt(state, s) for s in awaited(state)],
        "finish": len(seq),
        "phases": _PHASES(state.options),
        "history": history_view(state.history),
    }


def player_view(state: BoardState, seat: int | None) -> dict[str, Any]:
    """C-9: own hand (turned cards as jokers), tops of piles, laid groups, the ring, pawns and markers, the
    faces of turned cards (B-6) — never another hand, the draw pile or the discard pile below its top (but
    for the searching player, B-5)."""
    return _for_seat(_public(state), state, seat)


def player_views(state: BoardState, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
    """``player_view`` of each of ``seats`` (C-9), the public part made once (``app.rules.core.viewparts``)."""
    return viewparts.player_views(_public, _for_seat, state, seats)


def _for_seat(public: dict[str, Any], state: BoardState, seat: int | None) -> dict[str, Any]:
    view = dict(public)
    view["seat"] = seat
    view["hand"] = None if seat is None else [card_to_json(present(state, c)) for c in state.players[seat].hand]
    view["prompt"] = None if seat is None else prompt(state, seat)
    if seat is not None and state.stage is not Stage.OVER:
        view["my_phase"] = current_phase(state, seat).to_json()
    return view


def full_view(state: BoardState) -> dict[str, Any]:
    """Everything, hands and piles included (C-9: for finished games and replays only)."""
    view = _public(state)
    view["seat"] = None
    view["hands"] = [[card_to_json(present(state, c)) for c in p.hand] for p in state.players]
    view["draw_pile"] = hand_json(state.piles.draw)
    view["discard_pile"] = hand_json(state.piles.discard)
    return view


# The board game's events whose JSON depends on the viewer (C-9, B-5, B-6), the shared ones included.
VIEWER_DEPENDENT: tuple[type, ...] = (CardSearched, CardsSwapped, CardGiven, BoardRoundEnded, CardsKept,
                                      *core_events.VIEWER_DEPENDENT)


def redact_event(event: BoardEvent, seat: int | None) -> dict[str, Any]:
    """The JSON of ``event`` as ``seat`` may see it (C-9, B-5)."""
    match event:
        case CardSearched(seat=searcher, card=card):
            # B-5 search: the others learn only that a card was taken.
            return {"type": "card_searched", "seat": searcher,
                    "card": card_to_json(card) if seat == searcher else None}
        case CardsSwapped(seat=swapper, cards=cards):
            # B-5 swap: the others see only the card that ends on top.
            shown = list(cards) if seat == swapper else list(cards[-1:])
            return {"type": "cards_swapped", "seat": swapper, "count": len(cards),
                    "cards": [card_to_json(c) for c in shown]}
        case CardGiven(giver=giver, receiver=receiver, card=card, was_joker=was_joker):
            # The asked number is public; the card itself only to the two players (or if it was turned, B-6).
            visible = was_joker or seat in (giver, receiver)
            return {"type": "card_given", "giver": giver, "receiver": receiver, "number": card.number,
                    "was_joker": was_joker, "card": card_to_json(card) if visible else None}
        case JokerTurned(seat=holder, card=card):
            # B-6: the turned card's face is visible to everyone.
            return {"type": "joker_turned", "seat": holder, "card": card_to_json(as_joker(card))}
        case CardDiscarded(seat=discarder, card=card):
            return {"type": "card_discarded", "seat": discarder, "card": card_to_json(card)}
        case BoardRoundEnded(round=rnd, went_out=went_out, markers=markers, keepers=keepers, hands=hands):
            return {"type": "board_round_ended", "round": rnd, "went_out": went_out, "markers": list(markers),
                    "keepers": list(keepers), **hands_left_json(hands, seat)}
        case CardsKept(seat=keeper, cards=cards):
            return {"type": "cards_kept", "seat": keeper, "count": len(cards),
                    "cards": [card_to_json(c) for c in cards] if seat == keeper else None}
    return redact(event, seat)
