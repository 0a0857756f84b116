"""The Master game flow (R-5..R-14, C-5, C-7, C-8, C-12): deal, turn, action cards, round end, winning."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..core.cards import Card, CardKind
from ..core.commands import Discard, Draw, Hit, LayPhase, Pile
from ..core.errors import GameOver, IllegalMove, InvalidCommand, InvalidOptions, NotYourTurn, WrongStage
from ..core.events import CardDiscarded, CardDrawn, DrawFailed, GameEnded, HandsDealt, RoundEnded
from ..core.phases import Phase, table_phases
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
    seat_phase,
    take_card,
)
from .deck import (
    ALL_MINE,
    DECK,
    GIVE_ME_FIVE,
    HAND_SIZE,
    IN_FRONT_OF_SELF,
    MASTER_KINDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OFFER_SIZE,
    PHASES,
    RANGED_JOKERS,
    SKIP,
    TAKE_TWO,
    card_points,
    is_action,
    minus_points,
)
from .state import (
    ActionPlayed,
    CardOffered,
    ChooseTakeTwo,
    GiveMeFive,
    HandKept,
    KeepChoicesAsked,
    KeepHand,
    MasterCommand,
    MasterEvent,
    MasterOptions,
    MasterState,
    OfferCard,
    OffersAsked,
    OfferTaken,
    PlayAction,
    ReplacementDrawn,
    Stage,
    StarterReturned,
    TakeOffer,
    TakeTwoChosen,
    TurnSkipped,
    TurnStarted,
    TwoCardsDrawn,
)

STALL_REBUILDS = 3  # C-12
Events = tuple[MasterEvent, ...]
Result = tuple[MasterState, Events]


# -- options and phases (R-3, R-15) --------------------------------------------------------------------


def phases(options: MasterOptions) -> tuple[Phase, ...]:
    """The phase list of this table (R-3): the ten Master phases, or the host's own list (C-2 kinds, colour
    runs included)."""
    return table_phases(options.phases, PHASES, MASTER_KINDS)


def sequence(options: MasterOptions) -> tuple[int, ...]:
    """The phase numbers this game plays (R-15: ``phase_selection``, ``phases_to_win``)."""
    return phase_sequence(phases(options), options.phase_selection, options.phases_to_win)


def phase_number(state: MasterState, seat: int) -> int:
    """The phase (1-based number in the phase list) ``seat`` plays this round: its own (C-5) or the round's
    (R-15 ``fixed_rounds``)."""
    fixed_round = state.round if state.options.fixed_rounds else None
    return seat_phase(sequence(state.options), state.players[seat].phase, fixed_round)


def current_phase(state: MasterState, seat: int) -> Phase:
    """The phase ``seat`` must lay this round (C-5, R-3)."""
    return phases(state.options)[phase_number(state, seat) - 1]


def check_options(options: MasterOptions) -> None:
    """C-11 / R-3 / R-15: a custom phase list is valid, the selection leaves a phase to play and
    ``phases_to_win`` names a phase of the selected list."""
    check_phases_to_win(phases(options), options.phase_selection, options.phases_to_win)


def points_of(options: MasterOptions) -> Callable[[Card], int]:
    """R-12: one minus point per card, or the ``points`` option's 5/10/20."""
    return card_points if options.scoring == "points" else minus_points


# -- conservation --------------------------------------------------------------------------------------


def all_cards(state: MasterState) -> list[Card]:
    """Every card of the game wherever it lies (R-1: always the 128 cards): hands, draw, discard and blue
    piles, laid groups, cards in front of players, Take-two cards awaiting a choice, offered cards."""
    out: list[Card] = []
    for player in state.players:
        out.extend(player.hand)
    out.extend(state.piles.draw)
    out.extend(state.piles.discard)
    out.extend(state.blue)
    for group in state.table:
        out.extend(group.cards)
    for front in state.fronts:
        out.extend(front)
    out.extend(state.drawn)
    if state.give is not None:
        out.extend(c for c in state.give.offered if c is not None)
    return out


