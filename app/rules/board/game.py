"""The board-game flow: setup, the move and the eight actions, laying, discarding, round and game end
(B-4..B-11, C-3..C-8, C-12).

Hands hold the printed cards; ``state.turned`` says which of them are turned round (B-6). The validator and
the solver see a turned card as ``as_joker(card)``; on the table it lies in that joker form.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from ..core.cards import MAX_NUMBER, MIN_NUMBER, Card, as_joker
from ..core.commands import Discard, Draw, Hit, LayPhase, Pile
from ..core.errors import GameOver, IllegalMove, InvalidCommand, InvalidOptions, NotYourTurn, WrongStage
from ..core.events import CardDiscarded, CardDrawn, DrawFailed, GameEnded, HandsDealt
from ..core.groups import group_is_complete
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
from .material import (
    ACTIONS,
    BOARD_KINDS,
    CARD_BY_ID,
    DECK,
    DISCARD_START,
    FIELD_TYPES,
    HAND_SIZE,
    KEEP_MAX,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MIN_RING,
    PHASES,
    RING,
    SWAP_MAX,
    TURNED,
    action_of,
    take_count,
)
from .state import (
    ActionChosen,
    Ask,
    BoardCommand,
    BoardEvent,
    BoardOptions,
    BoardRoundEnded,
    BoardState,
    CardGiven,
    CardSearched,
    CardsKept,
    CardsSwapped,
    ChooseAction,
    DiceRolled,
    EndTurn,
    Give,
    JokerTurned,
    Keep,
    MarkerMoved,
    Move,
    NobodyHad,
    NumberAsked,
    PawnMoved,
    RollDice,
    Search,
    Stage,
    Swap,
    TurnStarted,
)

STALL_REBUILDS = 3  # C-12
MAX_RING = 64
Events = tuple[BoardEvent, ...]
Result = tuple[BoardState, Events]


# -- options and data (B-2, B-3, B-11) ---------------------------------------------------------------------


def ring(options: BoardOptions) -> tuple[str, ...]:
    """The ring of this table (B-2): the default or the host's own."""
    return RING if options.ring is None else options.ring


def phases(options: BoardOptions) -> tuple[Phase, ...]:
    """The phase list of this table (B-3, B-11)."""
    return table_phases(options.phases, PHASES, BOARD_KINDS)


def sequence(options: BoardOptions) -> tuple[int, ...]:
    """The phase numbers played, in order (B-11)."""
    return phase_sequence(phases(options), "all", options.phases_to_win)


def check_ring(raw: Sequence[str]) -> None:
    """B-2, B-11: a custom ring has 8..64 fields of known types, and at least one field that is not ``choice``."""
    if not MIN_RING <= len(raw) <= MAX_RING:
        raise InvalidOptions("ring", f"a ring has {MIN_RING}..{MAX_RING} fields (field 0 is the start), "
                                     f"got {len(raw)}")
    for i, field in enumerate(raw):
        if field not in FIELD_TYPES:
            raise InvalidOptions(f"ring[{i}]", f"unknown field type {field!r}; one of {list(FIELD_TYPES)}")
    if all(f == "choice" for f in raw):
        raise InvalidOptions("ring", "a ring needs at least one field that is not 'choice'")


def check_options(options: BoardOptions) -> None:
    """C-11, B-11: validate the options that do not depend on the number of players."""
    if options.ring is not None:
        check_ring(options.ring)
    listed = phases(options)
    check_phases_to_win(listed, "all", options.phases_to_win)
    if options.first_player is not None and not 0 <= options.first_player < MAX_PLAYERS:
        raise InvalidOptions("first_player", f"must be a seat 0..{MAX_PLAYERS - 1} or empty")


def check_players(options: BoardOptions, players: int) -> None:
    """B-4: the first player named in the options must be one of the seats at the table."""
    if options.first_player is not None and options.first_player >= players:
        raise InvalidOptions("first_player", f"must be a seat 0..{players - 1} or empty")


def phase_number(state: BoardState, seat: int) -> int:
    """The phase (1-based number in the phase list) ``seat`` plays this round (C-5)."""
    return seat_phase(sequence(state.options), state.players[seat].phase)


