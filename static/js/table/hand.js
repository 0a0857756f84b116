/* This seat's hand: sorted by number or colour (or in the player's own order, order.js), tap (or Enter/Space)
   to select; cards in the phase builder are not shown here. A card with a legal hit or play is lit. Each card is a button carrying data-card-id:
   the seam drag and drop uses. */
import { S, $, hand, inBuilder, render, setError } from "./state.js";
import { arrange } from "./order.js";
import { lights } from "./lights.js";

import { P10 } from "../common.js";
import "../cards.js";
const { clear, el } = P10;

export function renderHand() {
  const box = clear($("hand"));
  const cards = arrange(P10.sortCards(hand().filter((c) => !inBuilder(c.id)), S.sort));
  $("sort-number").setAttribute("aria-pressed", String(S.sort === "number"));
  $("sort-colour").setAttribute("aria-pressed", String(S.sort === "colour"));
  $("hand-area").classList.toggle("hidden", S.seat === null);
  // One overlapping row (wrapping only when a card would show less than its corner): each card sits in a slot
  // that shrinks to that width, the card itself keeps its size and the next one lies over its right part.
  // A card that may be hit onto a laid group or played now is lit (lights.js), its name says so.
  const lit = lights().cards;
  for (const card of cards) {
    const node = P10.cardEl(card, { button: true, selected: S.selected.has(card.id), onclick: () => toggle(card.id),
      extraLabel: lit.has(card.id) ? P10.t("table.lit_card") : null });
    if (lit.has(card.id)) node.classList.add("lit");
    box.appendChild(el("span", { class: "hand-slot" }, node));
  }
}

/** Selects or unselects a hand card (the accessible path for every move that takes a card). */
export function toggle(id) {
  if (S.selected.has(id)) S.selected.delete(id); else S.selected.add(id);
  setError("");
  render();
}

export function initHand() {
  const sortBy = (mode) => { S.sort = mode; P10.store.set("sort", S.sort); render(); };
  $("sort-number").addEventListener("click", () => sortBy("number"));
  $("sort-colour").addEventListener("click", () => sortBy("colour"));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && S.selected.size) { S.selected.clear(); render(); }
  });
}