def hidden_from(state: MasterState, seat: int | None) -> set[int]:
    """C-9: the card ids ``seat`` (``None`` = spectator) may not see: other hands, the draw pile, the discard
    pile below its top, and the two Take-two cards another seat drew from the draw pile (R-8)."""
    hidden = {c.id for s, p in enumerate(state.players) if s != seat for c in p.hand}
    hidden |= {c.id for c in state.piles.draw}
    hidden |= {c.id for c in state.piles.discard[:-1]}
    if state.drawn_from == "draw" and seat != state.turn:
        hidden |= {c.id for c in state.drawn}
    return hidden


# -- deal (R-5, R-13) ----------------------------------------------------------------------------------


def new_game(seed: int, players: int, options: MasterOptions) -> Result:
    """R-5: the first dealer is chosen at random from the seeded generator (C-10), then round 1 is dealt."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidOptions("players", f"master is for {MIN_PLAYERS}-{MAX_PLAYERS} players")
    check_options(options)
    rng = Rng.from_seed(seed)
    dealer, rng = rng.below(players)
    blank = MasterState(options=options, rng=rng, players=tuple(Player() for _ in range(players)),
                        piles=Piles(), blue=(), table=(), fronts=((),) * players, round=0, dealer=dealer,
                        turn=dealer, stage=Stage.DRAW, kept=(False,) * players)
    return deal(blank, dealer)


def deal(state: MasterState, dealer: int) -> Result:
    """R-5, R-13: every card comes back but the hands kept with All mine (R-9); shuffle; deal every seat up to
    10 cards (a kept hand of more than 10 gets none and keeps them all); turn up the first discard, putting a
    joker or action card under the draw pile and turning the next one (R-5). Left of the dealer starts (C-7)."""
    n = len(state.players)
    kept_ids = {c.id for seat, p in enumerate(state.players) if state.kept[seat] for c in p.hand}
    deck, rng = state.rng.shuffled([c for c in DECK if c.id not in kept_ids])
    players = []
    for seat in range(n):
        hand = state.players[seat].hand if state.kept[seat] else ()
        need = max(0, HAND_SIZE - len(hand))
        hand, deck = hand + deck[:need], deck[need:]
        players.append(replace(state.players[seat], hand=hand, laid=False))
    # The draw pile's top is its last element; the card turned up is the top.
    draw = list(deck)
    events: list[MasterEvent] = []
    top: Card | None = None
    for _ in range(len(draw)):
        card = draw.pop()
        if card.is_natural:
            top = card
            break
        draw.insert(0, card)
        events.append(StarterReturned(card))
    first = next_seat(dealer, n)
    state = replace(state, rng=rng, players=tuple(players),
                    piles=Piles(draw=tuple(draw), discard=() if top is None else (top,)), blue=(), table=(),
                    fronts=((),) * n, round=state.round + 1, dealer=dealer, turn=first, stage=Stage.DRAW,
                    drawn=(), give=None, keep_pending=(), kept=(False,) * n)
    dealt = HandsDealt(state.round, dealer, first, tuple(p.hand for p in state.players), top)
    return state, (dealt, *events, TurnStarted(first))


# -- helpers ---------------------------------------------------------------------------------------------


def _with_player(state: MasterState, seat: int, player: Player, **changes: Any) -> MasterState:
    """``state`` with seat's player replaced and any other field changes, in one copy."""
    return replace(state, players=state.players[:seat] + (player,) + state.players[seat + 1:], **changes)


def _with_front(state: MasterState, seat: int, front: tuple[Card, ...]) -> MasterState:
    return replace(state, fronts=state.fronts[:seat] + (front,) + state.fronts[seat + 1:])


def has_in_front(state: MasterState, seat: int, action: str) -> bool:
    """R-7: whether a card of kind ``action`` lies in front of ``seat``."""
    front = state.fronts[seat]
    return bool(front) and any(is_action(c, action) for c in front)


