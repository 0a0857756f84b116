/* My tables (the lobby): the tables this browser holds seats at, from its seat cookies (GET /api/my/tables),
   newest first, each marked "your turn", "waiting" or "finished", with its series: every game's winners, scores
   and replay link, and the standings. */
import { P10 } from "./common.js";
import "./series.js";

(function (P10) {
  const { t, el, clear } = P10;

  function entry(table) {
    const title = t("ruleset." + table.ruleset + ".title");
    // the table's series: every game with winners and scores, and the standings (static/js/series.js)
    const played = table.games.some((g) => g.status === "finished");
    return el("li", { class: "my-table", "data-table": table.table_id, "data-badge": table.badge },
      el("a", { class: "my-table-link", href: table.link }, title),
      " ", el("span", { class: "badge my-badge badge-" + table.badge }, t("my." + table.badge)),
      el("div", { class: "muted small-text" }, t("my.with", { names: table.players.map((n) => P10.playerName(n)).join(", ") })),
      played ? el("details", { class: "my-series" }, el("summary", null, t("series.title") + " (" + table.games.length + ")"),
        P10.seriesView(table, { titled: false })) : null);
  }

  async function load() {
    const result = await P10.api("GET", "/api/my/tables");
    const section = document.getElementById("my-tables");
    if (!section || !result.ok) return;
    const tables = result.data.tables;
    section.classList.toggle("hidden", tables.length === 0);
    const list = clear(document.getElementById("my-tables-list"));
    tables.forEach((table) => list.appendChild(entry(table)));
    section.dataset.loaded = "true";
  }

  document.addEventListener("DOMContentLoaded", load);
  P10.myTables = { load };
})(P10);
