/* The players around the felt: each seat's chip (its colour and initial, P10.seatMarks; presence, name, hand
   size, phase and state in short) and, in front of it on the felt, everything it has laid: its groups and the
   cards lying in front of it, always shown, in seating order, as compact as the felt needs (a card's corner
   index only: number and colour symbol, W for a wild, J for a turned card). A tap on a group enlarges it (a
   dialog with its cards and their words); with a hand card selected that may be hit onto it, the tap hits it
   (tap-tap; a run's half says which end when both are legal, as a drop does), and with a selected action card
   that may be played in front of a seat, a tap on that seat plays it. Groups carry data-group (their index in
   view.table) and hit buttons data-hit/data-end: the seams drag and drop and highlighting use. */
import { S, $, botLevel, nameOf, prompt, render, seatInfo, selectedIds, standIn } from "./state.js";
import { presenceDot } from "./connection-status.js";
import { send } from "./commands.js";
import { hitEnds, targetsOf } from "./targets.js";
import { lights } from "./lights.js";

import { P10 } from "../common.js";
import "../cards.js";
const { t, el, clear } = P10;

function hitOptions() {
  // Whether to offer hitting: my prompt allows it and exactly one hand card is selected.
  const p = prompt();
  return Boolean(p && p.action === "play" && p.can_hit && selectedIds().length === 1);
}

/** A laid card as its corner index: number and colour symbol (W a wild, a ranged joker its range, J a turned
    card), named in words for screen readers. */
export function miniCard(card) {
  const label = P10.cardLabel(card);
  const classes = ["card", "mini"];
  let top, bottom = "";
  if (card.kind === "number") {
    classes.push("c-" + card.colour);
    top = String(card.number);
    bottom = P10.SYMBOL[card.colour];
  } else if (card.kind === "action") {
    classes.push("action");
    top = { skip: "⊘", take_two: "+2", all_mine: P10.icon("hand"), give_me_five: "5" }[card.action] || "?";
  } else if (card.number !== undefined && card.colour) {  // a turned card is a joker (B-6)
    classes.push("joker", "turned");
    top = "J";
    bottom = String(card.number) + P10.SYMBOL[card.colour];
  } else {
    classes.push("joker");
    const ranged = card.low !== undefined && (card.low !== 1 || card.high !== 12);
    top = "W";
    if (ranged) { bottom = card.low + "-" + card.high; classes.push("ranged"); }
  }
  return el("span", { class: classes.join(" "), "data-card-id": card.id, role: "img", "aria-label": label, title: label },
    el("span", { class: "mini-n", "aria-hidden": "true" }, top),
    bottom ? el("span", { class: "mini-s", "aria-hidden": "true" }, bottom) : null);
}

/* A tap on a group's cards: with a selected hand card that may be hit onto it, the hit (a run's left half the
   low end, its right half the high end, when both are legal); with a selected action card that may be played
   in front of the group's owner, that play; otherwise the group enlarged. */
function tapGroup(event, index, owner) {
  const ids = selectedIds();
  const id = ids.length === 1 ? ids[0] : null;
  const targets = targetsOf(id);
  const ends = targets.groups.get(index) || [];
  if (id !== null && ends.length) {
    let end = ends[0];
    if (ends.length > 1) {
      const r = event.currentTarget.getBoundingClientRect();
      end = event.clientX < r.left + r.width / 2 ? "low" : "high";
    }
    send({ type: "hit", card: id, group: index, end });
    return;
  }
  if (id !== null && targets.seats.has(owner)) { playOnSeat(id, owner); return; }
  zoom(index);
}

function playOnSeat(id, seat) {
  const play = targetsOf(id).seats.get(seat);
  if (!play) return false;
  send(play.discard ? { type: "discard", card: id, target: play.target }
    : { type: "play_action", card: id, target: play.target, ask: true });
  return true;
}

/* The enlarged group: its words, its cards as cards, and the hit buttons of the selected card. */
let zoomed = null;
function zoom(index) {
  zoomed = index;
  fillZoom();
  const dialog = $("group-zoom");
  if (dialog && !dialog.open) dialog.showModal();
}