def current_phase(state: BoardState, seat: int) -> Phase:
    """The phase ``seat`` must lay this round (C-5, B-3)."""
    return phases(state.options)[phase_number(state, seat) - 1]


# -- cards ----------------------------------------------------------------------------------------------


def present(state: BoardState, card: Card) -> Card:
    """A hand card as the rules see it: a turned card is a joker (B-6)."""
    return as_joker(card) if card.id in state.turned else card


def presented_hand(state: BoardState, seat: int) -> tuple[Card, ...]:
    """``seat``'s hand as the validator and the solver see it (B-6)."""
    return tuple(present(state, c) for c in state.players[seat].hand)


def printed(card: Card) -> Card:
    """The printed number card behind a (possibly turned) card (B-1)."""
    return CARD_BY_ID[card.id]


def all_cards(state: BoardState) -> list[Card]:
    """Every card of the game, each once, in its printed form: hands, draw pile, discard pile, table (B-1)."""
    out = [c for p in state.players for c in p.hand]
    out.extend(state.piles.draw)
    out.extend(state.piles.discard)
    out.extend(printed(c) for g in state.table for c in g.cards)
    return out


def hidden_from(state: BoardState, seat: int | None) -> set[int]:
    """The card ids ``seat`` (``None`` = spectator) must not see (C-9).

    Exceptions (B-5, B-6): a turned card's face is visible to everyone, and the player who is searching
    the discard pile sees all of it while searching.
    """
    hidden = {c.id for c in state.piles.draw}
    searching = state.stage is Stage.SEARCH and seat == state.turn
    if not searching:
        hidden |= {c.id for c in state.piles.discard[:-1]}
    for s, p in enumerate(state.players):
        if s != seat:
            hidden |= {c.id for c in p.hand if c.id not in state.turned}
    return hidden


# -- setup (B-4, B-10) -----------------------------------------------------------------------------------


