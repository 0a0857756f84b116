/* The table at the shown step: each player (phase, score, laid groups, and the hand when it may be shown), the
   piles, the board game's board, the round line ("Round 3 of 11 · Anna: phase 4 · Ben: phase 3") and the score
   sheet with its charts up to that step. A finished game shows every hand, or one seat's view ("view as"); a
   running game only what a spectator sees (C-9). */
import { R, $, nameOf } from "./state.js";

import { P10 } from "../common.js";
import "../board.js";
import "../cards.js";
import "../scoresheet.js";
const { t, el, clear } = P10;

function handOf(data, s, seat) {
  if (R.record.public) return null;
  if (data.view) return seat === data.seat ? data.view.hand || [] : null;  // viewed as one seat
  return (s.hands || [])[seat] || [];
}

export function renderState(data) {
  const s = data.public || data.view ? data.view : data.state;
  const box = clear($("rp-players"));
  s.players.forEach((p, seat) => {
    const groups = [];
    (s.table || []).forEach((g, i) => {
      if (g.owner === seat) {
        groups.push(el("div", { class: "group" }, el("div", { class: "group-label" }, "#" + (i + 1) + " " + P10.groupLabel(g)),
          el("div", { class: "group-cards" }, g.cards.map((c) => P10.cardEl(c, { small: true })))));
      }
    });
    const hand = handOf(data, s, seat);
    const mine = data.view && !data.public && seat === data.seat;
    box.appendChild(el("article", { class: "player" + (s.turn === seat && !s.over ? " on-turn" : "") + (mine ? " me" : ""), "data-seat": seat },
      el("header", { class: "player-head" }, el("strong", null, nameOf(seat)),
        s.turn === seat && !s.over ? el("span", { class: "badge turn" }, "▶ " + t("table.turn")) : null),
      el("div", { class: "facts" },
        el("span", { class: "fact" }, t("table.phase", { n: p.phase })),
        p.score !== undefined ? el("span", { class: "fact" }, t("table.score", { n: p.score })) : null,
        p.marker !== undefined ? el("span", { class: "fact" }, t("board.pawn_on", { n: p.pawn })) : null,
        p.laid ? el("span", { class: "fact ok" }, "✓ " + t("table.phase_done")) : null),
      hand === null
        ? el("div", { class: "rp-hand-hidden muted small-text" }, t("table.cards_in_hand", { n: p.hand_size }))
        : el("div", { class: "rp-hand", role: "group", "aria-label": t("replay.hand_of", { name: nameOf(seat) }) },
          el("div", { class: "muted small-text" }, t("replay.hand_of", { name: nameOf(seat) })),
          el("div", { class: "hand-row" }, P10.sortCards(hand, "number").map((c) => P10.cardEl(c, { small: true })))),
      (p.in_front || []).length ? el("div", { class: "in-front" }, t("table.in_front") + ": ", p.in_front.map((c) => P10.cardEl(c, { small: true }))) : null,
      el("div", { class: "groups" }, groups)));
  });
  const piles = clear($("rp-piles"));
  P10.add(piles,
    el("div", { class: "pile-wrap" }, P10.cardEl(null), el("div", { class: "pile-caption" }, t("table.draw_pile"), el("br"), t("table.cards", { n: s.draw_size }))),
    el("div", { class: "pile-wrap" }, s.discard_top ? P10.cardEl(s.discard_top) : el("span", { class: "card empty" }),
      el("div", { class: "pile-caption" }, t("table.discard_pile"), el("br"), t("table.cards", { n: s.discard_size }))));
  if (s.ruleset === "master") {
    P10.add(piles, el("div", { class: "pile-wrap" }, s.blue_top ? P10.cardEl(s.blue_top) : el("span", { class: "card empty" }),
      el("div", { class: "pile-caption" }, t("table.blue_pile"), el("br"), t("table.cards", { n: s.blue_size }))));
  }
  if (s.ruleset === "board" && P10.renderBoard) {
    $("board").classList.remove("hidden");
    P10.renderBoard($("board"), s, { names: R.names, seat: null, readonly: true });
  }
  renderRoundLine(s);
  renderScores(s);
}

function renderRoundLine(s) {
  const total = R.record.total_rounds;
  $("rp-round").textContent = total ? t("replay.round_of", { n: s.round, total }) : t("replay.round", { n: s.round });
  $("rp-phases").textContent = s.players.map((p, seat) => nameOf(seat) + ": " + t("table.phase", { n: p.phase })).join(" · ");
  const select = $("rp-round-select");
  const current = R.record.rounds.filter((r) => r.step <= R.step).pop();
  if (current) select.value = String(current.step);
}

function renderScores(s) {
  const body = clear($("rp-scores-body"));
  P10.add(body, P10.scoreTable(s, nameOf));
  if ((s.history || []).length) P10.add(body, P10.chart(s, nameOf));
}
