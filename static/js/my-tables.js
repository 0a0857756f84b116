/* My tables (the lobby): the tables this browser holds seats at, from its seat cookies (GET /api/my/tables),
   newest first, each marked "your turn", "waiting" or "finished", with results and replay links. */
"use strict";

(function (P10) {
  const { t, el, clear } = P10;

  function entry(table) {
    const title = t("ruleset." + table.ruleset + ".title");
    const games = table.games.filter((g) => g.status === "finished").map((g) =>
      el("li", { class: "my-game" },
        el("a", { href: g.replay }, t("table.game_n", { n: g.number })), " ",
        g.winners ? "🏆 " + t("summary.winners", { names: g.winners.join(", ") }) : ""));
    return el("li", { class: "my-table", "data-table": table.table_id, "data-badge": table.badge },
      el("a", { class: "my-table-link", href: table.link }, title),
      " ", el("span", { class: "badge my-badge badge-" + table.badge }, t("my." + table.badge)),
      el("div", { class: "muted small-text" }, t("my.with", { names: table.players.join(", ") })),
      games.length ? el("ul", { class: "my-games" }, games) : null);
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
})(window.P10);