def skip_targets(state: MasterState, seat: int) -> tuple[int, ...]:
    """R-7, R-10: the other players who have no Skip in front of them."""
    return tuple(s for s in range(len(state.players)) if s != seat and not has_in_front(state, s, SKIP))


def offer_slots(state: MasterState, taker: int) -> tuple[int, ...]:
    """R-11: who offers the five cards, in order — the left neighbour first, then round the other players in
    turn (2 players: B B B B B; 3: B C B C B; 4: B C D B C; 5: B C D E B; 6: B C D E F); a player with no
    card left to offer is passed over, so fewer than five may result."""
    n = len(state.players)
    others = [(taker + k) % n for k in range(1, n)]
    left = {s: len(state.players[s].hand) for s in others}
    slots: list[int] = []
    i = 0
    while len(slots) < OFFER_SIZE and any(left.values()):
        seat = others[i % len(others)]
        if left[seat]:
            slots.append(seat)
            left[seat] -= 1
        i += 1
    return tuple(slots)


def _stalled(state: MasterState) -> bool:
    return state.piles.rebuilds >= STALL_REBUILDS


# -- the turn (R-6) ------------------------------------------------------------------------------------


def awaited(state: MasterState) -> tuple[int, ...]:
    """Every seat whose decision the game waits for: the player on turn, or several seats at once while
    Give-me-five offers (R-11) or All-mine keep choices (R-9) are pending."""
    if state.stage is Stage.OVER:
        return ()
    if state.stage is Stage.OFFER:
        assert state.give is not None
        return tuple(sorted({s for s, c in zip(state.give.slots, state.give.offered, strict=True) if c is None}))
    if state.stage is Stage.KEEP:
        return state.keep_pending
    return (state.turn,)


_STAGE_OF: dict[type, tuple[Stage, ...]] = {
    Draw: (Stage.DRAW,),
    ChooseTakeTwo: (Stage.CHOOSE,),
    LayPhase: (Stage.PLAY,),
    Hit: (Stage.PLAY,),
    Discard: (Stage.PLAY,),
    PlayAction: (Stage.PLAY,),
    OfferCard: (Stage.OFFER,),
    TakeOffer: (Stage.TAKE,),
    KeepHand: (Stage.KEEP,),
}


def apply(state: MasterState, seat: int, command: MasterCommand) -> Result:
    """Apply one command of ``seat``: the turn of R-6 (draw, lay C-3, hit C-4, end it with a discard or an
    action card R-8..R-11), the Take-two keep choice (R-8), Give-me-five offers and pick (R-11) and the
    All-mine keep choice (R-9). Only an awaited seat may act (another seat answering raises ``NotYourTurn``);
    a command of the wrong kind for the stage raises ``WrongStage``."""
    if state.stage is Stage.OVER:
        raise GameOver("game_over", "the game has finished")
    if not 0 <= seat < len(state.players):
        raise InvalidCommand("invalid_seat", f"there is no seat {seat}")
    waiting = awaited(state)
    if seat not in waiting:
        raise NotYourTurn("not_your_turn", f"the game waits for seat(s) {list(waiting)}")
    stages = _STAGE_OF.get(type(command))
    if stages is None:
        raise InvalidCommand("unknown_command", f"unknown command {command!r}")
    if state.stage not in stages:
        raise WrongStage(_wrong_stage_code(state.stage), f"the game waits for {state.stage.value}, "
                         f"not {type(command).__name__}")
    match command:  # one class per arm: the most frequent first
        case Draw(pile=pile):
            return _draw(state, seat, pile)
        case Discard(card=card_id, target=target):
            return _discard(state, seat, card_id, target)
        case ChooseTakeTwo(keep=keep):
            return _choose_take_two(state, seat, keep)
        case LayPhase(groups=groups):
            player, table, laid = lay_phase(state.players[seat], seat, current_phase(state, seat), groups,
                                            state.table, RANGED_JOKERS)
            _keep_one(player)
            return _with_player(state, seat, player, table=table), (laid,)
        case Hit(card=card, group=group, end=end):
            player, table, event = hit(state.players[seat], seat, card, group, end, state.table, RANGED_JOKERS)
            _keep_one(player)
            return _with_player(state, seat, player, table=table), (event,)
        case PlayAction(card=card_id, target=target, ask=ask):
            return _play_action(state, seat, card_id, target, ask)
        case OfferCard(card=card_id):
            return _offer(state, seat, card_id)
        case TakeOffer(card=card_id):
            return _take_offer(state, seat, card_id)
        case KeepHand(keep=keep):
            return _keep_hand(state, seat, keep)
    raise InvalidCommand("unknown_command", f"unknown command {command!r}")  # pragma: no cover