function fillZoom() {
  const dialog = $("group-zoom");
  const group = zoomed === null ? null : ((S.view && S.view.table) || [])[zoomed];
  if (!dialog) return;
  if (!group) { if (dialog.open) dialog.close(); zoomed = null; return; }
  $("group-zoom-title").textContent = nameOf(group.owner) + " · " + t("table.group_n", { n: zoomed + 1 }) + ": " + P10.groupLabel(group);
  const body = clear($("group-zoom-body"));
  P10.add(body, el("div", { class: "group-cards" }, group.cards.map((c) => P10.cardEl(c))));
  const buttons = hitButtons(group, zoomed);
  if (buttons) body.appendChild(buttons);
}

export function initPlayers() {
  const dialog = $("group-zoom");
  if (!dialog) return;
  $("group-zoom-close").addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => { zoomed = null; });
  dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });  // the backdrop
  // A tap on a seat (its chip or its place on the felt) plays the selected action card there, when legal.
  $("players").addEventListener("click", (event) => {
    if (event.target.closest("button, [data-group]")) return;
    const seatNode = event.target.closest("[data-seat]");
    const ids = selectedIds();
    if (!seatNode || ids.length !== 1) return;
    playOnSeat(ids[0], Number(seatNode.dataset.seat));
  });
  window.addEventListener("resize", () => fitFelt());
  if (window.ResizeObserver) {
    let last = "";
    new ResizeObserver((entries) => {
      const r = entries[0].contentRect;
      const size = Math.round(r.width) + "x" + Math.round(r.height);
      if (size !== last) { last = size; fitFelt(); }
    }).observe($("field"));
  }
}

function hitButtons(group, index) {
  const card = hitOptions() ? selectedIds()[0] : null;
  const ends = card === null ? [] : hitEnds(card, index);
  if (!ends.length) return null;
  const label = P10.groupLabel(group);
  const box = el("div", { class: "hit-buttons" });
  for (const end of ends) {
    const attrs = { type: "button", class: "small hit", "data-hit": index,
      onclick: (event) => { event.stopPropagation(); send({ type: "hit", card, group: index, end }); } };
    if (end) attrs["data-end"] = end;
    attrs["aria-label"] = t(end === "low" ? "table.hit_on_low" : end === "high" ? "table.hit_on_high" : "table.hit_on", { group: label });
    P10.add(box, el("button", attrs, end === "low" ? "◀+" : end === "high" ? "+▶" : "+"));
  }
  return box;
}

function groupEl(group, index, lit) {
  const label = P10.groupLabel(group);
  const name = t("table.group_n", { n: index + 1 }) + ": " + label;
  // named by its content (the group's words, then each card's), so that the name holds what it shows
  const cards = el("button", { type: "button", class: "group-cards", onclick: (event) => tapGroup(event, index, group.owner) },
    el("span", { class: "sr-only" }, name + ":"), group.cards.map(miniCard));
  const node = el("div", { class: "group" + (lit ? " fits" : ""), "data-group": index, "data-kind": group.kind,
    role: "group", "aria-label": name }, cards);
  // Hit buttons only where the selected card may legally go (the prompt's hits, from the engine).
  const buttons = hitButtons(group, index);
  if (buttons) node.appendChild(buttons);
  return node;
}

/* The board game's ring takes the room the seats leave (app.css). So that it does not shrink, nor the seats move,
   when a seat lays its phase (B-3, B-5), a seat that has not laid it keeps its room on the felt: the outline of the
   groups its phase asks for, a dashed place for each card. Shown to the eye only (the chip names the phase), and
   not on a phone held sideways, where the seats have a box of their own beside the ring (app.css). */
function phaseGhosts(p, v) {
  if (v.ruleset !== "board" || p.laid || p.finished) return [];
  const entry = phaseEntry(p.phase, v);
  if (!entry || !entry.groups) return [];
  return entry.groups.map((g) => el("div", { class: "group ghost", "data-kind": g.kind },
    el("span", { class: "ghost-cards" }, Array.from({ length: g.size }, () => el("span", { class: "ghost-card" })))));
}

/** The view's phase ``number``: its description and the groups it asks for. */
function phaseEntry(number, v) {
  return (v.phases || []).find((p) => p.number === number);
}

export function phaseText(number, v) {
  const entry = phaseEntry(number, v);
  return entry && entry.groups ? P10.describePhase(entry.groups) : "";
}
P10.phaseText = phaseText;

