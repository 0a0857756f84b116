"""The Mattel game flow: deal, turn, skips, round end, winning (M-2, M-4, M-6, M-7, M-8, M-9, C-8, C-12)."""

from __future__ import annotations

from typing import Any

from ..core.cards import Card
from ..core.commands import Discard, Draw, Hit, LayPhase, Pile
from ..core.errors import GameOver, IllegalMove, InvalidCommand, InvalidOptions, NotYourTurn, WrongStage
from ..core.events import (
    CardDiscarded,
    CardDrawn,
    DrawFailed,
    GameEnded,
    HandsDealt,
    RoundEnded,
)
from ..core.phases import Phase
from ..core.records import replace
from ..core.rng import Rng
from ..core.solver import find_laydown
from ..core.table import (
    Piles,
    Player,
    RoundScore,
    check_phases_to_win,
    hit,
    lay_phase,
    legal_hits,
    next_seat,
    phase_sequence,
    pop_draw,
    rebuild_draw_pile,
    seat_phase,
    take_card,
)
from .deck import DECK, HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, PHASES, WILDS, card_points, is_skip
from .state import (
    MattelCommand,
    MattelEvent,
    MattelOptions,
    MattelState,
    SkipPlayed,
    Stage,
    TieBreakStarted,
    TurnSkipped,
    TurnStarted,
)

STALL_REBUILDS = 3  # C-12
Events = tuple[MattelEvent, ...]


def sequence(options: MattelOptions) -> tuple[int, ...]:
    """The phase numbers this game plays (M-9)."""
    return phase_sequence(PHASES, options.phase_selection, options.phases_to_win)


def phase_number(state: MattelState, seat: int) -> int:
    """The phase (1..10) ``seat`` plays this round: its own (C-5), the round's (fixed_rounds), or the last
    one in a tie-break round (M-8)."""
    seq = sequence(state.options)
    if state.tiebreak:
        return seq[-1]
    return seat_phase(seq, state.players[seat].phase, state.round if state.options.fixed_rounds else None)


def current_phase(state: MattelState, seat: int) -> Phase:
    """The groups ``seat`` must lay this round: its phase number (C-5, M-8, M-9) in the Mattel list (M-3)."""
    return PHASES[phase_number(state, seat) - 1]


def check_options(options: MattelOptions) -> None:
    """Cross-field check of the M-9 variants (C-11): the phase selection leaves a phase to play and
    ``phases_to_win`` names one of its phases; raises ``InvalidOptions``."""
    check_phases_to_win(PHASES, options.phase_selection, options.phases_to_win)