def _wrong_stage_code(stage: Stage) -> str:
    return {Stage.DRAW: "draw_first", Stage.CHOOSE: "choose_take_two_first", Stage.PLAY: "already_drawn",
            Stage.OFFER: "offers_pending", Stage.TAKE: "take_an_offer", Stage.KEEP: "keep_choices_pending"
            }.get(stage, "wrong_stage")


def _keep_one(player: Player) -> None:
    """R-6: laying or hitting may never empty the hand — a card must be left to end the turn with."""
    if not player.hand:
        raise IllegalMove("must_keep_a_card", "keep a card to end your turn with (discard or action card)")


def _draw(state: MasterState, seat: int, pile: Pile) -> Result:
    """R-6: draw from the draw or the discard pile (never the blue pile); R-8: with Take two in front, draw two
    from the same pile; C-8 rebuild; C-12 stall."""
    two = has_in_front(state, seat, TAKE_TWO)
    want = 2 if two else 1
    cards: list[Card] = []
    events: list[MasterEvent] = []
    piles, rng = state.piles, state.rng
    if pile is Pile.DISCARD:
        if not piles.discard:
            raise IllegalMove("discard_pile_empty", "the discard pile is empty")
        # R-8 ruling: the top card, then the card below it; a pile of one card gives that card.
        cards = list(reversed(piles.discard[-want:]))
        piles = replace(piles, discard=piles.discard[:-len(cards)])
    else:
        for _ in range(want):
            card, piles, rng, rebuilt = pop_draw(piles, rng)
            events.extend(rebuilt)
            if card is None:
                break
            cards.append(card)
    if pile is Pile.DRAW and piles.rebuilds >= STALL_REBUILDS:
        # C-12: the draw that would need a third rebuild is not made; the round ends with nobody out.
        piles = replace(piles, draw=piles.draw + tuple(reversed(cards)))
        return _end_round(replace(state, piles=piles, rng=rng), None, tuple(events))
    if not cards:
        return replace(state, piles=piles, rng=rng, stage=Stage.PLAY), (*events, DrawFailed(seat))
    if len(cards) == 1:
        player = state.players[seat]
        state = _with_player(state, seat, replace(player, hand=player.hand + (cards[0],)), piles=piles, rng=rng,
                             stage=Stage.PLAY)
        return state, (*events, CardDrawn(seat, pile.value, cards[0]))
    state = replace(state, piles=piles, rng=rng, stage=Stage.CHOOSE, drawn=tuple(cards), drawn_from=pile.value)
    return state, (*events, TwoCardsDrawn(seat, pile.value, tuple(cards)))


