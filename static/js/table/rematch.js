/* Rematch by consent (docs/protocol.md, "Rematch"): "Play again" offers the next game; every player accepts or
   declines here, in their own page; the host may start with those who accepted. The table info's `rematch`
   (refreshed by the socket's `table` messages) says who answered what; the server deals the game. */
import { S, $, nameOf, on } from "./state.js";

import { P10 } from "../common.js";
const { t, el } = P10;

async function call(path, body) {
  const result = await P10.api("POST", `/api/tables/${S.tableId}/rematch${path}`, body);
  if (!result.ok) P10.toast(P10.errorText(result.data.error));
  return result;
}

/* A rematch offered while the end-of-game dialog is open: the dialog goes (once per offer; "Show result" opens it
   again), so that the offer and its Accept and Decline buttons are not left under it. */
let offerSeen = null;
on("rendered", () => {
  const offer = S.table && S.table.status === "finished" ? S.table.rematch : null;
  const key = offer ? S.tableId + ":" + gameKey() + ":" + offer.by : null;
  if (!offer || key === offerSeen) return;
  offerSeen = key;
  const dialog = $("summary");
  if (dialog.open) {
    dialog.close();
    const answer = $("rematch-accept") || $("rematch");
    if (answer) answer.focus();
  }
});
function gameKey() { return S.table && S.table.game ? S.table.game.number : 0; }

export async function offerRematch() {
  const result = await call("");
  if (result.ok && $("summary").open) $("summary").close();
}

/* The end-of-game controls for the rematch: the offer button, or the open offer with its answers. */
export function rematchPanel() {
  const offer = S.table && S.table.status === "finished" ? S.table.rematch : null;
  if (!offer) {
    return S.seat !== null
      ? el("button", { type: "button", id: "over-rematch", class: "primary", onclick: offerRematch }, t("summary.rematch"))
      : null;
  }
  const mine = S.seat !== null ? offer.answers.find((a) => a.seat === S.seat) : null;
  const buttons = [];
  if (mine && mine.answer !== "accepted") {
    buttons.push(el("button", { type: "button", id: "rematch-accept", class: "primary",
      onclick: () => call("/answer", { accept: true }) }, t("rematch.accept")));
  }
  if (mine && mine.answer !== "declined") {
    buttons.push(el("button", { type: "button", id: "rematch-decline",
      onclick: () => call("/answer", { accept: false }) }, t("rematch.decline")));
  }
  if (mine && mine.is_host && offer.answers.some((a) => a.answer !== "accepted")) {
    buttons.push(el("button", { type: "button", id: "rematch-start",
      onclick: () => call("/start") }, t("rematch.start_without")));
  }
  return el("div", { id: "rematch", class: "rematch" },
    el("p", null, t("rematch.offered", { name: nameOf(offer.by) })),
    el("ul", { class: "rematch-answers" }, offer.answers.map((a) =>
      el("li", { "data-seat": a.seat, "data-answer": a.answer }, a.name + ": " + t("rematch." + a.answer)))),
    el("div", { class: "controls" }, buttons),
    mine && mine.is_host ? optionsEditor(offer.options, offer.choices || {}) : null);
}

/* The host may change the next game's simple options (yes/no, numbers, a value from a closed list, words; a custom
   phase list or ring stays as it was); the server validates them and asks everyone again. */
function optionsEditor(options, choices) {
  const fields = [];
  for (const [name, value] of Object.entries(options)) {
    const id = "rematch-opt-" + name;
    let input = null;
    if (typeof value === "boolean") input = el("input", { type: "checkbox", id, "data-option": name, "data-kind": "bool", checked: value });
    else if (typeof value === "number") input = el("input", { type: "number", id, "data-option": name, "data-kind": "number", value: String(value) });
    else if (choices[name]) {
      input = el("select", { id, "data-option": name, "data-kind": "text" },
        choices[name].map((v) => el("option", { value: v, selected: v === value }, P10.choiceLabel(name, v))));
    } else if (typeof value === "string") input = el("input", { type: "text", id, "data-option": name, "data-kind": "text", value });
    if (!input) continue;
    fields.push(el("div", { class: "form-row" + (typeof value === "boolean" ? " check" : "") },
      el("label", { for: id }, P10.optionLabel(name)), input));
  }
  if (!fields.length) return null;
  // The button may outlive this render (P10.patch keeps equal nodes): it reads the offer and its form when clicked.
  return el("details", { class: "rematch-options" }, el("summary", null, t("rematch.options")), ...fields,
    el("button", { type: "button", id: "rematch-options-save", onclick: (event) => {
      const form = event.currentTarget.closest("details");
      const changed = { ...((S.table && S.table.rematch && S.table.rematch.options) || options) };
      form.querySelectorAll("[data-option]").forEach((node) => {
        const kind = node.dataset.kind;
        changed[node.dataset.option] = kind === "bool" ? node.checked : kind === "number" ? Number(node.value) : node.value;
      });
      call("", { options: changed });
    } }, t("rematch.options_save")));
}
