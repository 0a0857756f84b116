/* Cards, groups and events in pictures and words. Every card shows its number, its colour AND a colour
   symbol (so colour-blind players can play), and carries an aria-label with its name. */
import { P10 } from "./common.js";

(function (P10) {
  const { t, el } = P10;
  const SYMBOL = { red: "●", yellow: "▲", green: "■", blue: "◆" };
  // All mine's hand is drawn (icons.svg): the emoji shows as an empty box where no emoji font is installed.
  const ACTION_ICON = { skip: "⊘", take_two: "+2", all_mine: () => P10.icon("hand"), give_me_five: "5" };
  const COLOUR_ORDER = { red: 0, yellow: 1, green: 2, blue: 3 };

  P10.SYMBOL = SYMBOL;

  function colourName(c) { return t("colour." + c); }

  /** A card in words, e.g. "red 7", "wild", "joker 1–6 red/blue", "skip", "joker (green 5)". */
  P10.cardLabel = function (card) {
    if (!card) return t("card.hidden");
    if (card.kind === "number") return t("card.number", { colour: colourName(card.colour), number: card.number });
    if (card.kind === "action") return t("action." + card.action);
    const ranged = card.low !== undefined && (card.low !== 1 || card.high !== 12);
    const coloured = card.colours && card.colours.length < 4;
    if (card.number !== undefined && card.colour) {
      return t("card.turned", { face: t("card.number", { colour: colourName(card.colour), number: card.number }) });
    }
    if (!ranged && !coloured) return t("card.wild");
    const parts = [t("card.joker")];
    if (ranged) parts.push(card.low + "–" + card.high);
    if (coloured) parts.push(card.colours.map(colourName).join("/"));
    return parts.join(" ");
  };

  /** The card a Master event names by its kind and English label only ("skip", "take two", "joker 1-6 red/blue",
      app/rules/core/cards.py ``Card.label``), as a card the page can word in its own language; null without one. */
  P10.labelledCard = function (kind, label) {
    const words = String(label || "").trim().split(/\s+/);
    if (kind === "action") return { kind: "action", action: words.join("_") };
    if (kind === "number") return { kind: "number", colour: words[0], number: parseInt(words[1], 10) };
    if (kind !== "joker") return null;
    const card = { kind: "joker" };
    for (const part of words.slice(1)) {
      const range = /^(\d+)-(\d+)$/.exec(part);
      if (range) { card.low = parseInt(range[1], 10); card.high = parseInt(range[2], 10); } else card.colours = part.split("/");
    }
    return card;
  };

  /** A turned card (a board game joker that keeps its printed face) by its face: "green 2". */
  function faceLabel(card) {
    if (card && card.number !== undefined && card.colour) {
      return t("card.number", { colour: colourName(card.colour), number: card.number });
    }
    return P10.cardLabel(card);
  }

  /** Sort keys for the hand: by number then colour, or by colour then number; jokers and actions last. */
  P10.sortCards = function (cards, mode) {
    const rank = (c) => (c.kind === "number" ? 0 : c.kind === "joker" ? 1 : 2);
    return [...cards].sort((a, b) => {
      if (rank(a) !== rank(b)) return rank(a) - rank(b);
      const na = a.number || a.low || 0, nb = b.number || b.low || 0;
      const ca = COLOUR_ORDER[a.colour] ?? 9, cb = COLOUR_ORDER[b.colour] ?? 9;
      if (mode === "colour") return ca - cb || na - nb || a.id - b.id;
      return na - nb || ca - cb || (a.action || "").localeCompare(b.action || "") || a.id - b.id;
    });
  };

  /** A special card's caption ("SKIP", "JOKER"): a short word of the locale's "cap." keys on one line, its size
      made by its length to fit the card's width (app.css reads --cap-len) in every language. */
  function capEl(key) {
    const text = t(key);
    const node = el("span", { class: "cap" }, text);
    node.style.setProperty("--cap-len", String(Math.max(4, Array.from(text).length)));
    return node;
  }

  /** One card as a DOM node. opts: {button, selected, small, onclick, extraLabel}. */
  P10.cardEl = function (card, opts) {
    opts = opts || {};
    const label = P10.cardLabel(card) + (opts.extraLabel ? ", " + opts.extraLabel : "");
    const classes = ["card"];
    if (opts.small) classes.push("small");
    if (!card) {
      return el("span", { class: classes.concat("back").join(" "), role: "img", "aria-label": label },
        el("span", { class: "back-mark", "aria-hidden": "true" }, "10"));
    }
    // Every card has its index in the top left corner (what an overlapped card in the hand still shows) and
    // its big face in the middle, below the corner's height, so that the two never overlap (10–12 included).
    let face;
    if (card.kind === "number") {
      classes.push("c-" + card.colour);
      face = [el("span", { class: "corner" }, el("span", { class: "idx" }, String(card.number)),
        el("span", { class: "idx-sym" }, SYMBOL[card.colour])),
      el("span", { class: "num" + (card.number >= 10 ? " two" : "") }, String(card.number)),
      el("span", { class: "sym" }, SYMBOL[card.colour])];  // the symbol again in the opposite corner
    } else if (card.kind === "action") {
      classes.push("action", "a-" + card.action);
      const icon = ACTION_ICON[card.action] || "?";
      const glyph = () => (typeof icon === "function" ? icon() : icon);
      face = [el("span", { class: "corner" }, el("span", { class: "idx" }, glyph())),
        el("span", { class: "num icon" }, glyph()),
        capEl("cap." + card.action)];
    } else {
      classes.push("joker");
      const turned = card.number !== undefined && card.colour;
      if (turned) {
        // A turned card is a joker (B-6): it reads as one, its face (still visible to all) is the small chip.
        classes.push("turned");
        face = [el("span", { class: "corner" }, el("span", { class: "idx" }, "J")),
        el("span", { class: "num" }, "J"),
        el("span", { class: "face c-" + card.colour }, String(card.number) + SYMBOL[card.colour]),
        capEl("cap.joker")];
      } else {
        const ranged = card.low !== undefined && (card.low !== 1 || card.high !== 12);
        const colours = card.colours || ["red", "yellow", "green", "blue"];
        // Master's ranged jokers read in one line: "7–12", the colour set below.
        const range = ranged ? card.low + "–" + card.high : "W";
        face = [el("span", { class: "corner" }, el("span", { class: "idx" + (ranged ? " range" : "") }, ranged ? card.low + "-" + card.high : "W")),
          el("span", { class: "num" + (ranged ? " range" : "") }, range),
          el("span", { class: "jcolours" }, colours.map((c) => el("span", { class: "jc c-" + c }, SYMBOL[c]))),
          capEl(ranged ? "cap.joker" : "cap.wild")];
      }
    }
    const attrs = { class: classes.join(" "), "data-card-id": card.id, title: label };
    let node;
    if (opts.button) {
      // A button is named by its content: the words (for screen readers) and the face (for the eye, hidden
      // from them), so the accessible name never contradicts the visible text.
      attrs.type = "button";
      attrs["aria-pressed"] = opts.selected ? "true" : "false";
      face.forEach((part) => part.setAttribute("aria-hidden", "true"));
      node = el("button", attrs, face, el("span", { class: "sr-only" }, label));
      if (opts.onclick) node.addEventListener("click", opts.onclick);
    } else {
      attrs.role = "img";
      attrs["aria-label"] = label;
      node = el("span", attrs, face);
    }
    if (opts.selected) node.classList.add("selected");
    return node;
  };

  /** Each seat's mark: its colour (0–5, the classes seat-c0…seat-c5 of app.css and the board's pawns) and an
      initial that no other seat at the table shares: the first letter of the name, else its first two, else
      the letter and the number the name holds ("Bot 5": B5, as the ticker names it), else the letter and the
      seat's number ("B", "Bo" and "Be", "A1" and "A2"). names: seat -> name. */
  P10.seatMarks = function (names) {
    const seats = Object.keys(names).map(Number).sort((a, b) => a - b);
    const letters = (seat, n) => Array.from(String(names[seat] || "?").trim() || "?").slice(0, n).join("");
    const first = (seat) => letters(seat, 1).toUpperCase();
    const digits = (seat) => (String(names[seat] || "").match(/\d+/) || [null])[0];
    const marks = {};
    for (const seat of seats) marks[seat] = { colour: seat % 6, initial: first(seat) };
    const alike = () => {
      const counts = {};
      for (const seat of seats) counts[marks[seat].initial] = (counts[marks[seat].initial] || 0) + 1;
      return seats.filter((seat) => counts[marks[seat].initial] > 1);
    };
    // two alike: their first two letters; still alike: the letter and the number the name holds, so that a
    // bot named "Bot 5" is marked B5; at last the letter and the seat's number
    for (const seat of alike()) marks[seat].initial = first(seat) + letters(seat, 2).slice(first(seat).length).toLowerCase();
    for (const seat of alike()) if (digits(seat)) marks[seat].initial = first(seat) + digits(seat);
    for (const seat of alike()) marks[seat].initial = first(seat) + (seat + 1);
    return marks;
  };

  /** A seat's pawn: a disc in its colour with its initial (hidden from screen readers: the name is said). */
  P10.pawnEl = function (mark, extraClass) {
    return el("span", { class: "pawn-mark seat-c" + mark.colour + (extraClass ? " " + extraClass : ""), "aria-hidden": "true" }, mark.initial);
  };

  /** A laid group in words: "set of 7s", "run 3–9", "red", "colour run 2–5 (green)". */
  P10.groupLabel = function (group) {
    if (group.kind === "set") {
      // "set of 7s", never "set of 7" (the phases' words for a set's size): a key per number, for the
      // languages whose words for "the 7s" change with the number (articles, nouns); a set of jokers only has none
      if (group.number === null || group.number === undefined) return t("group.set_jokers");
      const own = "group.set." + group.number;
      return t(P10.hasText(own) ? own : "group.set", { number: group.number });
    }
    // A finished game's events carry a run's start only: its end follows from its cards (a joker hit onto a
    // complete run, counted in ``extra``, does not lengthen it).
    const end = group.end ?? (group.start ?? 0) + (group.cards || []).length - (group.extra || 0) - 1;
    if (group.kind === "run") return t("group.run", { start: group.start ?? "?", end });
    if (group.kind === "colour") return t("group.colour", { colour: colourName(group.colour) });
    return t("group.colour_run", { start: group.start ?? "?", end, colour: colourName(group.colour) });
  };

  P10.cardsText = function (cards) { return (cards || []).map(P10.cardLabel).join(", "); };

  /** One event of the log in words (names: seat -> player name). Returns "" for events not worth a line. */
  P10.eventText = function (e, names) {
    const n = (seat) => (seat === null || seat === undefined ? "?" : names[seat] || t("seat.n", { n: seat + 1 }));
    const c = (card) => P10.cardLabel(card);
    switch (e.type) {
      case "hands_dealt": return t("ev.hands_dealt", { round: e.round, name: n(e.first) });
      case "card_drawn":
        if (e.card) return t("ev.card_drawn_seen." + e.pile, { name: n(e.seat), card: c(e.card) });
        return t("ev.card_drawn." + e.pile, { name: n(e.seat) });
      case "draw_pile_rebuilt": return t("ev.draw_pile_rebuilt", { n: e.size });
      case "draw_failed": return t("ev.draw_failed", { name: n(e.seat) });
      case "phase_laid": return t("ev.phase_laid", { name: n(e.seat), groups: (e.groups || []).map((g) => P10.groupLabel(g)).join(" + ") });
      case "card_hit": return t("ev.card_hit", { name: n(e.seat), card: c(e.card), group: P10.groupLabel(e.result || {}), owner: n((e.result || {}).owner) });
      case "card_discarded": return t("ev.card_discarded", { name: n(e.seat), card: c(e.card) });
      case "skip_played": return e.target === null ? t("ev.skip_nobody", { name: n(e.seat) }) : t("ev.skip_played", { name: n(e.seat), target: n(e.target) });
      case "turn_skipped": return t("ev.turn_skipped", { name: n(e.seat) });
      case "turn_started": return "";
      case "round_ended":
        return e.went_out === null || e.went_out === undefined ? t("ev.round_stalled", { round: e.round })
          : t("ev.round_ended", { round: e.round, name: n(e.went_out) });
      case "tie_break_started": return t("ev.tie_break", { names: (e.seats || []).map(n).join(", ") });
      case "game_ended": return t("ev.game_ended", { names: (e.winners || []).map(n).join(", ") });
      /* Master (R-5..R-11) */
      case "starter_returned": return t("ev.starter_returned", { card: c(e.card || P10.labelledCard(e.card_kind, e.card_label)) });
      case "two_cards_drawn": return e.cards && e.cards.length && e.cards[0] ? t("ev.two_drawn_seen", { name: n(e.seat), cards: P10.cardsText(e.cards) }) : t("ev.two_drawn", { name: n(e.seat), pile: t("pile." + e.pile) });
      case "take_two_chosen": return t("ev.take_two_chosen", { name: n(e.seat), card: c(e.returned), pile: t("pile." + e.to_pile) });
      case "action_played": return t("ev.action." + e.effect, { name: n(e.seat), card: c(e.card), target: n(e.target) });
      case "offers_asked": return t("ev.offers_asked", { name: n(e.seat) });
      case "card_offered": return t("ev.card_offered", { name: n(e.seat), card: c(e.card) });
      case "offer_taken": return t("ev.offer_taken", { name: n(e.seat), card: c(e.card), owner: n(e.owner) });
      case "replacement_drawn": return e.card ? t("ev.replacement_seen", { name: n(e.seat), card: c(e.card) }) : t("ev.replacement", { name: n(e.seat) });
      case "hand_kept": return t(e.keep ? "ev.hand_kept" : "ev.hand_returned", { name: n(e.seat), n: e.size });
      case "keep_choices_asked": return t((e.seats || []).length === 1 ? "ev.keep_asked_one" : "ev.keep_asked", { names: (e.seats || []).map(n).join(", ") });
      /* Board game (B-5..B-9) */
      case "dice_rolled": return t("ev.dice_rolled", { name: n(e.seat), dice: (e.dice || []).join(" + ") });
      case "pawn_moved": return t("ev.pawn_moved", { name: n(e.seat), steps: e.steps, field: e.field, action: P10.fieldName ? P10.fieldName(e.kind) : e.kind });
      case "action_chosen": return t("ev.action_chosen", { name: n(e.seat), field: e.field, action: P10.fieldName ? P10.fieldName(e.kind) : e.kind });
      case "card_searched": return e.card ? t("ev.card_searched_seen", { name: n(e.seat), card: c(e.card) }) : t("ev.card_searched", { name: n(e.seat) });
      case "cards_swapped": return t("ev.cards_swapped", { name: n(e.seat), n: e.count ?? (e.cards || []).length, card: c((e.cards || [])[(e.cards || []).length - 1]) });
      case "joker_turned": return t("ev.joker_turned", { name: n(e.seat), card: faceLabel(e.card) });
      case "number_asked": return t("ev.number_asked", { name: n(e.seat), number: e.number, direction: t("dir." + e.direction) });
      case "card_given": return e.card ? t("ev.card_given_seen", { name: n(e.giver), to: n(e.receiver), card: c(e.card) }) : t("ev.card_given", { name: n(e.giver), to: n(e.receiver), number: e.number });
      case "nobody_had": return t("ev.nobody_had", { name: n(e.seat), number: e.number });
      case "marker_moved": return t("ev.marker_moved", { name: n(e.seat), n: e.fields });
      case "board_round_ended":
        return e.went_out === null || e.went_out === undefined ? t("ev.round_stalled", { round: e.round })
          : t("ev.round_ended", { round: e.round, name: n(e.went_out) });
      case "cards_kept": return t("ev.cards_kept", { name: n(e.seat), n: e.count ?? (e.cards || []).length });
      default: {
        /* Board game and future events: a generic line built from the event's fields. */
        const key = "ev." + e.type;
        const params = { name: n(e.seat), target: n(e.target) };
        for (const [k, v] of Object.entries(e)) {
          if (k === "seat" || k === "target" || k === "type") continue;
          if (v && typeof v === "object" && !Array.isArray(v) && v.kind) params[k] = c(v);
          else if (Array.isArray(v) && v.length && v[0] && v[0].kind) params[k] = P10.cardsText(v);
          else if (v === null || typeof v !== "object") params[k] = v;
        }
        const text = t(key, params);
        return text === key ? e.type.replace(/_/g, " ") + (e.seat !== undefined ? " — " + n(e.seat) : "") : text;
      }
    }
  };
})(P10);

export { P10 };
export const { SYMBOL, cardEl, cardLabel, cardsText, eventText, groupLabel, labelledCard, pawnEl, seatMarks, sortCards } = P10;