def _choose_take_two(state: MasterState, seat: int, keep: int) -> Result:
    """R-8: keep one of the two cards; the other goes away without effect — a number card or joker onto the
    discard pile, an action card onto the blue pile."""
    kept = next((c for c in state.drawn if c.id == keep), None)
    if kept is None:
        raise IllegalMove("not_a_drawn_card", f"card {keep} is not one of the two cards drawn")
    returned = next(c for c in state.drawn if c.id != keep)
    player = replace(state.players[seat], hand=state.players[seat].hand + (kept,))
    changes: dict[str, Any] = {"stage": Stage.PLAY, "drawn": (), "drawn_from": "draw"}
    if is_action(returned):
        to_pile, changes["blue"] = "blue", state.blue + (returned,)
    else:
        to_pile, changes["piles"] = "discard", replace(state.piles, discard=state.piles.discard + (returned,))
    event = TakeTwoChosen(seat, state.drawn_from, kept, returned, to_pile)
    return _with_player(state, seat, player, **changes), (event,)


def _discard(state: MasterState, seat: int, card_id: int, target: int | None) -> Result:
    """R-6: end the turn by discarding a number card or joker (action cards never go on the discard pile);
    discarding the last card ends the round."""
    if target is not None:
        raise InvalidCommand("unexpected_target", "a discard names no target; play a Skip with play_action")
    player = state.players[seat]
    card, hand = take_card(player.hand, card_id)
    if is_action(card):
        raise IllegalMove("action_not_discardable", "an action card is played (play_action), never discarded")
    piles = state.piles.discarded(card)
    event = CardDiscarded(seat, card)
    if not hand:
        return _end_round(_with_player(state, seat, replace(player, hand=hand), piles=piles), seat, (event,))
    changes, passed = _next_turn(state)
    return _with_player(state, seat, replace(player, hand=hand), piles=piles, **changes), (event, *passed)


def _play_action(state: MasterState, seat: int, card_id: int, target: int | None, ask: bool) -> Result:
    """R-6: end the turn with an action card (R-7..R-11). The last card of the hand has no effect: it goes onto
    the blue pile and the round ends."""
    player = state.players[seat]
    card, hand = take_card(player.hand, card_id)
    if not is_action(card):
        raise IllegalMove("not_an_action_card", f"{card.label()} is not an action card; discard it instead")
    if target is not None and card.action != SKIP:
        raise InvalidCommand("unexpected_target", "only a Skip is played in front of another player")
    state = _with_player(state, seat, replace(player, hand=hand))
    if not hand:
        if target is not None and target not in skip_targets(state, seat):
            raise IllegalMove("invalid_skip_target", f"seat {target} cannot receive a Skip now")
        state = replace(state, blue=state.blue + (card,))
        return _end_round(state, seat, (ActionPlayed(seat, card, None, "no_effect"),))
    if card.action in IN_FRONT_OF_SELF:
        # each kind only once in front of a player; a second one goes to the blue pile without effect.
        if has_in_front(state, seat, str(card.action)):
            state = replace(state, blue=state.blue + (card,))
            event = ActionPlayed(seat, card, None, "no_effect")
        else:
            state = _with_front(state, seat, state.fronts[seat] + (card,))
            event = ActionPlayed(seat, card, seat, "placed")
        state, passed = _pass_turn(state)
        return state, (event, *passed)
    if card.action == SKIP:
        return _play_skip(state, seat, card, target)
    assert card.action == GIVE_ME_FIVE
    state = replace(state, blue=state.blue + (card,))
    slots = offer_slots(state, seat) if ask else ()
    if not slots:
        state, passed = _pass_turn(state)
        return state, (ActionPlayed(seat, card, None, "declined" if not ask else "no_effect"), *passed)
    give = GiveMeFive(seat, slots, (None,) * len(slots))
    state = replace(state, stage=Stage.OFFER, give=give)
    return state, (ActionPlayed(seat, card, None, "asked"), OffersAsked(seat, slots))