def new_game(seed: int, players: int, options: BoardOptions) -> Result:
    """B-4: pawns on field 0, markers on phase 1, first player from the options or at random (C-10)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidOptions("players", f"the board game is for {MIN_PLAYERS}-{MAX_PLAYERS} players")
    check_options(options)
    check_players(options, players)
    rng = Rng.from_seed(seed)
    if options.first_player is None:
        first, rng = rng.below(players)
    else:
        first = options.first_player
    blank = BoardState(options=options, rng=rng, players=tuple(Player() for _ in range(players)), piles=Piles(),
                       table=(), pawns=(0,) * players, round=0, turn=first, stage=Stage.ROLL)
    return deal(blank, first)


def deal(state: BoardState, first: int) -> Result:
    """B-4, B-10: shuffle every card not kept in a hand, deal each player up to 10 one at a time from
    ``first``, lay a 5-card discard pile (only its top visible); kept turned cards stay turned."""
    n = len(state.players)
    kept = {c.id for p in state.players for c in p.hand}
    deck, rng = state.rng.shuffled(tuple(c for c in DECK if c.id not in kept))
    hands = [list(p.hand) for p in state.players]
    order = [(first + i) % n for i in range(n)]
    pos = 0
    for _ in range(HAND_SIZE):
        for seat in order:
            if len(hands[seat]) < HAND_SIZE:
                hands[seat].append(deck[pos])
                pos += 1
    discard = deck[pos:pos + DISCARD_START]
    draw = deck[pos + DISCARD_START:]
    players = tuple(replace(p, hand=tuple(hands[s]), laid=False) for s, p in enumerate(state.players))
    state = replace(state, rng=rng, players=players, piles=Piles(draw=draw, discard=discard), table=(),
                    round=state.round + 1, turn=first, stage=Stage.ROLL, turned=state.turned & kept, dice=(),
                    to_take=0, again=False, further=False, asked=None, giver=None, keepers=(), round_ender=None)
    shown = tuple(presented_hand(state, s) for s in range(n))
    return state, (HandsDealt(state.round, None, first, shown, discard[-1] if discard else None),
                   TurnStarted(first))


# -- dispatch --------------------------------------------------------------------------------------------


def awaited(state: BoardState) -> tuple[int, ...]:
    """The seats whose decision the game waits for: the player in turn, the asked player (B-5 ask), or every
    player choosing the cards to keep (B-8) at once."""
    if state.stage is Stage.OVER:
        return ()
    if state.stage is Stage.KEEP:
        return state.keepers
    if state.stage is Stage.GIVE:
        assert state.giver is not None
        return (state.giver,)
    return (state.turn,)


def apply(state: BoardState, seat: int, command: BoardCommand) -> Result:
    """Apply one command of ``seat`` (B-5, B-7, B-8).

    C-12: the command whose draw makes the third rebuild of the draw pile this round ends the round, stalled,
    as soon as its own action is done (a pending ``again`` turn is lost): nobody goes out and nobody gets the
    two fields, exactly as in the card games, where the draw that needs the third rebuild ends the round.
    """
    if state.stage is Stage.OVER:
        raise GameOver("game_over", "the game has finished")
    if not 0 <= seat < len(state.players):
        raise InvalidCommand("invalid_seat", f"there is no seat {seat}")
    if seat not in awaited(state):
        raise NotYourTurn("not_your_turn", f"the game waits for seat(s) {list(awaited(state))}")
    after, events = _dispatch(state, seat, command)
    if (after.piles.rebuilds >= STALL_REBUILDS > state.piles.rebuilds and after.round == state.round
            and after.stage not in (Stage.KEEP, Stage.OVER)):
        after, ended = end_round(after, None, after.turn)
        events = (*events, *ended)
    return after, events


def _wrong(state: BoardState, command: BoardCommand) -> WrongStage:
    return WrongStage("wrong_stage", f"{type(command).__name__} is not possible now: "
                                     f"the game waits for '{state.stage.value}'")


def _dispatch(state: BoardState, seat: int, command: BoardCommand) -> Result:
    stage = state.stage
    match command:
        case RollDice():
            if stage is not Stage.ROLL:
                raise _wrong(state, command)
            dice, rng = state.rng.dice(2)
            return replace(state, rng=rng, dice=dice, stage=Stage.MOVE), (DiceRolled(seat, dice),)
        case Move(steps=steps):
            if stage is not Stage.MOVE:
                raise _wrong(state, command)
            return _move(state, seat, steps)
        case ChooseAction(action=action):
            if stage is not Stage.CHOOSE:
                raise _wrong(state, command)
            return _choose(state, seat, action)
        case Draw(pile=pile):
            if stage is not Stage.TAKE:
                raise _wrong(state, command)
            return _take(state, seat, pile)
        case Search(card=card_id):
            if stage is not Stage.SEARCH:
                raise _wrong(state, command)
            return _search(state, seat, card_id)
        case Swap(cards=cards):
            if stage is not Stage.SWAP:
                raise _wrong(state, command)
            return _swap(state, seat, cards)
        case Ask(number=number, direction=direction):
            if stage is not Stage.ASK:
                raise _wrong(state, command)
            return _ask(state, seat, number, direction)
        case Give(card=card_id):
            if stage is not Stage.GIVE:
                raise _wrong(state, command)
            assert state.asked is not None
            if card_id not in {c.id for c in ask_candidates(state, seat, state.asked)}:
                raise IllegalMove("must_give_asked_number",
                                  f"give a card of the number asked for ({state.asked}) from your hand")
            return _give(state, seat, card_id)
        case LayPhase(groups=groups):
            if stage is not Stage.PLAY:
                raise _wrong(state, command)
            return _lay(state, seat, groups)
        case Hit(card=card_id, group=group, end=end):
            if stage is not Stage.PLAY:
                raise _wrong(state, command)
            if len(state.players[seat].hand) < 2:
                raise IllegalMove("last_card", "you may not hit your last card: discard it (B-5)")
            player = replace(state.players[seat], hand=presented_hand(state, seat))
            player, table, event = hit(player, seat, card_id, group, end, state.table, TURNED)
            player = replace(player, hand=tuple(printed(c) for c in player.hand))
            return _with_player(replace(state, table=table), seat, player), (event,)
        case Discard(card=card_id, target=target):
            if stage not in (Stage.PLAY, Stage.DISCARD2):
                raise _wrong(state, command)
            if target is not None:
                raise InvalidCommand("unexpected_target", "a discard names no target in the board game")
            return _discard(state, seat, card_id)
        case EndTurn():
            if stage is Stage.DISCARD2 or (stage is Stage.PLAY and not state.players[seat].hand):
                return end_turn(state)
            raise _wrong(state, command)
        case Keep(cards=cards):
            if stage is not Stage.KEEP:
                raise _wrong(state, command)
            return _keep(state, seat, cards)
    raise InvalidCommand("unknown_command", f"unknown command {command!r}")


def _with_player(state: BoardState, seat: int, player: Player) -> BoardState:
    return replace(state, players=state.players[:seat] + (player,) + state.players[seat + 1:])


def _add_to_hand(state: BoardState, seat: int, card: Card) -> BoardState:
    player = state.players[seat]
    return _with_player(state, seat, replace(player, hand=player.hand + (card,)))


def _draw_into(state: BoardState, seat: int) -> Result:
    """Give ``seat`` the top card of the draw pile (C-8 rebuild; nothing if no card is left)."""
    card, piles, rng, rebuilt = pop_draw(state.piles, state.rng)
    state = replace(state, piles=piles, rng=rng)
    if card is None:
        return state, (*rebuilt, DrawFailed(seat))
    return _add_to_hand(state, seat, card), (*rebuilt, CardDrawn(seat, Pile.DRAW.value, card))


# -- step 1: the move (B-5) -----------------------------------------------------------------------------


def move_options(dice: Sequence[int]) -> tuple[int, ...]:
    """B-5: one die's value, or on a double also the doubled value."""
    values = set(dice)
    if len(dice) == 2 and dice[0] == dice[1]:
        values.add(2 * dice[0])
    return tuple(sorted(values))


