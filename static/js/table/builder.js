/* The phase builder: the player puts selected hand cards into the phase's groups (or asks for a
   suggestion from the server's solver) and lays them down in one command (lay_phase). */
import { S, $, cardById, render, selectedIds, setError } from "./state.js";
import { send } from "./commands.js";

const P10 = window.P10;
const { t, el, clear } = P10;

export function renderBuilder(v) {
  const box = clear($("builder"));
  box.classList.remove("hidden");
  const phase = v.my_phase;
  if (!S.builder || S.builder.length !== phase.length) S.builder = phase.map(() => []);
  P10.add(box, el("h3", null, t("builder.title", { phase: P10.describePhase(phase) })));
  const groups = el("div", { class: "builder-groups" });
  phase.forEach((spec, gi) => {
    const ids = S.builder[gi];
    const isRun = spec.kind.includes("run");
    const cards = ids.map((id, pos) => {
      const card = cardById(id);
      if (!card) return null;
      const name = P10.cardLabel(card);
      return el("div", { class: "slot" }, P10.cardEl(card, { small: true }),
        el("div", { class: "slot-controls" },
          isRun && pos > 0 ? el("button", { type: "button", class: "tiny", "aria-label": t("builder.left", { card: name }),
            onclick: () => { [ids[pos - 1], ids[pos]] = [ids[pos], ids[pos - 1]]; render(); } }, "◀") : null,
          el("button", { type: "button", class: "tiny", "aria-label": t("builder.remove", { card: name }),
            onclick: () => { ids.splice(pos, 1); render(); } }, "✕"),
          isRun && pos < ids.length - 1 ? el("button", { type: "button", class: "tiny", "aria-label": t("builder.right", { card: name }),
            onclick: () => { [ids[pos + 1], ids[pos]] = [ids[pos], ids[pos + 1]]; render(); } }, "▶") : null));
    });
    P10.add(groups, el("div", { class: "builder-group", "data-builder-group": gi, role: "group",
      "aria-label": t("builder.group", { n: gi + 1, kind: P10.describePhase([spec]) }) },
    el("div", { class: "group-label" }, t("builder.group", { n: gi + 1, kind: P10.describePhase([spec]) })),
    el("div", { class: "group-cards" }, cards),
    el("button", { type: "button", class: "small put", "data-put": gi, onclick: () => {
      for (const id of selectedIds()) ids.push(id);
      if (isRun) ids.sort((a, b) => sortValue(a) - sortValue(b));
      S.selected.clear();
      render();
    } }, el("span", { class: "put-icon", "aria-hidden": "true" }, "+"), el("span", { class: "put-text" }, t("builder.put")))));
  });
  P10.add(box, groups);
  if (phase.some((g) => g.kind.includes("run"))) P10.add(box, el("p", { class: "muted small-text" }, t("builder.run_order")));
  P10.add(box, el("div", { class: "builder-actions" },
    el("button", { type: "button", id: "builder-suggest", onclick: suggest }, el("span", { class: "bulb", "aria-hidden": "true" }, "💡"), t("builder.suggest")),
    el("button", { type: "button", id: "builder-clear", onclick: () => { S.builder = phase.map(() => []); render(); } }, t("builder.clear")),
    el("button", { type: "button", id: "builder-close", "aria-label": t("builder.close"), title: t("builder.close"), onclick: () => {
      S.builder = null;
      S.building = false;
      render();
      const again = $("act-build");
      if (again) again.focus();
    } }, "✕"),
    el("button", { type: "button", class: "primary", id: "builder-lay", onclick: () => {
      if (S.builder.some((g) => !g.length)) { setError(t("builder.incomplete")); return; }
      send({ type: "lay_phase", groups: S.builder.map((g) => [...g]) });
    } }, t("builder.lay"))));
}

function sortValue(id) {
  const c = cardById(id);
  // Naturals by number; jokers keep their place after the naturals (the player moves them with ◀ ▶).
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