def _play_skip(state: MasterState, seat: int, card: Card, target: int | None) -> Result:
    """R-10: lay a Skip in front of another player who has none (R-7).

    Ruling: when no other player may receive a Skip, it is played onto the blue pile without effect
    (otherwise a hand of Skips only could never end its turn)."""
    targets = skip_targets(state, seat)
    if not targets:
        if target is not None:
            raise IllegalMove("invalid_skip_target", f"seat {target} cannot receive a Skip now")
        state = replace(state, blue=state.blue + (card,))
        event = ActionPlayed(seat, card, None, "no_effect")
    else:
        if target is None:
            raise IllegalMove("skip_needs_target", "name the player to skip")
        if target not in targets:
            code = "skip_already_in_front" if 0 <= target < len(state.players) and target != seat \
                else "invalid_skip_target"
            raise IllegalMove(code, f"seat {target} cannot receive a Skip now")
        state = _with_front(state, target, state.fronts[target] + (card,))
        event = ActionPlayed(seat, card, target, "placed")
    state, passed = _pass_turn(state)
    return state, (event, *passed)


def _next_turn(state: MasterState) -> tuple[dict[str, Any], Events]:
    """C-7: the next player clockwise; R-10: a player with a Skip in front only moves it to the blue pile.

    Returns the state changes and the events, so that callers copy the state once."""
    n = len(state.players)
    events: list[MasterEvent] = []
    fronts, blue = state.fronts, state.blue
    seat = next_seat(state.turn, n)
    for _ in range(n):
        skip = next((c for c in fronts[seat] if is_action(c, SKIP)), None) if fronts[seat] else None
        if skip is None:
            break
        front = tuple(c for c in fronts[seat] if c.id != skip.id)
        fronts, blue = fronts[:seat] + (front,) + fronts[seat + 1:], blue + (skip,)
        events.append(TurnSkipped(seat, skip))
        seat = next_seat(seat, n)
    changes: dict[str, Any] = {"turn": seat, "stage": Stage.DRAW, "give": None, "fronts": fronts, "blue": blue}
    return changes, (*events, TurnStarted(seat))


def _pass_turn(state: MasterState) -> Result:
    """C-7, R-10: pass the turn (see :func:`_next_turn`)."""
    changes, events = _next_turn(state)
    return replace(state, **changes), events


# -- Give me five (R-11) -------------------------------------------------------------------------------


def _offer(state: MasterState, seat: int, card_id: int) -> Result:
    """R-11: each offering seat lays cards of its own choice face up, one per slot it holds."""
    give = state.give
    assert give is not None
    player = state.players[seat]
    card, hand = take_card(player.hand, card_id)
    index = next(i for i, (s, c) in enumerate(zip(give.slots, give.offered, strict=True)) if s == seat and c is None)
    give = replace(give, offered=give.offered[:index] + (card,) + give.offered[index + 1:])
    state = _with_player(replace(state, give=give), seat, replace(player, hand=hand))
    if all(c is not None for c in give.offered):
        state = replace(state, stage=Stage.TAKE, turn=give.taker)
    return state, (CardOffered(seat, card),)


def _take_offer(state: MasterState, seat: int, card_id: int) -> Result:
    """R-11: the taker takes exactly one offered card; its owner at once draws a replacement from the draw
    pile (C-8; none if no card is left); every other offered card goes back to its owner; no discard."""
    give = state.give
    assert give is not None
    index = next((i for i, c in enumerate(give.offered) if c is not None and c.id == card_id), None)
    if index is None:
        raise IllegalMove("not_offered", f"card {card_id} is not on offer")
    owner = give.slots[index]
    players = list(state.players)
    for i, (s, c) in enumerate(zip(give.slots, give.offered, strict=True)):
        assert c is not None
        target = seat if i == index else s
        players[target] = replace(players[target], hand=players[target].hand + (c,))
    card = give.offered[index]
    assert card is not None
    state = replace(state, players=tuple(players), give=None, stage=Stage.PLAY)
    replacement, piles, rng, rebuilt = pop_draw(state.piles, state.rng)
    state = replace(state, piles=piles, rng=rng)
    if replacement is not None:
        holder = state.players[owner]
        state = _with_player(state, owner, replace(holder, hand=holder.hand + (replacement,)))
    events: Events = (OfferTaken(seat, card, owner), *rebuilt, ReplacementDrawn(owner, replacement))
    if _stalled(state):
        return _end_round(state, None, events)
    state, passed = _pass_turn(state)
    return state, (*events, *passed)