def new_game(seed: int, players: int, options: MattelOptions) -> tuple[MattelState, Events]:
    """M-2: random first dealer from the seeded generator (C-10), then the first deal."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidOptions("players", f"mattel is for {MIN_PLAYERS}-{MAX_PLAYERS} players")
    check_options(options)
    rng = Rng.from_seed(seed)
    dealer, rng = rng.below(players)
    blank = MattelState(options=options, rng=rng, players=tuple(Player() for _ in range(players)),
                        piles=Piles(), table=(), round=0, dealer=dealer, turn=dealer, stage=Stage.DRAW,
                        skipped=(False,) * players, contenders=tuple(range(players)))
    return deal(blank, dealer, blank.contenders, tiebreak=False)


def deal(state: MattelState, dealer: int, contenders: tuple[int, ...], tiebreak: bool) -> tuple[MattelState, Events]:
    """M-2, M-7: gather and shuffle all 108 cards, deal 10 to every contender, turn up the discard.

    A skip turned up skips the first player (M-6); a wild turned up may be taken (M-5).
    """
    n = len(state.players)
    deck, rng = state.rng.shuffled(DECK)
    players = []
    for seat in range(n):
        if seat in contenders:
            hand, deck = deck[:HAND_SIZE], deck[HAND_SIZE:]
        else:
            hand = ()
        players.append(replace(state.players[seat], hand=hand, laid=False))
    top, deck = deck[0], deck[1:]
    first = _next_contender(dealer, contenders, n)
    skipped = tuple(seat == first and is_skip(top) for seat in range(n))
    state = replace(state, rng=rng, players=tuple(players), piles=Piles(draw=deck, discard=(top,)), table=(),
                    round=state.round + 1, dealer=dealer, turn=dealer, skipped=skipped,
                    contenders=contenders, tiebreak=tiebreak)
    dealt = HandsDealt(state.round, dealer, first, tuple(p.hand for p in state.players), top)
    changes, passed = _next_turn(state)  # the player left of the dealer starts, unless a skip was turned up
    return replace(state, **changes), (dealt, *passed)


def _next_contender(seat: int, contenders: tuple[int, ...], n: int) -> int:
    seat = next_seat(seat, n)
    while seat not in contenders:
        seat = next_seat(seat, n)
    return seat


def _served(events: tuple[TurnSkipped, ...]) -> set[int]:
    return {e.seat for e in events}


def _advance(state: MattelState, seat: int) -> tuple[int, tuple[TurnSkipped, ...]]:
    """The next contender clockwise from ``seat`` who is not due to be skipped; skips met are served (M-6)."""
    n = len(state.players)
    skipped = list(state.skipped)
    events: list[TurnSkipped] = []
    nxt = _next_contender(seat, state.contenders, n)
    while skipped[nxt]:
        skipped[nxt] = False
        events.append(TurnSkipped(nxt))
        nxt = _next_contender(nxt, state.contenders, n)
    return nxt, tuple(events)


def _next_turn(state: MattelState) -> tuple[dict[str, Any], Events]:
    """The state changes and events that pass the turn clockwise, serving skips on the way (M-6)."""
    turn, skips = _advance(state, state.turn)
    skipped = state.skipped
    if skips:
        served = _served(skips)
        skipped = tuple(False if s in served else v for s, v in enumerate(skipped))
    return {"turn": turn, "stage": Stage.DRAW, "skipped": skipped}, (*skips, TurnStarted(turn))


def apply(state: MattelState, seat: int, command: MattelCommand) -> tuple[MattelState, Events]:
    """Apply one command of ``seat`` (M-4): draw, lay the phase, hit, discard (or play a skip)."""
    if state.stage is Stage.OVER:
        raise GameOver("game_over", "the game has finished")
    if not 0 <= seat < len(state.players):
        raise InvalidCommand("invalid_seat", f"there is no seat {seat}")
    if seat != state.turn:
        raise NotYourTurn("not_your_turn", f"it is seat {state.turn}'s turn")
    match command:
        case Draw(pile=pile):
            return _draw(state, seat, pile)
        case LayPhase(groups=groups):
            _require_play(state)
            player, table, laid = lay_phase(state.players[seat], seat, current_phase(state, seat), groups,
                                            state.table, WILDS)
            return _maybe_out(_with_player(state, seat, player, table=table), seat, (laid,))
        case Hit(card=card, group=group, end=end):
            _require_play(state)
            player, table, event = hit(state.players[seat], seat, card, group, end, state.table, WILDS)
            return _maybe_out(_with_player(state, seat, player, table=table), seat, (event,))
        case Discard(card=card_id, target=target):
            return _discard(state, seat, card_id, target)
    raise InvalidCommand("unknown_command", f"unknown command {command!r}")


def _require_play(state: MattelState) -> None:
    if state.stage is not Stage.PLAY:
        raise WrongStage("draw_first", "draw a card first")


def _with_player(state: MattelState, seat: int, player: Player, **changes: Any) -> MattelState:
    """``state`` with seat's player replaced and any other field changes, in one copy."""
    return replace(state, players=state.players[:seat] + (player,) + state.players[seat + 1:], **changes)