def walk(pawns: Sequence[int], seat: int, steps: int, size: int) -> int:
    """B-5: move clockwise ``steps`` fields; fields occupied by other pawns are jumped and not counted."""
    occupied = {p for s, p in enumerate(pawns) if s != seat}
    pos = pawns[seat]
    while steps > 0:
        pos = (pos + 1) % size
        if pos not in occupied:
            steps -= 1
    return pos


def _move_pawn(state: BoardState, seat: int, field: int) -> BoardState:
    return replace(state, pawns=state.pawns[:seat] + (field,) + state.pawns[seat + 1:])


def _move(state: BoardState, seat: int, steps: int) -> Result:
    if steps not in move_options(state.dice):
        raise IllegalMove("not_a_die", f"move by one die ({' or '.join(map(str, move_options(state.dice)))})")
    fields = ring(state.options)
    start = state.pawns[seat]
    field = walk(state.pawns, seat, steps, len(fields))
    state = _move_pawn(state, seat, field)
    state, events = _land(state, seat, field)
    return state, (PawnMoved(seat, start, field, steps, fields[field]), *events)


def choosable(state: BoardState, seat: int) -> tuple[str, ...]:
    """B-5 choice: the other action types with at least one field not occupied by another pawn."""
    out = []
    for action in ACTIONS:
        if action != "choice" and next_free_field(state, seat, action) is not None:
            out.append(action)
    return tuple(out)


def next_free_field(state: BoardState, seat: int, action: str) -> int | None:
    """B-5 choice: the next field clockwise of type ``action`` that no other pawn occupies."""
    fields = ring(state.options)
    occupied = {p for s, p in enumerate(state.pawns) if s != seat}
    here = state.pawns[seat]
    for step in range(1, len(fields) + 1):
        i = (here + step) % len(fields)
        if action_of(fields[i]) == action and i not in occupied:
            return i
    return None


def _choose(state: BoardState, seat: int, action: str) -> Result:
    if action not in choosable(state, seat):
        code = "action_unknown" if action not in ACTIONS else "action_not_available"
        raise IllegalMove(code, f"pick one of {list(choosable(state, seat))}")
    field = next_free_field(state, seat, action)
    assert field is not None
    start = state.pawns[seat]
    state = _move_pawn(state, seat, field)
    state, events = _land(state, seat, field)
    return state, (ActionChosen(seat, action, start, field, ring(state.options)[field]), *events)