# -- round end, All mine, winning (R-9, R-12, R-13, R-14, C-12) ---------------------------------------


def _end_round(state: MasterState, went_out: int | None, events: Events) -> Result:
    """R-12 scoring (the one who went out scores nothing; ``went_out=None`` is a stalled round, C-12), C-5
    progress, R-14 / R-15 game end; otherwise the R-9 keep choices, then the next deal (R-13)."""
    n = len(state.players)
    points_fn = points_of(state.options)
    points = tuple(0 if seat == went_out else sum(points_fn(c) for c in state.players[seat].hand)
                   for seat in range(n))
    advanced = tuple(s for s in range(n) if state.players[s].laid)
    made = tuple(phase_number(state, s) if s in advanced else 0 for s in range(n))
    players = tuple(replace(p, score=p.score + points[s], phase=p.phase + (1 if s in advanced else 0))
                    for s, p in enumerate(state.players))
    state = replace(state, players=players, drawn=(), give=None,
                    history=state.history + (RoundScore(state.round, points, made),))
    totals = tuple(p.score for p in players)
    hands = tuple(p.hand for p in players)
    events = (*events, RoundEnded(state.round, went_out, points, totals, advanced, hands))
    seq = sequence(state.options)
    contenders: tuple[int, ...] = ()
    if state.options.fixed_rounds:
        if state.round >= len(seq):
            contenders = tuple(range(n))
    else:
        contenders = tuple(s for s in range(n) if players[s].phase >= len(seq))
    if contenders:
        # fewest minus points among those who made the last phase; Ruling: a tie is a shared win.
        best = min(totals[s] for s in contenders)
        winners = tuple(s for s in contenders if totals[s] == best)
        state = replace(state, stage=Stage.OVER, winners=winners, turn=winners[0])
        return state, (*events, GameEnded(winners, totals))
    choosers = tuple(s for s in range(n) if has_in_front(state, s, ALL_MINE) and state.players[s].hand)
    if choosers:
        state = replace(state, stage=Stage.KEEP, keep_pending=choosers, kept=(False,) * n)
        return state, (*events, KeepChoicesAsked(choosers))
    state, dealt = deal(replace(state, kept=(False,) * n), next_seat(state.dealer, n))
    return state, (*events, *dealt)


def _keep_hand(state: MasterState, seat: int, keep: bool) -> Result:
    """R-9: keep the whole hand or none of it; once every All-mine owner has chosen, the next round is dealt."""
    kept = state.kept[:seat] + (keep,) + state.kept[seat + 1:]
    pending = tuple(s for s in state.keep_pending if s != seat)
    state = replace(state, kept=kept, keep_pending=pending)
    event = HandKept(seat, keep, len(state.players[seat].hand))
    if pending:
        return state, (event,)
    state, dealt = deal(state, next_seat(state.dealer, len(state.players)))
    return state, (event, *dealt)


# -- legal commands and hints ----------------------------------------------------------------------------


def laydown(state: MasterState, seat: int) -> tuple[tuple[int, ...], ...] | None:
    """The solver's lay-down of ``seat``'s current phase (C-3, R-4) that leaves a card in hand (R-6)."""
    player = state.players[seat]
    if player.laid:
        return None
    groups = find_laydown(player.hand, current_phase(state, seat).requirement, RANGED_JOKERS)
    if groups is None or sum(len(g) for g in groups) >= len(player.hand):
        return None
    return groups