def _draw(state: MattelState, seat: int, pile: Pile) -> tuple[MattelState, Events]:
    """M-4 draw from either pile; never a skip from the discard pile (M-6); C-8 rebuild; C-12 stall."""
    if state.stage is not Stage.DRAW:
        raise WrongStage("already_drawn", "you have already drawn this turn")
    player = state.players[seat]
    if pile is Pile.DISCARD:
        if not state.piles.discard:
            raise IllegalMove("discard_pile_empty", "the discard pile is empty")
        top = state.piles.discard[-1]
        if is_skip(top):
            raise IllegalMove("cannot_take_skip", "a skip can never be taken from the discard pile")
        piles = state.piles.without_discard_top()
        player = replace(player, hand=player.hand + (top,))
        return _with_player(state, seat, player, piles=piles, stage=Stage.PLAY), (CardDrawn(seat, pile.value, top),)
    piles, rng, rebuild = rebuild_draw_pile(state.piles, state.rng)
    if rebuild is not None and piles.rebuilds >= STALL_REBUILDS:
        # C-12: the third rebuild ends the round before the draw; every card stays where it lies.
        return _end_round(replace(state, piles=piles, rng=rng), None, (rebuild,))
    card, piles, rng, rebuilt = pop_draw(piles, rng)
    rebuilt = (rebuild, *rebuilt) if rebuild is not None else rebuilt
    if card is None:
        return replace(state, piles=piles, rng=rng, stage=Stage.PLAY), (*rebuilt, DrawFailed(seat))
    player = replace(player, hand=player.hand + (card,))
    state = _with_player(state, seat, player, piles=piles, rng=rng, stage=Stage.PLAY)
    return state, (*rebuilt, CardDrawn(seat, pile.value, card))


def skip_targets(state: MattelState, seat: int) -> tuple[int, ...]:
    """M-6: other contenders who are not already due to be skipped."""
    return tuple(s for s in state.contenders if s != seat and not state.skipped[s])


def _discard(state: MattelState, seat: int, card_id: int, target: int | None) -> tuple[MattelState, Events]:
    _require_play(state)
    player = state.players[seat]
    card, hand = take_card(player.hand, card_id)
    event: MattelEvent
    if is_skip(card):
        targets = skip_targets(state, seat)
        if target is None and targets:
            raise IllegalMove("skip_needs_target", "name the player to skip")
        if target is not None and target not in targets:
            code = "skip_already_pending" if 0 <= target < len(state.players) and state.skipped[target] \
                and target != seat else "invalid_skip_target"
            raise IllegalMove(code, f"seat {target} cannot be skipped now")
        event = SkipPlayed(seat, card, target)
    else:
        if target is not None:
            raise InvalidCommand("unexpected_target", "only a skip names a target")
        event = CardDiscarded(seat, card)
    piles = state.piles.discarded(card)
    player = replace(player, hand=hand)
    if not hand:
        return _end_round(_with_player(state, seat, player, piles=piles), seat, (event,))
    if target is not None:
        state = replace(state, skipped=tuple(v or s == target for s, v in enumerate(state.skipped)))
    changes, passed = _next_turn(state)
    return _with_player(state, seat, player, piles=piles, **changes), (event, *passed)


def _maybe_out(state: MattelState, seat: int, events: Events) -> tuple[MattelState, Events]:
    """M-4: a hand emptied by laying or hitting goes out at once."""
    if state.players[seat].hand:
        return state, events
    return _end_round(state, seat, events)


