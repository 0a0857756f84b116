/* The piles: draw pile, discard pile (both buttons when the prompt lets this seat draw from them), Master's
   blue pile and the open Give-me-five offers. The discard pile is also a button while the one selected
   hand card may be discarded (the prompt's `discards`, targets.js): the pile is lit, and a tap (or Enter)
   discards the card. While the draw prompt says the discard pile's top card fits the phase, it is lit more
   (lights.js). */
import { S, $, nameOf, prompt, selectedIds } from "./state.js";
import { send } from "./commands.js";
import { discardSelected } from "./prompt.js";
import { targetsOf } from "./targets.js";
import { lights } from "./lights.js";

import { P10 } from "../common.js";
import "../cards.js";
const { t, el, clear } = P10;

function pileButton(kind, label, card, size, enabled, onclick) {
  // The draw pile shows a back; an empty pile an empty slot (never a back saying "0 cards").
  const inner = card ? P10.cardEl(card)
    : size ? el("span", { class: "card back" }, el("span", { class: "back-mark" }, "10"))
      : el("span", { class: "card empty" });
  inner.setAttribute("aria-hidden", "true");
  inner.removeAttribute("role");
  inner.removeAttribute("aria-label");
  const count = size ? t("table.cards", { n: size }) : t("table.empty_pile");
  // Named by its content (the words, for screen readers), so the name matches what the caption shows.
  const attrs = { type: "button", class: "pile pile-" + kind, id: "pile-" + kind, "data-pile": kind };
  if (!enabled) attrs.disabled = true;
  // The pile's size sits on it as a small count; its name is its title (and the words of the button).
  attrs.title = label + ", " + count;
  return el("div", { class: "pile-wrap" },
    el("button", Object.assign(attrs, { onclick }), inner,
      el("span", { class: "pile-count", "aria-hidden": "true" }, String(size || 0)),
      el("span", { class: "sr-only" }, label + (card ? ": " + P10.cardLabel(card) : "") + ", " + count)));
}

function discardPile(v, piles) {
  const label = t("table.discard_pile");
  if (piles.includes("discard")) {
    const wrap = pileButton("discard", label, v.discard_top, v.discard_size, true, () => send({ type: "draw", pile: "discard" }));
    if (lights().discard) {  // its top card fits this seat's phase (the prompt's discard_fits): lit
      const button = wrap.querySelector("button");
      button.classList.add("fits");
      button.title = t("table.discard_fits") + " – " + button.title;
      button.querySelector(".sr-only").textContent += " – " + t("table.discard_fits");
    }
    return wrap;
  }
  const ids = selectedIds();
  const onto = ids.length === 1 && targetsOf(ids[0]).discard;
  const wrap = pileButton("discard", label, v.discard_top, v.discard_size, onto, discardSelected);
  if (onto) wrap.querySelector("button").title = t("act.discard");
  return wrap;
}

export function renderPiles() {
  const v = S.view;
  const box = clear($("piles"));
  const offers = clear($("offers"));
  const p = prompt();
  const piles = p && (p.action === "draw" || p.action === "take") ? p.piles || [] : [];
  P10.add(box,
    pileButton("draw", t("table.draw_pile"), null, v.draw_size, piles.includes("draw"),
      () => send({ type: "draw", pile: "draw" })),
    discardPile(v, piles));
  if (v.ruleset === "master") {
    const blueTop = v.blue_top ? P10.cardEl(v.blue_top) : el("span", { class: "card empty" });
    blueTop.setAttribute("aria-hidden", "true");
    blueTop.removeAttribute("role");
    blueTop.removeAttribute("aria-label");
    P10.add(box, el("div", { class: "pile-wrap" },
      el("div", { class: "pile pile-blue", id: "pile-blue", "data-pile": "blue", role: "img",
        title: t("table.blue_pile") + ", " + t("table.cards", { n: v.blue_size }),
        "aria-label": t("table.blue_pile") + (v.blue_top ? ": " + P10.cardLabel(v.blue_top) : ": " + t("table.empty")) + ", " + t("table.cards", { n: v.blue_size }) },
      blueTop, el("span", { class: "pile-count", "aria-hidden": "true" }, String(v.blue_size || 0)))));
    if (v.give_me_five) {  // the open offers lie on the table (the field), not beside the hand
      P10.add(offers, el("div", { class: "offers" }, el("strong", null, t("action.give_me_five") + " → " + nameOf(v.give_me_five.taker)),
        el("div", { class: "group-cards" }, v.give_me_five.offers.map((o) => el("span", { class: "offer" },
          o.card ? P10.cardEl(o.card, { small: true }) : P10.cardEl(null, { small: true }), el("small", null, nameOf(o.seat)))))));
    }
  }
}