/* A fact in short (shown in the compact chip) and in words (shown on wide screens, and always to screen readers). */
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
  const lit = lights().groups;
  box.classList.toggle("many", v.players.length > 3);
  box.dataset.seats = String(v.players.length);
  v.players.forEach((p) => {
    const me = p.seat === S.seat;
    const onTurn = v.turn === p.seat && !v.over;
    const mark = marks[p.seat];
    const classes = ["player", "seat-c" + mark.colour];
    if (me) classes.push("me");
    if (onTurn) classes.push("on-turn");
    if (awaited.has(p.seat)) classes.push("awaited");
    const turned = (p.turned || []).length && p.seat !== S.seat
      ? el("div", { class: "in-front turned-cards", role: "group", "aria-label": t("board.turned") },
        el("span", { class: "in-front-label" }, t("board.turned") + ":"), p.turned.map(miniCard))
      : null;
    const front = (p.in_front || []).length
      ? el("div", { class: "in-front", role: "group", "aria-label": t("table.in_front") },
        el("span", { class: "in-front-label" }, t("table.in_front") + ":"), p.in_front.map(miniCard))
      : null;
    const groups = [];
    (v.table || []).forEach((g, i) => { if (g.owner === p.seat) groups.push(groupEl(g, i, lit.has(i))); });
    if (groups.length) classes.push("has-groups");
    const ghosts = groups.length ? [] : phaseGhosts(p, v);
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
    // What the seat has laid lies in front of it on the felt, always (its groups, the cards in front of it).
    // (a seat with nothing but its phase's outlines: a felt for the eye only)
    const real = Boolean(front || turned || groups.length);
    const laid = real || ghosts.length
      ? el("div", { class: "seat-felt", id: "groups-" + p.seat, role: real ? "group" : null,
        "aria-label": real ? t("table.groups_n", { n: groups.length }) : null, "aria-hidden": real ? null : "true" },
      front, turned, groups.length ? el("div", { class: "groups" }, groups) : null, ghosts)
      : null;
    box.appendChild(el("article", { class: classes.join(" "), "data-seat": p.seat,
      "aria-label": nameOf(p.seat) + (onTurn ? ", " + t("table.turn") : "") },
    el("div", { class: "seat-top" }, head), laid));
  });
  fillZoom();
}

/* The felt's density: the largest laid cards (0) with which every seat and all it has laid fit the felt
   without scrolling, else the smallest (DENSITIES - 1), with which the felt scrolls. Run once the whole page
   is drawn (render.js; the dock's height decides the felt's) and when the felt changes size. The felt's
   other contents (the board's ring, which grows into the room left) are measured as they are. */
const DENSITIES = 7;
const COMPACT = 3;  // from this density on, each chip is one line (app.css)
export function fitFelt() {
  const box = $("players");
  if (!box || !box.firstChild) return;
  // the box the seats scroll in: the felt, or (the board game sideways, app.css) the seats' own box
  let scroller = box.parentElement;
  while (scroller && (getComputedStyle(scroller).display === "contents" || getComputedStyle(scroller).overflowY === "visible")) {
    scroller = scroller.parentElement;
  }
  if (!scroller) return;
  const style = getComputedStyle(scroller);
  const limit = scroller.getBoundingClientRect().bottom - parseFloat(style.paddingBottom || "0") - parseFloat(style.borderBottomWidth || "0");
  const top = scroller.scrollTop;
  scroller.scrollTop = 0;
  const fits = (d) => {
    box.dataset.density = String(d);
    box.classList.toggle("compact", d >= COMPACT);
    return box.getBoundingClientRect().bottom <= limit + 0.5 && box.scrollWidth <= box.clientWidth + 0.5;
  };
  // the largest density that fits, if any (a binary search: fewer layouts per render)
  const largest = () => {
    if (fits(0)) return true;
    if (!fits(DENSITIES - 1)) return false;
    let lo = 1, hi = DENSITIES - 1;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (fits(mid)) hi = mid; else lo = mid + 1;
    }
    fits(hi);
    return true;
  };
  scroller.classList.remove("felt-tight");
  // nothing laid: nothing to fit; else the largest that fits, and at the densest still too much: the board's
  // ring gives a little and its phase track goes under the seats (app.css), and the search runs once more
  const ghosts = [...box.querySelectorAll(".ghost")].some((n) => n.getClientRects().length);
  if (!ghosts && !box.querySelector("[data-card-id]")) fits(0);
  else if (!largest()) {
    scroller.classList.add("felt-tight");
    if (!largest()) fits(DENSITIES - 1);
  }
  scroller.scrollTop = top;
}