def _end_round(state: MattelState, went_out: int | None, events: Events) -> tuple[MattelState, Events]:
    """M-7 scoring and C-5 progress, then M-8 / M-9 game end or the next deal; ``went_out=None`` is C-12."""
    n = len(state.players)
    points = tuple(0 if seat == went_out or seat not in state.contenders
                   else sum(card_points(c) for c in state.players[seat].hand) for seat in range(n))
    advanced = tuple(s for s in state.contenders if state.players[s].laid)
    made = tuple(phase_number(state, s) if s in advanced else 0 for s in range(n))
    players = tuple(replace(p, score=p.score + points[s],
                            phase=p.phase + (1 if s in advanced and not state.tiebreak else 0))
                    for s, p in enumerate(state.players))
    state = replace(state, players=players,
                    history=state.history + (RoundScore(state.round, points, made),))
    totals = tuple(p.score for p in players)
    ended = RoundEnded(state.round, went_out, points, totals, advanced, tuple(p.hand for p in players))
    events = (*events, ended)
    seq = sequence(state.options)

    winners: tuple[int, ...] | None = None
    tied: tuple[int, ...] = ()
    if state.tiebreak:
        if went_out is not None:
            winners = (went_out,)
        else:
            tied = state.contenders  # a stalled tie-break round is played again
    elif state.options.fixed_rounds:
        if state.round >= len(seq):
            best = min(totals)
            winners = tuple(s for s in range(n) if totals[s] == best)
    else:
        finishers = [s for s in range(n) if players[s].phase >= len(seq)]
        if finishers:
            best = min(totals[s] for s in finishers)
            tied = tuple(s for s in finishers if totals[s] == best)
            if len(tied) == 1:
                winners, tied = tied, ()
    if winners is not None:
        state = replace(state, stage=Stage.OVER, winners=winners)
        return state, (*events, GameEnded(winners, totals))
    dealer = next_seat(state.dealer, n)
    if tied:
        state, dealt = deal(state, dealer, tied, tiebreak=True)
        return state, (*events, TieBreakStarted(tied), *dealt)
    state, dealt = deal(state, dealer, state.contenders, tiebreak=False)
    return state, (*events, *dealt)


def awaited(state: MattelState) -> tuple[int, ...]:
    """The seat whose decision the game waits for: only the player on turn (M-4; a skipped player's turn is
    passed over, M-6), nobody once the game is over (M-8)."""
    return () if state.stage is Stage.OVER else (state.turn,)


def legal_commands(state: MattelState, seat: int) -> tuple[MattelCommand, ...]:
    """Every legal command of ``seat`` now; lay-downs are represented by the solver's one (C-3)."""
    if seat not in awaited(state):
        return ()
    if state.stage is Stage.DRAW:
        if state.piles.discard and not is_skip(state.piles.discard[-1]):
            return _DRAW_EITHER
        return _DRAW_BLIND
    player = state.players[seat]
    out: list[MattelCommand] = []
    if not player.laid:
        groups = find_laydown(player.hand, current_phase(state, seat).requirement, WILDS)
        if groups is not None:
            out.append(LayPhase(groups))
    else:
        out.extend(Hit(c, g, e) for c, g, e in legal_hits(player.hand, state.table, WILDS))
    targets = skip_targets(state, seat)
    for card in player.hand:
        if is_skip(card):
            out.extend(Discard(card.id, t) for t in (targets or (None,)))
        else:
            out.append(_DISCARD[card.id])
    return tuple(out)


# Commands are immutable values: the ones listed on every turn are made once.
_DRAW_BLIND: tuple[MattelCommand, ...] = (Draw(Pile.DRAW),)
_DRAW_EITHER: tuple[MattelCommand, ...] = (Draw(Pile.DRAW), Draw(Pile.DISCARD))
_DISCARD = {card.id: Discard(card.id) for card in DECK}


def hint(state: MattelState, seat: int) -> tuple[tuple[int, ...], ...] | None:
    """The solver's lay-down of ``seat``'s current phase from its hand, if any (C-3)."""
    player = state.players[seat]
    if player.laid or state.stage is Stage.OVER:
        return None
    return find_laydown(player.hand, current_phase(state, seat).requirement, WILDS)


def all_cards(state: MattelState) -> list[Card]:
    """Every card of the game wherever it lies: hands, piles, table (M-1: always 108)."""
    cards = [c for p in state.players for c in p.hand]
    cards += state.piles.draw + state.piles.discard
    cards += [c for g in state.table for c in g.cards]
    return cards


def hidden_from(state: MattelState, seat: int | None) -> set[int]:
    """C-9: the card ids ``seat`` may not see: other hands, the draw pile, the discard pile below its top."""
    hidden = {c.id for s, p in enumerate(state.players) if s != seat for c in p.hand}
    hidden |= {c.id for c in state.piles.draw}
    hidden |= {c.id for c in state.piles.discard[:-1]}
    return hidden
