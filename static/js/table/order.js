/* The player's own order of the hand (dragged into place, or moved with Alt+←/→), remembered per table in
   this browser. Choosing "sort by number/colour" drops it. Only the page's presentation: the server never
   knows it. */
import { S } from "./state.js";

import { P10 } from "../common.js";
const key = () => "order." + S.tableId;

/** `cards` (already sorted by the page's sort) in the player's own order when "custom" is chosen: the cards
    the order names first, in that order, then any other (a card drawn since) in the sorted order. */
export function arrange(cards) {
  if (S.sort !== "custom") return cards;
  const order = P10.store.get(key()) || [];
  const at = new Map(order.map((id, i) => [id, i]));
  const known = cards.filter((c) => at.has(c.id)).sort((a, b) => at.get(a.id) - at.get(b.id));
  return known.concat(cards.filter((c) => !at.has(c.id)));
}

/** Remember `ids` (the hand as shown, left to right) as the player's own order. */
export function setOrder(ids) {
  S.sort = "custom";
  P10.store.set("sort", "custom");
  P10.store.set(key(), ids);
}