def _land(state: BoardState, seat: int, field: int) -> Result:
    """B-5: carry out the action of the field landed on."""
    kind = ring(state.options)[field]
    action = action_of(kind)
    if action == "+N":
        return replace(state, stage=Stage.TAKE, to_take=take_count(kind)), ()
    if action == "again":
        return replace(state, stage=Stage.TAKE, to_take=1, again=True), ()
    if action == "search":
        return replace(state, stage=Stage.SEARCH if state.piles.discard else Stage.PLAY), ()
    if action == "swap":
        return replace(state, stage=Stage.SWAP if state.players[seat].hand else Stage.PLAY), ()
    if action == "ask":
        return replace(state, stage=Stage.ASK), ()
    if action == "choice":
        return replace(state, stage=Stage.CHOOSE if choosable(state, seat) else Stage.PLAY), ()
    if action == "all":
        return _all(state, seat)
    assert action == "joker"
    return _joker(state, seat)


# -- the actions (B-5) ----------------------------------------------------------------------------------


def _take(state: BoardState, seat: int, pile: Pile) -> Result:
    """B-5 +N and again: one card from the top of either pile, the pile chosen per card."""
    events: Events
    if pile is Pile.DISCARD:
        if not state.piles.discard:
            raise IllegalMove("discard_pile_empty", "the discard pile is empty")
        top = state.piles.discard[-1]
        state = _add_to_hand(replace(state, piles=replace(state.piles, discard=state.piles.discard[:-1])),
                             seat, top)
        events = (CardDrawn(seat, pile.value, top),)
    else:
        state, events = _draw_into(state, seat)
    left = state.to_take - 1
    return replace(state, to_take=left, stage=Stage.TAKE if left > 0 else Stage.PLAY), events


def _search(state: BoardState, seat: int, card_id: int) -> Result:
    """B-5 search: take any one card of the discard pile; the rest keeps its order."""
    pile = state.piles.discard
    for i, card in enumerate(pile):
        if card.id == card_id:
            state = replace(state, piles=replace(state.piles, discard=pile[:i] + pile[i + 1:]), stage=Stage.PLAY)
            return _add_to_hand(state, seat, card), (CardSearched(seat, card),)
    raise IllegalMove("card_not_in_discard_pile", f"card {card_id} is not in the discard pile")


def _swap(state: BoardState, seat: int, card_ids: Sequence[int]) -> Result:
    """B-5 swap: 1-4 cards onto the discard pile in the chosen order, then one more from the draw pile."""
    hand = state.players[seat].hand
    if not 1 <= len(card_ids) <= min(SWAP_MAX, len(hand)):
        raise IllegalMove("swap_count", f"swap 1..{min(SWAP_MAX, len(hand))} cards")
    if len(set(card_ids)) != len(card_ids):
        raise IllegalMove("duplicate_card", "a card can be swapped only once")
    out = []
    for cid in card_ids:
        card, hand = take_card(hand, cid)
        out.append(card)
    state = replace(state, piles=replace(state.piles, discard=state.piles.discard + tuple(out)),
                    turned=state.turned - set(card_ids), stage=Stage.PLAY)
    state = _with_player(state, seat, replace(state.players[seat], hand=hand))
    events: Events = (CardsSwapped(seat, tuple(out)),)
    for _ in range(len(out) + 1):
        state, drawn = _draw_into(state, seat)
        events = (*events, *drawn)
    return state, events


def _all(state: BoardState, seat: int) -> Result:
    """B-5 all: the player takes the top card of the draw pile, then every other player clockwise."""
    events: Events = ()
    n = len(state.players)
    for i in range(n):
        state, drawn = _draw_into(state, (seat + i) % n)
        events = (*events, *drawn)
    return replace(state, stage=Stage.PLAY), events


def _joker(state: BoardState, seat: int) -> Result:
    """B-5 joker, B-6: the top card of the draw pile is turned round and becomes a joker for its holder."""
    card, piles, rng, rebuilt = pop_draw(state.piles, state.rng)
    state = replace(state, piles=piles, rng=rng, stage=Stage.PLAY)
    if card is None:
        return state, (*rebuilt, DrawFailed(seat))
    state = replace(_add_to_hand(state, seat, card), turned=state.turned | {card.id})
    return state, (*rebuilt, JokerTurned(seat, card))


