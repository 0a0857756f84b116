/* The move list: every command, grouped by round and then by turn ("Anna: draws from the discard pile ·
   discards red 7"), each move a button that opens its step; the current turn is marked and kept in sight. */
import { R, $, nameOf } from "./state.js";

import { P10 } from "../common.js";
import "../cards.js";
const { t, el, clear } = P10;

function cardOf(c) {
  const cmd = c.command || {};
  const id = typeof cmd.card === "number" ? cmd.card : (typeof cmd.keep === "number" ? cmd.keep : null);
  if (id !== null && R.cards.has(id)) return R.cards.get(id);
  // a running game's public record: the card the spectator saw in the command's events (a discard, a hit ...)
  for (const e of c.events || []) if (e.card && e.card.kind && e.seat === c.seat) return e.card;
  return null;
}

/** One command in a few words ("discards red 7", "draws from the discard pile"). */
export function moveLabel(c) {
  const cmd = c.command || {};
  let pile = cmd.pile;
  if (!pile) for (const e of c.events || []) if (e.type === "card_drawn" || e.type === "two_cards_drawn") pile = e.pile;
  const card = cardOf(c);
  const params = { card: card ? P10.cardLabel(card) : "", pile: t("pile." + (pile || "draw")),
    steps: cmd.steps, number: cmd.number, count: (cmd.cards || []).length };
  let key = "mv." + cmd.type;
  if (cmd.type === "draw" && !pile) key = "mv.draw_unknown";
  else if (card && P10.t(key + "_card") !== key + "_card") key += "_card";
  const text = t(key, params);
  return text === key ? cmd.type.replace(/_/g, " ") : text;
}

export function buildMoves() {
  const box = clear($("rp-log"));
  const roundsByNumber = new Map();
  const section = (round) => {
    if (!roundsByNumber.has(round)) {
      const list = el("ol", { class: "rp-turns" });
      const total = R.record.total_rounds;
      box.appendChild(el("section", { class: "rp-round", "data-round": round },
        el("h3", null, total ? t("replay.round_of", { n: round, total }) : t("replay.round", { n: round })), list));
      roundsByNumber.set(round, { list, turn: null, row: null });
    }
    return roundsByNumber.get(round);
  };
  const first = section(1);
  first.row = el("li", { class: "rp-turn", "data-turn": "deal" },
    el("button", { type: "button", class: "linklike rp-mv", "data-step": 0 }, t("replay.start")));
  first.list.appendChild(first.row);
  for (const c of R.record.commands) {
    const group = section(c.round);
    if (group.turn !== c.turn || !group.row || group.row.dataset.turn === "deal") {
      group.turn = c.turn;
      const who = c.turn_seat === null || c.turn_seat === undefined ? c.seat : c.turn_seat;
      group.row = el("li", { class: "rp-turn", "data-turn": c.turn }, el("span", { class: "rp-who" }, nameOf(who) + ":"));
      group.list.appendChild(group.row);
    }
    const who = c.turn_seat === null || c.turn_seat === undefined ? c.seat : c.turn_seat;
    const label = (c.seat !== who ? nameOf(c.seat) + ": " : "") + moveLabel(c);
    if (group.row.querySelector(".rp-mv")) group.row.appendChild(document.createTextNode(" · "));
    group.row.appendChild(el("button", { type: "button", class: "linklike rp-mv", "data-step": c.seq,
      title: t("replay.step_n", { n: c.seq }) }, label));
  }
}

export function markMove(step) {
  const box = $("rp-log");
  box.querySelectorAll(".rp-mv[aria-current]").forEach((b) => b.removeAttribute("aria-current"));
  box.querySelectorAll("li.current").forEach((li) => li.classList.remove("current"));
  const button = box.querySelector(`.rp-mv[data-step="${step}"]`);
  if (!button) return;
  button.setAttribute("aria-current", "step");
  const li = button.closest("li");
  li.classList.add("current");
  // the list follows the replay: the current turn is scrolled into the list's view (not the page's)
  const top = li.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
  if (top < box.scrollTop || top + li.offsetHeight > box.scrollTop + box.clientHeight) {
    box.scrollTop = Math.max(0, top - (box.clientHeight - li.offsetHeight) / 2);
  }
}
