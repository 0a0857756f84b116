/* The story of a table: every game played at it (the first and its rematches) with winners, scores and a replay
   link, and the standings across its finished games (games won, rounds won, phases made, average score per
   round; in the board game the marker fields gained). Shared by the table's score panel and "My tables"; the data is GET /api/tables/{id}/series (or the
   same fields of each entry of GET /api/my/tables). */
import { P10 } from "./common.js";

(function (P10) {
  const { t, el } = P10;

  /* A player's result in a game: penalty points in the card games; in the board game (its cards carry no
     points, B-8) the field of the marker on the phase track. */
  function result(g, p) {
    if (p.score === null || p.score === undefined) return "–";
    return g.ruleset === "board" ? t("series.field", { n: p.score }) : String(p.score);
  }

  function gameRow(g) {
    // the winner marked with a drawn trophy (an emoji shows as an empty box without an emoji font), said in words
    const scores = g.players.flatMap((p, i) => [i ? " · " : null,
      p.winner ? [P10.icon("trophy"), el("span", { class: "sr-only" }, t("summary.winners", { names: "" }).trim() + " ")] : null,
      (p.winner ? " " : "") + P10.playerName(p.name) + " " + result(g, p)]).flat().filter((x) => x !== null);
    return el("tr", { "data-game": g.number },
      el("th", { scope: "row" }, t("series.game", { n: g.number })),
      el("td", null, g.status === "finished" ? scores : el("span", { class: "muted" }, t("series.in_progress"))),
      el("td", null, g.status === "finished" ? t("series.rounds", { n: g.rounds }) : ""),
      el("td", null, el("a", { href: g.replay }, t("series.replay"))));
  }

  function standings(rows, board) {
    const last = board ? "series.fields" : "series.average";
    const head = el("tr", null, ["series.player", "series.games_won", "series.rounds_won", "series.phases_made", last]
      .map((key) => el("th", { scope: "col" }, t(key))));
    const lastCell = (r) => (board ? (r.fields ?? "–").toLocaleString(P10.lang)
      : r.average_score === null ? "–" : r.average_score.toLocaleString(P10.lang));
    return el("div", { class: "table-scroll" }, el("table", { class: "series-table series-standings" },
      el("thead", null, head),
      el("tbody", null, rows.map((r) => el("tr", null, el("th", { scope: "row" }, P10.playerName(r.name)),
        el("td", null, String(r.games_won)), el("td", null, String(r.rounds_won)), el("td", null, String(r.phases_made)),
        el("td", null, lastCell(r)))))));
  }

  /** The series as a node; `data`: {games, standings}; `opts.titled` false leaves out the first heading. */
  P10.seriesView = function (data, opts) {
    const titled = !opts || opts.titled !== false;
    const finished = data.games.filter((g) => g.status === "finished");
    return el("section", { class: "series", "data-games": data.games.length },
      titled ? el("h3", null, t("series.title")) : null,
      el("div", { class: "table-scroll" }, el("table", { class: "series-table series-games" }, el("tbody", null, data.games.map(gameRow)))),
      finished.length ? el("h3", null, t("series.standings")) : null,
      finished.length ? standings(data.standings, data.games.some((g) => g.ruleset === "board")) : null);
  };
})(P10);
