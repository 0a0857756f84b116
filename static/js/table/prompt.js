/* The prompt and its actions: what this seat is asked to do now (from the view's prompt, which the engine
   builds from its legal commands) and the buttons that send it. Board-only prompts are drawn by board.js. */
import { S, $, cardById, myTurnAction, nameOf, oneSelected, prompt, render, selectedIds, setError } from "./state.js";
import { send } from "./commands.js";
import { renderBuilder } from "./builder.js";
import { renderOver } from "./scores.js";
import { lights, lightBoardPrompt } from "./lights.js";

import { P10 } from "../common.js";
import "../board.js";
import "../cards.js";
const { t, el, clear } = P10;

function waitingText(v) {
  const awaited = (v.awaited || []).map(nameOf);
  if (!awaited.length) return "";
  return awaited.length === 1 ? t("prompt.wait", { name: awaited[0] }) : t("prompt.wait_many", { names: awaited.join(", ") });
}

export function renderPrompt() {
  const v = S.view;
  const p = prompt();
  const promptNode = $("prompt");
  const actions = clear($("actions"));
  const builder = clear($("builder"));
  builder.classList.add("hidden");
  if (S.seat === null) promptNode.textContent = t("table.spectating") + " " + waitingText(v);
  if (v.over) { renderOver(promptNode, $("prompt-controls")); return; }  // patched in place, not cleared
  const controls = clear($("prompt-controls"));
  const action = myTurnAction();
  if (!action) { if (S.seat !== null) promptNode.textContent = waitingText(v); return; }
  if (v.ruleset === "board" && P10.renderBoardPrompt &&
      P10.renderBoardPrompt({ p, v, promptNode, controls, actions, send, setError, selectedIds, oneSelected, nameOf, render })) {
    lightBoardPrompt(controls);
    return;
  }
  switch (action) {
    case "draw":
      promptNode.textContent = p.take_two ? t("prompt.draw_take_two") : p.piles.includes("discard") ? t("prompt.draw") : t("prompt.draw_only");
      P10.add(controls,
        el("button", { type: "button", class: "primary", id: "act-draw", onclick: () => send({ type: "draw", pile: "draw" }) }, t("act.draw_pile")),
        p.piles.includes("discard") ? el("button", { type: "button", id: "act-take-discard", class: lights().discard ? "fits" : null,
          onclick: () => send({ type: "draw", pile: "discard" }) }, t("act.discard_pile")) : null);
      break;
    case "play":
      renderPlay(p, v, promptNode, actions);
      break;
    case "choose_take_two":
      promptNode.textContent = t("prompt.choose_take_two");
      P10.add(controls, el("div", { class: "choice-cards" }, p.cards.map((c) => el("div", { class: "choice" }, P10.cardEl(c),
        el("button", { type: "button", onclick: () => send({ type: "choose_take_two", keep: c.id }) }, t("act.keep"))))));
      break;
    case "offer":
      promptNode.textContent = t("prompt.offer", { name: nameOf(p.taker), n: p.count });  // plural forms (key#one...)
      P10.add(actions, el("button", { type: "button", class: "primary", id: "act-offer", onclick: () => {
        const id = oneSelected(); if (id !== null) send({ type: "offer_card", card: id });
      } }, t("act.offer")));
      break;
    case "take_offer":
      promptNode.textContent = t("prompt.take_offer");
      P10.add(controls, el("div", { class: "choice-cards" }, p.offers.filter((o) => o.card).map((o) => el("div", { class: "choice" },
        P10.cardEl(o.card, { small: true }), el("small", null, nameOf(o.seat)),
        el("button", { type: "button", onclick: () => send({ type: "take_offer", card: o.card.id }) }, t("act.take"))))));
      break;
    case "keep_hand":
      promptNode.textContent = t("prompt.keep_hand", { n: p.hand_size });
      P10.add(controls,
        el("button", { type: "button", class: "primary", onclick: () => send({ type: "keep_hand", keep: true }) }, t("act.keep_hand")),
        el("button", { type: "button", onclick: () => send({ type: "keep_hand", keep: false }) }, t("act.return_hand")));
      break;
    default:
      promptNode.textContent = action;
  }
}

function renderPlay(p, v, promptNode, actions) {
  const master = v.ruleset === "master";
  promptNode.textContent = master ? t("prompt.play_master") : p.can_lay ? t("prompt.play") : t("prompt.play_laid");
  if (p.two_discards) promptNode.textContent += " " + t("prompt.two_discards");  // board B-7, said before the first
  // The builder opens on demand: the "Lay phase…" button starts a lay-down, laying (or its close button)
  // ends it.
  if (p.can_lay && v.my_phase && S.building) renderBuilder(v);
  else if (p.can_lay && v.my_phase) {
    P10.add(actions, el("button", { type: "button", class: "primary", id: "act-build", onclick: () => {
      S.building = true;
      render();
      const first = document.querySelector("#builder button");
      if (first) first.focus();
    } }, t("builder.open")));
  }
  const ids = selectedIds();
  const single = ids.length === 1 ? cardById(ids[0]) : null;
  const isAction = single && single.kind === "action";
  const mattelSkip = single && !master && single.action === "skip";
  const needsTarget = (mattelSkip || (master && single && single.action === "skip")) && (p.skip_targets || []).length > 0;
  let targetSelect = null;
  if (needsTarget) {
    targetSelect = el("select", { id: "skip-target", "aria-label": t("act.skip_target") },
      p.skip_targets.map((s) => el("option", { value: s }, nameOf(s))));
    P10.add(actions, el("label", { for: "skip-target", class: "inline-label" }, t("act.skip_target")), targetSelect);
  }
  const target = () => (targetSelect ? parseInt(targetSelect.value, 10) : null);
  if (master && isAction) {
    if (single.action === "give_me_five") {
      P10.add(actions,
        el("button", { type: "button", class: "primary", id: "act-play-action", onclick: () => send({ type: "play_action", card: single.id, target: null, ask: true }) }, t("act.ask")),
        el("button", { type: "button", id: "act-play-decline", onclick: () => send({ type: "play_action", card: single.id, target: null, ask: false }) }, t("act.decline")));
    } else {
      P10.add(actions, el("button", { type: "button", class: "primary", id: "act-play-action",
        onclick: () => send({ type: "play_action", card: single.id, target: target(), ask: true }) }, t("act.play_action")));
    }
  } else {
    P10.add(actions, el("button", { type: "button", class: p.can_lay && !S.building ? "" : "primary", id: "act-discard", disabled: ids.length !== 1 ? true : null,
      onclick: discardSelected }, t("act.discard")));
  }
}

/** Discards the one selected card (the Discard button and the lit discard pile); a Mattel skip names the
    seat chosen in the skip-target list the play prompt shows for it (one of the prompt's `skip_targets`). */
export function discardSelected() {
  const id = oneSelected();
  if (id === null) return;
  const select = $("skip-target");
  send({ type: "discard", card: id, target: select ? parseInt(select.value, 10) : null });
}
