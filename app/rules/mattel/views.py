"""What each seat may see of a Mattel game (C-9), and the full record for finished games and replays."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core import viewparts
from ..core.cards import card_to_json
from ..core.commands import Pile, card_moves
from ..core.solver import top_fits
from ..core.table import hand_json
from ..core.viewparts import groups_view, hand_view, history_view, phase_list_view
from .deck import PHASES, WILDS, is_skip
from .game import awaited, current_phase, legal_commands, phase_number, sequence, skip_targets
from .state import MattelState, Stage


def prompt(state: MattelState, seat: int) -> dict[str, Any] | None:
    """What ``seat`` is awaited for now (M-4), or ``None``; in play, where each hand card may go (its legal
    hits and discards, C-4, M-4)."""
    if seat not in awaited(state):
        return None
    if state.stage is Stage.DRAW:
        piles = [Pile.DRAW.value]
        if state.piles.discard and not is_skip(state.piles.discard[-1]):
            piles.append(Pile.DISCARD.value)
        fits = Pile.DISCARD.value in piles and _top_fits(state, seat)
        return {"action": "draw", "piles": piles, "discard_fits": fits}
    laid = state.players[seat].laid
    return {"action": "play", "can_lay": not laid, "can_hit": laid, "then": "discard",
            "skip_targets": list(skip_targets(state, seat)), **card_moves(legal_commands(state, seat))}


def _top_fits(state: MattelState, seat: int) -> bool:
    """Whether the discard pile's top card fits ``seat``'s phase (C-3, C-4): from its own hand and public
    cards only."""
    player = state.players[seat]
    return top_fits(player.hand, state.piles.discard[-1], current_phase(state, seat).requirement, WILDS,
                    player.laid, state.table)


_PHASES = phase_list_view(lambda _options: PHASES, sequence)


def _public(state: MattelState) -> dict[str, Any]:
    seq = sequence(state.options)
    players = []
    for seat, p in enumerate(state.players):
        number = phase_number(state, seat)
        players.append({
            "seat": seat, "hand_size": len(p.hand), "phase": number,
            "phase_description": PHASES[number - 1].describe(), "phases_done": min(p.phase, len(seq)),
            "laid": p.laid, "score": p.score, "skip_pending": state.skipped[seat],
            "in_round": seat in state.contenders,
        })
    top = state.piles.discard[-1] if state.piles.discard else None
    return {
        "ruleset": "mattel", "round": state.round, "dealer": state.dealer, "turn": state.turn,
        "stage": state.stage.value, "over": state.stage is Stage.OVER, "winners": list(state.winners),
        "tiebreak": state.tiebreak, "players": players,
        "table": groups_view(state.table),
        "draw_size": len(state.piles.draw), "discard_size": len(state.piles.discard),
        "discard_top": None if top is None else card_to_json(top),
        "awaited": list(awaited(state)),
        "phases": _PHASES(state.options),
        "history": history_view(state.history),
    }


def player_view(state: MattelState, seat: int | None) -> dict[str, Any]:
    """C-9: own hand, tops of piles, laid groups, public counts — never another hand or the pile order."""
    return _for_seat(_public(state), state, seat)


def player_views(state: MattelState, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
    """``player_view`` of each of ``seats`` (C-9), the public part made once (``app.rules.core.viewparts``)."""
    return viewparts.player_views(_public, _for_seat, state, seats)


def _for_seat(public: dict[str, Any], state: MattelState, seat: int | None) -> dict[str, Any]:
    view = dict(public)
    view["seat"] = seat
    view["hand"] = None if seat is None else hand_view(state.players[seat].hand)
    view["prompt"] = None if seat is None else prompt(state, seat)
    if seat is not None and not state.players[seat].laid and state.stage is not Stage.OVER:
        view["my_phase"] = current_phase(state, seat).to_json()
    return view


def full_view(state: MattelState) -> dict[str, Any]:
    """Everything, hands and draw pile included (C-9: for finished games and replays only)."""
    view = _public(state)
    view["seat"] = None
    view["hands"] = [hand_json(p.hand) for p in state.players]
    view["draw_pile"] = hand_json(state.piles.draw)
    view["discard_pile"] = hand_json(state.piles.discard)
    return view
