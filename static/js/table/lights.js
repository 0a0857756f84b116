/* The lights: legal moves marked before the player chooses, read from the prompt (the engine's legal
   commands; this module knows no rules). In the play stage the hand cards that may be hit onto a laid group
   and the groups they fit (while no single card is selected: then the drag and drop module lights that
   card's own targets), and the action cards that may be played now (Master's blue cards, the prompt's
   `plays`); in the draw stage the discard pile when its top card fits the phase (`discard_fits`). The
   player turns them off and on with the switch beside the hand's sort buttons (on by default, remembered in
   this browser). */
import { S, $, prompt, render, selectedIds } from "./state.js";

import { P10 } from "../common.js";

export function lightsOn() { return P10.store.get("lights") !== false; }

/** What is lit now: {cards: Set(hand card id), groups: Set(group index), discard: bool}. */
export function lights() {
  const out = { cards: new Set(), groups: new Set(), discard: false };
  const p = prompt();
  if (!p || !lightsOn() || !S.view || S.view.over) return out;
  if (p.action === "draw" && p.discard_fits && (p.piles || []).includes("discard")) out.discard = true;
  if (p.action !== "play") return out;
  const single = selectedIds().length === 1;
  for (const hit of p.hits || []) {
    out.cards.add(hit.card);
    if (!single) out.groups.add(hit.group);
  }
  for (const play of p.plays || []) out.cards.add(play.card);
  return out;
}

export function initLights() {
  const button = $("lights-toggle");
  if (!button) return;
  const show = () => button.setAttribute("aria-pressed", String(lightsOn()));
  show();
  button.addEventListener("click", () => {
    P10.store.set("lights", !lightsOn());
    show();
    render();
  });
}