def ask_candidates(state: BoardState, seat: int, number: int) -> tuple[Card, ...]:
    """B-5 ask: the cards ``seat`` may give for ``number``: its natural cards of that number, or, if it has
    none, its turned cards whose visible face shows that number."""
    hand = state.players[seat].hand
    natural = tuple(c for c in hand if c.number == number and c.id not in state.turned)
    if natural:
        return natural
    return tuple(c for c in hand if c.number == number and c.id in state.turned)


def asked_order(seat: int, direction: str, players: int) -> tuple[int, ...]:
    """B-5 ask: the other players in the asked direction (left = clockwise, C-7)."""
    step = 1 if direction == "left" else -1
    return tuple((seat + step * i) % players for i in range(1, players))


def _ask(state: BoardState, seat: int, number: int, direction: str) -> Result:
    if not MIN_NUMBER <= number <= MAX_NUMBER:
        raise IllegalMove("no_such_number", f"ask for a number {MIN_NUMBER}..{MAX_NUMBER}")
    asked: Events = (NumberAsked(seat, number, direction),)
    for other in asked_order(seat, direction, len(state.players)):
        cards = ask_candidates(state, other, number)
        if len(cards) == 1:
            state, events = _give(replace(state, asked=number, giver=other), other, cards[0].id)
            return state, (*asked, *events)
        if cards:
            return replace(state, stage=Stage.GIVE, asked=number, giver=other), asked
    state, events = _draw_into(replace(state, stage=Stage.PLAY), seat)
    return state, (*asked, NobodyHad(seat, number), *events)


def _give(state: BoardState, giver: int, card_id: int) -> Result:
    """B-5 ask: the card goes to the asker (a turned card is ordinary again there, B-6); the giver at once
    takes the top card of the draw pile."""
    card, hand = take_card(state.players[giver].hand, card_id)
    was_joker = card.id in state.turned
    state = _with_player(state, giver, replace(state.players[giver], hand=hand))
    state = replace(_add_to_hand(state, state.turn, card), turned=state.turned - {card.id}, stage=Stage.PLAY,
                    asked=None, giver=None)
    state, drawn = _draw_into(state, giver)
    return state, (CardGiven(giver, state.turn, card, was_joker), *drawn)


# -- steps 2 and 3 (B-5, B-6, B-7) ----------------------------------------------------------------------


def _lay(state: BoardState, seat: int, groups: tuple[tuple[int, ...], ...]) -> Result:
    """C-3, B-6: lay the whole phase, turned cards as jokers; never the last card of the hand (B-5)."""
    if sum(len(g) for g in groups) >= len(state.players[seat].hand):
        raise IllegalMove("last_card", "you may not lay your last card: one card must stay for the discard")
    player = replace(state.players[seat], hand=presented_hand(state, seat))
    player, table, event = lay_phase(player, seat, current_phase(state, seat), groups, state.table, TURNED)
    player = replace(player, hand=tuple(printed(c) for c in player.hand))
    return _with_player(replace(state, table=table), seat, player), (event,)


def two_discards(state: BoardState, seat: int) -> bool:
    """B-7: every laid group is complete and ``seat`` has laid its phase."""
    return state.players[seat].laid and bool(state.table) and all(group_is_complete(g) for g in state.table)


def _discard(state: BoardState, seat: int, card_id: int) -> Result:
    """B-5 step 3: discard face up; an empty hand ends the round (B-8); B-7 may allow a second discard."""
    player = state.players[seat]
    card, hand = take_card(player.hand, card_id)
    piles = replace(state.piles, discard=state.piles.discard + (card,))
    first = state.stage is Stage.PLAY
    state = _with_player(replace(state, piles=piles, turned=state.turned - {card.id}), seat,
                         replace(player, hand=hand))
    events: Events = (CardDiscarded(seat, card),)
    if not hand:
        state, more = end_round(state, seat, seat)
        return state, (*events, *more)
    if first and two_discards(state, seat):
        return replace(state, stage=Stage.DISCARD2), events
    state, more = end_turn(state)
    return state, (*events, *more)


def end_turn(state: BoardState) -> Result:
    """C-7: the next player clockwise, or the same player once more after an ``again`` field (B-5)."""
    if state.again:
        seat = state.turn
        return replace(state, again=False, further=True, stage=Stage.ROLL, dice=()), (TurnStarted(seat, True),)
    seat = next_seat(state.turn, len(state.players))
    return replace(state, turn=seat, further=False, stage=Stage.ROLL, dice=()), (TurnStarted(seat),)