def legal_commands(state: MasterState, seat: int) -> tuple[MasterCommand, ...]:
    """Every legal command of ``seat`` now, for every awaited seat: the draw (R-6), the Take-two keep choice
    (R-8), offers and the pick (R-11), the All-mine choice (R-9), and in play the lay-down (C-3; the solver's
    one), hits (C-4, R-4) and each way to end the turn, a discard or an action card (R-6; a Skip only in front
    of a player who has none, R-7, R-10)."""
    if seat not in awaited(state):
        return ()
    player = state.players[seat]
    out: list[MasterCommand] = []
    match state.stage:
        case Stage.DRAW:
            out.append(_DRAW)
            if state.piles.discard:
                out.append(_DRAW_DISCARD)
        case Stage.CHOOSE:
            out.extend(ChooseTakeTwo(c.id) for c in state.drawn)
        case Stage.OFFER:
            out.extend(OfferCard(c.id) for c in player.hand)
        case Stage.TAKE:
            assert state.give is not None
            out.extend(TakeOffer(c.id) for c in state.give.offered if c is not None)
        case Stage.KEEP:
            out.extend((KeepHand(True), KeepHand(False)))
        case Stage.PLAY:
            groups = laydown(state, seat)
            if groups is not None:
                out.append(LayPhase(groups))
            if player.laid and len(player.hand) > 1:
                out.extend(Hit(c, g, e) for c, g, e in legal_hits(player.hand, state.table, RANGED_JOKERS))
            last = len(player.hand) == 1
            targets: tuple[int, ...] | None = None  # asked for once, and only for a Skip
            for card in player.hand:
                if card.kind is not CardKind.ACTION:
                    discard = _DISCARDS.get(card.id)
                    out.append(discard if discard is not None else Discard(card.id))
                    continue
                if card.action == SKIP and not last:
                    if targets is None:
                        targets = skip_targets(state, seat)
                    if targets:
                        out.extend(PlayAction(card.id, t) for t in targets)
                        continue
                if card.action == GIVE_ME_FIVE and not last:
                    out.extend((PlayAction(card.id, ask=True), PlayAction(card.id, ask=False)))
                else:
                    out.append(PlayAction(card.id))
    return tuple(out)


def action_plays(state: MasterState, seat: int, legal: Sequence[object]) -> list[dict[str, Any]]:
    """Where each legal action-card play of ``seat`` ends (R-6..R-11), read from its legal commands, for the
    play prompt: ``{"card", "target", "to"}`` once per card and target (a Give me five's ask or decline is
    one entry). ``to`` is the seat the card will lie in front of — the player's own for Take two and All mine
    (R-8, R-9), the target for a Skip (R-10) — or ``None`` for the blue pile: Give me five (R-11), a second
    Take two or All mine (R-7), a Skip nobody may receive, and the last card of the hand, which has no effect
    (R-6). It matches the ``target`` of the ``ActionPlayed`` the play produces."""
    hand = {c.id: c for c in state.players[seat].hand}
    last = len(hand) == 1
    out: list[dict[str, Any]] = []
    seen: set[tuple[int, int | None]] = set()
    for command in legal:
        if not isinstance(command, PlayAction) or (command.card, command.target) in seen:
            continue
        seen.add((command.card, command.target))
        card = hand[command.card]
        to: int | None = None
        if not last and card.action in IN_FRONT_OF_SELF:
            to = None if has_in_front(state, seat, str(card.action)) else seat
        elif not last and card.action == SKIP:
            to = command.target
        out.append({"card": command.card, "target": command.target, "to": to})
    return out


# Commands are immutable values: the ones every turn offers are made once.
_DRAW, _DRAW_DISCARD = Draw(Pile.DRAW), Draw(Pile.DISCARD)
_DISCARDS: dict[int, Discard] = {c.id: Discard(c.id) for c in DECK if not is_action(c)}


def hint(state: MasterState, seat: int) -> tuple[tuple[int, ...], ...] | None:
    """The solver's lay-down of ``seat``'s current phase from its hand, if any (C-3)."""
    if state.stage is Stage.OVER:
        return None
    return laydown(state, seat)
