/* The lights: legal moves marked before the player chooses, read from the prompt (the engine's legal
   commands; this module knows no rules). In the play stage the hand cards that may be hit onto a laid group
   and the groups they fit (while no single card is selected: then the drag and drop module lights that
   card's own targets), and the action cards that may be played now (Master's blue cards, the prompt's
   `plays`); in the draw stage the discard pile when its top card fits the phase (`discard_fits`); in the
   board game the action types the pawn may choose on a free-choice field (the prompt's `actions`, B-5) and,
   when another seat asks for a number, the hand cards that may be given (its `cards`). The
   player turns them off and on with the switch beside the hand's sort buttons (on by default, remembered in
   this browser). */
import { S, $, prompt, render, selectedIds } from "./state.js";

import { P10 } from "../common.js";

export function lightsOn() { return P10.store.get("lights") !== false; }

/** What is lit now: {cards: Set(hand card id), groups: Set(group index), discard: bool, choices: Set(the
    board game's action type)}. */
export function lights() {
  const out = { cards: new Set(), groups: new Set(), discard: false, choices: new Set() };
  const p = prompt();
  if (!p || !lightsOn() || !S.view || S.view.over) return out;
  if (p.action === "draw" && p.discard_fits && (p.piles || []).includes("discard")) out.discard = true;
  if (S.view.ruleset === "board" && p.action === "choose") for (const a of p.actions || []) out.choices.add(a);
  if (S.view.ruleset === "board" && p.action === "give") for (const id of p.cards || []) out.cards.add(id);
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

/** Lights the board game's prompt buttons for what :func:`lights` lit: each choosable action type
    (`data-action`) and the Give button of each card that may be given (`data-give`), named so for screen
    readers. */
export function lightBoardPrompt(controls) {
  const lit = lights();
  const mark = (button) => {
    button.classList.add("lit");
    button.appendChild(P10.el("span", { class: "sr-only" }, " – " + P10.t("table.lit_card")));
  };
  controls.querySelectorAll("button[data-action]").forEach((b) => { if (lit.choices.has(b.dataset.action)) mark(b); });
  controls.querySelectorAll("button[data-give]").forEach((b) => { if (lit.cards.has(Number(b.dataset.give))) mark(b); });
}