# -- round and game end (B-8, B-9, B-10, C-12) ---------------------------------------------------------


def end_round(state: BoardState, went_out: int | None, ender: int) -> Result:
    """B-8 scoring in its order, B-9 game end at once, then the keep choices or the next deal (B-10).

    The player who went out moves two fields; then, clockwise from the ender's left, every other player
    with their phase down moves one. ``went_out=None`` is a stalled round (C-12): nobody gets the two fields.
    """
    n = len(state.players)
    finish = len(sequence(state.options))
    markers = [p.phase for p in state.players]
    events: list[BoardEvent] = []
    order: list[tuple[int, int]] = []
    if went_out is not None:
        order.append((went_out, 2))
    for i in range(1, n + 1):
        s = (ender + i) % n
        if s != went_out and state.players[s].laid:
            order.append((s, 1))
    winner: int | None = None
    moved = [0] * n
    for s, fields in order:
        moved[s] = min(markers[s] + fields, finish) - markers[s]
        markers[s] += moved[s]
        events.append(MarkerMoved(s, fields, markers[s]))
        if markers[s] >= finish:
            winner = s
            break
    made = tuple(phase_number(state, s) if p.laid else 0 for s, p in enumerate(state.players))
    row = RoundScore(state.round, tuple(moved), made)
    players = tuple(replace(p, phase=markers[s]) for s, p in enumerate(state.players))
    left = tuple(presented_hand(state, s) for s in range(n))  # turned cards shown as jokers (B-6)
    state = replace(state, players=players, again=False, dice=(), to_take=0, asked=None, giver=None,
                    history=state.history + (row,))
    if winner is not None:
        state = replace(state, stage=Stage.OVER, winners=(winner,))
        events.append(BoardRoundEnded(state.round, went_out, tuple(markers), (), left))
        events.append(GameEnded((winner,), tuple(markers)))
        return state, tuple(events)
    # B-8: the players with their phase down discard their hands; the others choose up to five cards.
    gone: list[Card] = []
    kept_players = []
    for p in players:
        if p.laid:
            gone.extend(p.hand)
            p = replace(p, hand=())
        kept_players.append(p)
    keepers = tuple(s for s, p in enumerate(kept_players) if p.hand)
    piles = replace(state.piles, discard=tuple(gone) + state.piles.discard)  # below the visible top
    state = replace(state, players=tuple(kept_players), piles=piles, round_ender=ender,
                    turned=state.turned - {c.id for c in gone})
    events.append(BoardRoundEnded(state.round, went_out, tuple(markers), keepers, left))
    if keepers:
        return replace(state, stage=Stage.KEEP, keepers=keepers), tuple(events)
    state, dealt = deal(state, next_seat(ender, n))
    return state, (*events, *dealt)


def _keep(state: BoardState, seat: int, card_ids: Sequence[int]) -> Result:
    """B-8: keep up to five cards (turned cards stay turned); the rest of the hand is discarded."""
    if len(card_ids) > KEEP_MAX:
        raise IllegalMove("keep_too_many", f"keep at most {KEEP_MAX} cards")
    if len(set(card_ids)) != len(card_ids):
        raise IllegalMove("duplicate_card", "a card can be kept only once")
    hand = state.players[seat].hand
    ids = {c.id for c in hand}
    for cid in card_ids:
        if cid not in ids:
            raise IllegalMove("card_not_in_hand", f"card {cid} is not in your hand")
    chosen = set(card_ids)
    kept = tuple(c for c in hand if c.id in chosen)
    gone = tuple(c for c in hand if c.id not in chosen)
    state = _with_player(state, seat, replace(state.players[seat], hand=kept))
    state = replace(state, piles=replace(state.piles, discard=gone + state.piles.discard),
                    turned=state.turned - {c.id for c in gone},
                    keepers=tuple(s for s in state.keepers if s != seat))
    events: Events = (CardsKept(seat, kept),)
    if state.keepers:
        return state, events
    assert state.round_ender is not None
    state, dealt = deal(state, next_seat(state.round_ender, len(state.players)))
    return state, (*events, *dealt)


