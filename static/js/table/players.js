/* The players: each seat's name, presence, hand size, phase, score and laid groups (with the hit buttons
   where the selected card may legally go, from the prompt's hits). Groups carry data-group (their index in
   view.table) and hit buttons data-hit/data-end: the seams drag and drop and highlighting use. */
import { S, $, botLevel, nameOf, prompt, render, seatInfo, selectedIds, standIn } from "./state.js";
import { presenceDot } from "./connection-status.js";
import { send } from "./commands.js";
import { hitEnds } from "./targets.js";

const P10 = window.P10;
const { t, el, clear } = P10;

function hitOptions() {
  // Whether to offer hitting: my prompt allows it and exactly one hand card is selected.
  const p = prompt();
  return Boolean(p && p.action === "play" && p.can_hit && selectedIds().length === 1);
}

function groupEl(group, index) {
  const label = P10.groupLabel(group);
  const node = el("div", { class: "group", "data-group": index, "data-kind": group.kind, role: "group",
    "aria-label": t("table.group_n", { n: index + 1 }) + ": " + label },
  el("div", { class: "group-label" }, el("span", { class: "group-index" }, "#" + (index + 1)), " ", label),
  el("div", { class: "group-cards" }, group.cards.map((c) => P10.cardEl(c, { small: true }))));
  // Hit buttons only where the selected card may legally go (the prompt's hits, from the engine).
  const card = hitOptions() ? selectedIds()[0] : null;
  const ends = card === null ? [] : hitEnds(card, index);
  if (ends.length) {
    const hitBox = el("div", { class: "hit-buttons" });
    for (const end of ends) {
      const attrs = { type: "button", class: "small hit", "data-hit": index,
        onclick: () => send({ type: "hit", card, group: index, end }) };
      if (end) attrs["data-end"] = end;
      attrs["aria-label"] = t(end === "low" ? "table.hit_on_low" : end === "high" ? "table.hit_on_high" : "table.hit_on", { group: label });
      P10.add(hitBox, el("button", attrs, t(end === "low" ? "table.hit_low" : end === "high" ? "table.hit_high" : "table.hit_here")));
    }
    node.appendChild(hitBox);
  }
  return node;
}

export function phaseText(number, v) {
  const entry = (v.phases || []).find((p) => p.number === number);
  return entry && entry.groups ? P10.describePhase(entry.groups) : "";
}
P10.phaseText = phaseText;

/* The seats sit around the table as a compact strip: each seat a chip with its colour and initial
   (P10.seatMarks), its presence, its name and its hand size, phase and state in short. A tap on an opponent's
   chip (a disclosure button, aria-expanded) opens its details: the facts in words, the cards in front of it and
   its laid groups. Folded by default on small screens, open elsewhere; a player's choice per seat is remembered
   in this browser for this table. While a card is selected or dragged, folded groups holding one of its legal
   targets open for the moment (dnd.js). One's own groups never fold. */
const SMALL_SCREEN = "(max-width: 600px), (max-height: 500px)";

function savedGroups() { return P10.store.get("groups_open." + S.tableId) || {}; }

export function groupsOpen(seat) {
  const saved = savedGroups();
  if (Object.prototype.hasOwnProperty.call(saved, seat)) return Boolean(saved[seat]);
  return !(window.matchMedia && window.matchMedia(SMALL_SCREEN).matches);
}

function toggleGroups(seat) {
  const saved = savedGroups();
  saved[seat] = !groupsOpen(seat);
  P10.store.set("groups_open." + S.tableId, saved);
  render();
}

/* A fact in short (shown in the compact chip) and in words (shown when open, and always to screen readers). */
function fact(kind, short, long, extra) {
  return el("span", { class: "fact fact-" + kind + (extra ? " " + extra : "") },
    short === null ? null : el("span", { class: "fact-short", "aria-hidden": "true" }, short),
    el("span", { class: "fact-long" }, long));
}

