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

/* An opponent's laid groups fold away to save room on a phone: a disclosure button (aria-expanded) per
   opponent. Folded by default on small screens, open elsewhere; a player's choice per seat is remembered in
   this browser for this table. While a card is selected or dragged, folded groups holding one of its legal
   targets open for the moment (dnd.js). */
const SMALL_SCREEN = "(max-width: 600px)";

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

function groupsBox(seat, me, groups) {
  if (!groups.length) return [null, el("div", { class: "groups" }, el("span", { class: "muted small-text no-groups" }, t("table.no_groups")))];
  if (me) return [null, el("div", { class: "groups" }, groups)];
  const open = groupsOpen(seat);
  const id = "groups-" + seat;
  const toggle = el("button", { type: "button", class: "small groups-toggle", id: "groups-toggle-" + seat,
    "aria-expanded": String(open), "aria-controls": id, onclick: () => toggleGroups(seat) },
  el("span", { class: "chevron", "aria-hidden": "true" }, open ? "▾" : "▸"), " ", t("table.groups_n", { n: groups.length }));
  return [toggle, el("div", { class: "groups", id, hidden: !open }, groups)];
}

export function renderPlayers() {
  const v = S.view;
  const box = clear($("players"));
  const awaited = new Set(v.awaited || []);
  v.players.forEach((p) => {
    const me = p.seat === S.seat;
    const onTurn = v.turn === p.seat && !v.over;
    const classes = ["player"];
    if (me) classes.push("me");
    if (onTurn) classes.push("on-turn");
    if (awaited.has(p.seat)) classes.push("awaited");
    const facts = [
      el("span", { class: "fact" }, t("table.cards_in_hand", { n: p.hand_size })),
      el("span", { class: "fact" }, t("table.phase", { n: p.phase }),
        p.phase_description ? el("span", { class: "phase-desc-text" }, " – " + phaseText(p.phase, v)) : null),
    ];
    if (p.score !== undefined) {
      facts.push(el("span", { class: "fact" }, v.ruleset === "master" && v.scoring === "minus" ? t("table.minus", { n: p.score }) : t("table.score", { n: p.score })));
    }
    if (p.pawn !== undefined) facts.push(el("span", { class: "fact" }, t("board.pawn_on", { n: p.pawn })));
    if (p.finished) facts.push(el("span", { class: "fact ok" }, "🏁 " + t("board.finish")));
    if (p.keep_pending) facts.push(el("span", { class: "fact warn" }, t("table.keep_pending")));
    if (p.laid) facts.push(el("span", { class: "fact ok" }, "✓ " + t("table.phase_done")));
    if (p.skip_pending) facts.push(el("span", { class: "fact warn" }, "⊘ " + t("table.skip_pending")));
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
    const [toggle, groupsNode] = groupsBox(p.seat, me, groups);
    if (toggle) facts.push(toggle);
    box.appendChild(el("article", { class: classes.join(" "), "data-seat": p.seat,
      "aria-label": nameOf(p.seat) + (onTurn ? ", " + t("table.turn") : "") },
    el("header", { class: "player-head" },
      presenceDot(seatInfo(p.seat)),
      el("strong", { class: "player-name" }, nameOf(p.seat)),
      me ? el("span", { class: "badge you" }, t("table.you")) : null,
      botLevel(p.seat) ? el("span", { class: "badge bot-level", "data-level": botLevel(p.seat) },
        "🤖 " + t("level." + botLevel(p.seat))) : null,
      onTurn ? el("span", { class: "badge turn" }, "▶ " + t("table.turn")) : null,
      !onTurn && awaited.has(p.seat) ? el("span", { class: "badge turn" }, "… " + t("table.awaited")) : null,
      standIn(p.seat) ? el("span", { class: "badge stand-in" }, "🤖 " + t("table.stand_in")) : null),
    el("div", { class: "facts" }, facts), front, turned, groupsNode));
  });
}