# -- legal commands --------------------------------------------------------------------------------------


def swap_choices(hand: Sequence[Card]) -> list[tuple[int, ...]]:
    """A representative list of swaps (B-5): every single card, every pair, and runs of three and four
    neighbouring hand cards. ``apply`` accepts any 1-4 cards in any order."""
    ids = [c.id for c in hand]
    out: list[tuple[int, ...]] = [(i,) for i in ids]
    out.extend(itertools.combinations(ids, 2))
    for size in (3, 4):
        out.extend(tuple(ids[i:i + size]) for i in range(len(ids) - size + 1))
    return out


def keep_choices(hand: Sequence[Card]) -> list[tuple[int, ...]]:
    """A representative list of keep choices (B-8): nothing, every single card, and every set of five
    (the whole hand if it has five or fewer) when there are at most 252 of them, else every five
    neighbouring cards. ``apply`` accepts any subset of up to five."""
    ids = [c.id for c in hand]
    out: list[tuple[int, ...]] = [()]
    out.extend((i,) for i in ids)
    if len(ids) <= KEEP_MAX:
        if len(ids) > 1:
            out.append(tuple(ids))
    elif len(ids) <= 10:
        out.extend(itertools.combinations(ids, KEEP_MAX))
    else:
        out.extend(tuple(ids[i:i + KEEP_MAX]) for i in range(len(ids) - KEEP_MAX + 1))
    return out


def can_lay(state: BoardState, seat: int) -> tuple[tuple[int, ...], ...] | None:
    """The solver's lay-down of the current phase, if one leaves a card to discard (C-3, B-5, B-6)."""
    player = state.players[seat]
    phase = current_phase(state, seat)
    if player.laid or sum(g.size for g in phase.groups) >= len(player.hand):
        return None
    return find_laydown(presented_hand(state, seat), phase.requirement, TURNED)


def legal_commands(state: BoardState, seat: int) -> tuple[BoardCommand, ...]:
    """Every legal command of ``seat`` now (B-5, B-7, B-8). Lay-downs: the solver's one (C-3); swaps and
    keeps: a representative list, see :func:`swap_choices`, :func:`keep_choices`."""
    if seat not in awaited(state):
        return ()
    stage = state.stage
    hand = state.players[seat].hand
    out: list[BoardCommand] = []
    if stage is Stage.ROLL:
        out.append(RollDice())
    elif stage is Stage.MOVE:
        out.extend(Move(s) for s in move_options(state.dice))
    elif stage is Stage.CHOOSE:
        out.extend(ChooseAction(a) for a in choosable(state, seat))
    elif stage is Stage.TAKE:
        out.append(Draw(Pile.DRAW))
        if state.piles.discard:
            out.append(Draw(Pile.DISCARD))
    elif stage is Stage.SEARCH:
        out.extend(Search(c.id) for c in state.piles.discard)
    elif stage is Stage.SWAP:
        out.extend(Swap(ids) for ids in swap_choices(hand))
    elif stage is Stage.ASK:
        out.extend(Ask(n, d) for n in range(MIN_NUMBER, MAX_NUMBER + 1) for d in ("left", "right"))
    elif stage is Stage.GIVE:
        assert state.asked is not None
        out.extend(Give(c.id) for c in ask_candidates(state, seat, state.asked))
    elif stage is Stage.PLAY:
        groups = can_lay(state, seat)
        if groups is not None:
            out.append(LayPhase(groups))
        if state.players[seat].laid and len(hand) >= 2:
            out.extend(Hit(c, g, e) for c, g, e in legal_hits(presented_hand(state, seat), state.table, TURNED))
        out.extend(Discard(c.id) for c in hand)
        if not hand:
            out.append(EndTurn())
    elif stage is Stage.DISCARD2:
        out.extend(Discard(c.id) for c in hand)
        out.append(EndTurn())
    elif stage is Stage.KEEP:
        out.extend(Keep(ids) for ids in keep_choices(hand))
    return tuple(out)


def hint(state: BoardState, seat: int) -> tuple[tuple[int, ...], ...] | None:
    """The solver's lay-down of ``seat``'s current phase, if any (C-3)."""
    if state.stage is not Stage.PLAY or seat != state.turn:
        return None
    return can_lay(state, seat)
