"""What each seat may see of a Master game (C-9), and the full record for finished games and replays."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core import viewparts
from ..core.cards import card_to_json
from ..core.commands import Pile, card_moves
from ..core.solver import top_fits
from ..core.table import hand_json
from ..core.viewparts import groups_view, hand_view, history_view, phase_list_view
from .deck import RANGED_JOKERS, TAKE_TWO
from .game import (
    action_plays,
    awaited,
    current_phase,
    has_in_front,
    legal_commands,
    phase_number,
    phases,
    sequence,
    skip_targets,
)
from .state import MasterState, Stage


def _waiting(state: MasterState) -> dict[str, Any]:
    """The public form of what the game waits for (R-8..R-11: nothing hidden is named)."""
    return {"stage": state.stage.value, "seats": list(awaited(state))}


def prompt(state: MasterState, seat: int | None) -> dict[str, Any] | None:
    """What ``seat`` is awaited for now, or — when it is not awaited — a public note of who is awaited for
    what (e.g. the Give-me-five offers still due, R-11, or the All-mine keep choices, R-9). In play it lists
    where each hand card may go: its legal hits and discards (C-4, R-6) and where each action card may be
    played (``plays``, R-8..R-11; action cards are played, not discarded)."""
    if state.stage is Stage.OVER:
        return None
    if seat is None or seat not in awaited(state):
        return {"action": "wait", "waiting_for": _waiting(state)}
    player = state.players[seat]
    match state.stage:
        case Stage.DRAW:
            piles = [Pile.DRAW.value] + ([Pile.DISCARD.value] if state.piles.discard else [])
            fits = bool(state.piles.discard) and top_fits(
                player.hand, state.piles.discard[-1], current_phase(state, seat).requirement, RANGED_JOKERS,
                player.laid, state.table)  # C-3, C-4: from this seat's own hand and public cards only
            return {"action": "draw", "piles": piles, "take_two": has_in_front(state, seat, TAKE_TWO),
                    "discard_fits": fits}
        case Stage.CHOOSE:
            return {"action": "choose_take_two", "cards": hand_json(state.drawn)}
        case Stage.PLAY:
            legal = legal_commands(state, seat)
            return {"action": "play", "can_lay": not player.laid, "can_hit": player.laid and len(player.hand) > 1,
                    "then": "discard_or_action", "skip_targets": list(skip_targets(state, seat)),
                    **card_moves(legal), "plays": action_plays(state, seat, legal)}
        case Stage.OFFER:
            assert state.give is not None
            due = sum(1 for s, c in zip(state.give.slots, state.give.offered, strict=True)
                      if s == seat and c is None)
            return {"action": "offer", "taker": state.give.taker, "count": due,
                    "waiting_for": _waiting(state)}
        case Stage.TAKE:
            assert state.give is not None
            return {"action": "take_offer", "offers": _offers(state)}
        case Stage.KEEP:
            return {"action": "keep_hand", "hand_size": len(player.hand), "waiting_for": _waiting(state)}
    return None  # pragma: no cover


def _offers(state: MasterState) -> list[dict[str, Any]]:
    """R-11: the offer slots in order; offered cards lie face up (public)."""
    if state.give is None:
        return []
    return [{"seat": s, "card": None if c is None else card_to_json(c)}
            for s, c in zip(state.give.slots, state.give.offered, strict=True)]


_PHASES = phase_list_view(phases, sequence)


def _public(state: MasterState) -> dict[str, Any]:
    seq = sequence(state.options)
    listed = phases(state.options)
    players = []
    for seat, p in enumerate(state.players):
        number = phase_number(state, seat)
        players.append({
            "seat": seat, "hand_size": len(p.hand), "phase": number,
            "phase_description": listed[number - 1].describe(), "phases_done": min(p.phase, len(seq)),
            "laid": p.laid, "score": p.score,
            "in_front": hand_view(state.fronts[seat]),
            "keep_pending": seat in state.keep_pending,
        })
    top = state.piles.discard[-1] if state.piles.discard else None
    blue_top = state.blue[-1] if state.blue else None
    return {
        "ruleset": "master", "round": state.round, "dealer": state.dealer, "turn": state.turn,
        "stage": state.stage.value, "over": state.stage is Stage.OVER, "winners": list(state.winners),
        "scoring": state.options.scoring, "players": players,
        "table": groups_view(state.table),
        "draw_size": len(state.piles.draw), "discard_size": len(state.piles.discard),
        "discard_top": None if top is None else card_to_json(top),
        "blue_size": len(state.blue), "blue_top": None if blue_top is None else card_to_json(blue_top),
        "take_two_pending": len(state.drawn),
        "give_me_five": None if state.give is None else {"taker": state.give.taker, "offers": _offers(state)},
        "awaited": list(awaited(state)),
        "phases": _PHASES(state.options),
        "history": history_view(state.history),
    }


def player_view(state: MasterState, seat: int | None) -> dict[str, Any]:
    """C-9: own hand, tops of the piles, laid groups, cards in front of players, offered cards, public
    counts — never another hand, the Take-two cards drawn by another seat, or the pile order."""
    return _for_seat(_public(state), state, seat)


def player_views(state: MasterState, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
    """``player_view`` of each of ``seats`` (C-9), the public part made once (``app.rules.core.viewparts``)."""
    return viewparts.player_views(_public, _for_seat, state, seats)


def _for_seat(public: dict[str, Any], state: MasterState, seat: int | None) -> dict[str, Any]:
    view = dict(public)
    view["seat"] = seat
    view["hand"] = None if seat is None else hand_view(state.players[seat].hand)
    view["prompt"] = prompt(state, seat)
    if seat is not None and not state.players[seat].laid and state.stage is not Stage.OVER:
        view["my_phase"] = current_phase(state, seat).to_json()
    return view


def full_view(state: MasterState) -> dict[str, Any]:
    """Everything, hands and piles included (C-9: for finished games and replays only)."""
    view = _public(state)
    view["seat"] = None
    view["hands"] = [hand_json(p.hand) for p in state.players]
    view["draw_pile"] = hand_json(state.piles.draw)
    view["discard_pile"] = hand_json(state.piles.discard)
    view["blue_pile"] = hand_json(state.blue)
    view["take_two_drawn"] = hand_json(state.drawn)
    return view