function factsOf(p, v) {
  const facts = [
    // a seat left out of the Mattel tie-break round (M-8) holds no cards because it does not play
    p.in_round === false && v.tiebreak ? fact("sits-out", "—", t("table.sits_out"), "sits-out")
      : fact("cards", String(p.hand_size), t("table.cards_in_hand", { n: p.hand_size })),
    fact("phase", String(p.phase), [t("table.phase", { n: p.phase }),
      p.phase_description ? el("span", { class: "phase-desc-text" }, " – " + phaseText(p.phase, v)) : null]),
  ];
  if (p.score !== undefined) {
    facts.push(fact("score", null, v.ruleset === "master" && v.scoring === "minus" ? t("table.minus", { n: p.score }) : t("table.score", { n: p.score })));
  }
  if (p.pawn !== undefined) facts.push(fact("pawn", null, t("board.pawn_on", { n: p.pawn })));
  if (p.finished) facts.push(fact("finish", P10.icon("flag"), [P10.icon("flag"), " " + t("board.finish")], "ok"));
  if (p.keep_pending) facts.push(fact("keep", "…", t("table.keep_pending"), "warn"));
  if (p.laid) facts.push(fact("laid", "✓", "✓ " + t("table.phase_done"), "ok"));
  if (p.skip_pending) facts.push(fact("skip", "⊘", "⊘ " + t("table.skip_pending"), "warn"));
  return facts;
}

export function renderPlayers() {
  const v = S.view;
  const box = clear($("players"));
  const awaited = new Set(v.awaited || []);
  const marks = P10.seatMarks(Object.fromEntries(v.players.map((p) => [p.seat, nameOf(p.seat)])));
  box.classList.toggle("many", v.players.length > 3);
  v.players.forEach((p) => {
    const me = p.seat === S.seat;
    const onTurn = v.turn === p.seat && !v.over;
    const mark = marks[p.seat];
    const classes = ["player", "seat-c" + mark.colour];
    if (me) classes.push("me");
    if (onTurn) classes.push("on-turn");
    if (awaited.has(p.seat)) classes.push("awaited");
    const turned = (p.turned || []).length && p.seat !== S.seat
      ? el("div", { class: "in-front" }, el("span", { class: "muted" }, t("board.turned") + ": "),
        p.turned.map((c) => P10.cardEl(c, { small: true })))
      : null;
    const front = (p.in_front || []).length
      ? el("div", { class: "in-front" }, el("span", { class: "muted" }, t("table.in_front") + ": "),
        p.in_front.map((c) => P10.cardEl(c, { small: true })))
      : null;
    const groups = [];
    (v.table || []).forEach((g, i) => { if (g.owner === p.seat) groups.push(groupEl(g, i)); });
    const open = me || groupsOpen(p.seat);
    if (open) classes.push("open");
    if (groups.length) classes.push("has-groups");
    const head = [
      el("span", { class: "player-head" },
        P10.pawnEl(mark),
        presenceDot(seatInfo(p.seat)),
        el("strong", { class: "player-name" }, nameOf(p.seat)),
        me ? el("span", { class: "badge you" }, t("table.you")) : null,
        botLevel(p.seat) ? el("span", { class: "badge bot-level", "data-level": botLevel(p.seat) },
          P10.icon("bot"), " " + t("level." + botLevel(p.seat))) : null,
        onTurn ? el("span", { class: "badge turn" }, "▶ " + t("table.turn")) : null,
        !onTurn && awaited.has(p.seat) ? el("span", { class: "badge turn" }, "… " + t("table.awaited")) : null,
        standIn(p.seat) ? el("span", { class: "badge stand-in", "data-level": S.table.stand_in_level || null },
          P10.icon("bot"), " " + t("table.stand_in") + (S.table.stand_in_level ? " (" + t("level." + S.table.stand_in_level) + ")" : "")) : null),
      el("span", { class: "facts" }, factsOf(p, v)),
    ];
    const id = "groups-" + p.seat;
    // One's own details show only when there is something to see (groups, cards in front).
    const empty = me && !groups.length && !front && !turned;
    const more = el("div", { class: "seat-more", id, hidden: !open || empty },
      front, turned, groups.length ? el("div", { class: "groups" }, groups) : null);
    const top = me ? el("div", { class: "seat-top" }, head)
      : el("button", { type: "button", class: "seat-top groups-toggle", id: "groups-toggle-" + p.seat,
        "aria-expanded": String(open), "aria-controls": id, onclick: () => toggleGroups(p.seat) },
      head, el("span", { class: "groups-count" }, el("span", { class: "chevron", "aria-hidden": "true" }, open ? "▾" : "▸"), " ",
        groups.length ? t("table.groups_n", { n: groups.length }) : t("table.no_groups")));
    box.appendChild(el("article", { class: classes.join(" "), "data-seat": p.seat,
      "aria-label": nameOf(p.seat) + (onTurn ? ", " + t("table.turn") : "") }, top, more));
  });
}
