/* The phase builder: the player puts selected hand cards into the phase's groups (or asks for a
   suggestion from the server's solver) and lays them down in one command (lay_phase). A card in a group is
   picked with a tap; the group's tools then move it within a run or take it back. */
import { S, $, cardById, render, selectedIds, setError } from "./state.js";
import { send } from "./commands.js";

import { P10 } from "../common.js";
import "../cards.js";
const { t, el, clear } = P10;
const icon = (name, cls) => P10.icon(name, cls);

let picked = null;  // the id of the card picked in a group (its tools show), or null

export function renderBuilder(v) {
  const box = clear($("builder"));
  box.classList.remove("hidden");
  const phase = v.my_phase;
  if (!S.builder || S.builder.length !== phase.length) S.builder = phase.map(() => []);
  P10.add(box, el("h3", null, t("builder.title", { phase: P10.describePhase(phase) })));
  const groups = el("div", { class: "builder-groups" });
  if (picked !== null && !S.builder.some((g) => g.includes(picked))) picked = null;
  phase.forEach((spec, gi) => {
    const ids = S.builder[gi];
    const isRun = spec.kind.includes("run");
    // Each card in a group is a button: a tap picks it (a second tap lets it go), and the group's tools act on
    // the picked card (move it left or right in a run, take it back). One row of tools per group, each at
    // least 24 px, so that nothing lies over the cards' corners, however many cards a run holds.
    const cards = ids.map((id) => {
      const card = cardById(id);
      if (!card) return null;
      const face = P10.cardEl(card, { small: true });
      face.setAttribute("aria-hidden", "true");
      face.removeAttribute("role");
      return el("button", { type: "button", class: "slot slot-card", "data-slot-card": id, "aria-pressed": String(picked === id),
        "aria-label": P10.cardLabel(card), onclick: () => { picked = picked === id ? null : id; render(); } }, face);
    });
    const pos = picked !== null ? ids.indexOf(picked) : -1;
    const pickedCard = pos >= 0 ? cardById(picked) : null;
    const name = pickedCard ? P10.cardLabel(pickedCard) : "";
    const move = (by) => () => { [ids[pos + by], ids[pos]] = [ids[pos], ids[pos + by]]; render(); };
    const tools = pickedCard ? el("div", { class: "slot-tools" },
      isRun ? el("button", { type: "button", class: "tiny slot-tool", "data-tool": "left", "aria-label": t("builder.left", { card: name }),
        disabled: pos === 0, onclick: move(-1) }, icon("left")) : null,
      el("button", { type: "button", class: "tiny slot-tool", "data-tool": "remove", "aria-label": t("builder.remove", { card: name }),
        onclick: () => { ids.splice(pos, 1); picked = null; render(); } }, icon("close")),
      isRun ? el("button", { type: "button", class: "tiny slot-tool", "data-tool": "right", "aria-label": t("builder.right", { card: name }),
        disabled: pos === ids.length - 1, onclick: move(1) }, icon("right")) : null) : null;
    P10.add(groups, el("div", { class: "builder-group", "data-builder-group": gi, role: "group",
      "aria-label": t("builder.group", { n: gi + 1, kind: P10.describePhase([spec]) }) },
    // the label in full, and the group's kind alone for a narrow builder of three or four groups (CSS)
    el("div", { class: "group-label" }, el("span", { class: "label-long" }, t("builder.group", { n: gi + 1, kind: P10.describePhase([spec]) })),
      el("span", { class: "label-short", "aria-hidden": "true" }, P10.describePhase([spec]))),
    el("div", { class: "group-cards" }, cards),
    el("button", { type: "button", class: "small put", "data-put": gi, onclick: () => {
      for (const id of selectedIds()) ids.push(id);
      if (isRun) ids.sort((a, b) => sortValue(a) - sortValue(b));
      S.selected.clear();
      render();
    } }, el("span", { class: "put-icon", "aria-hidden": "true" }, "+"), el("span", { class: "put-text" }, t("builder.put"))),
    tools));
  });
  P10.add(box, groups);
  if (phase.some((g) => g.kind.includes("run"))) P10.add(box, el("p", { class: "muted small-text" }, t("builder.run_order")));
  P10.add(box, el("div", { class: "builder-actions" },
    el("button", { type: "button", id: "builder-suggest", onclick: suggest }, icon("bulb", "bulb"), t("builder.suggest")),
    el("button", { type: "button", id: "builder-clear", onclick: () => { S.builder = phase.map(() => []); render(); } }, t("builder.clear")),
    el("button", { type: "button", id: "builder-close", "aria-label": t("builder.close"), title: t("builder.close"), onclick: () => {
      S.builder = null;
      S.building = false;
      render();
      const again = $("act-build");
      if (again) again.focus();
    } }, icon("close")),
    el("button", { type: "button", class: "primary", id: "builder-lay", onclick: () => {
      if (S.builder.some((g) => !g.length)) { setError(t("builder.incomplete")); return; }
      send({ type: "lay_phase", groups: S.builder.map((g) => [...g]) });
    } }, t("builder.lay"))));
}

function sortValue(id) {
  const c = cardById(id);
  // Naturals by number; jokers keep their place after the naturals (the player moves them with the group's tools).
  return c && c.kind === "number" ? c.number : 100;
}

async function suggest() {
  setError("");
  const result = await P10.api("GET", `/api/tables/${S.tableId}/hint`);
  if (!result.ok) { setError(P10.errorText(result.data.error)); return; }
  if (!result.data.groups) { setError(t("builder.no_suggestion")); return; }
  S.builder = result.data.groups.map((g) => [...g]);
  S.selected.clear();
  render();
}
