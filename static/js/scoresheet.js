/* The score sheet and its two charts (each player's total score and phase by round), shared by the table's
   score panel and the replay (which shows them up to the step on screen). `v` is a view or full state: its
   `players` and `history` ([{round, points, made}]); `nameOf(seat)` gives a player's name. */
import { P10 } from "./common.js";

(function (P10) {
  const { t, el } = P10;
  const PALETTE = ["#d33", "#26a", "#2a2", "#c80", "#838", "#0aa"];

  P10.scoreTable = function (v, nameOf) {
    const hist = v.history || [];
    if (!hist.length) return el("p", { class: "muted" }, t("scores.none"));
    const head = el("tr", null, el("th", { scope: "col" }, t("scores.round")), v.players.map((p) => el("th", { scope: "col" }, nameOf(p.seat))));
    // The Mattel tie-break round (M-8) is played by the tied seats only: the others sat it out, they did not
    // fail their phase. The view says which round it is (tiebreak, with each seat's in_round).
    const tiebreak = (r) => v.tiebreak && r.round === v.round;
    const satOut = (r, p) => tiebreak(r) && p.in_round === false;
    const rows = hist.map((r) => el("tr", { class: tiebreak(r) ? "tiebreak-round" : null },
      el("th", { scope: "row" }, String(r.round) + (tiebreak(r) ? " · " + t("scores.tiebreak") : "")),
      v.players.map((p) => (satOut(r, p) ? el("td", { class: "sat-out" }, "—", el("small", { class: "muted" }, el("span", { class: "sep" }, " · "), t("scores.sat_out")))
        : el("td", null, String(r.points[p.seat]), el("small", { class: "muted" }, el("span", { class: "sep" }, " · "),
          r.made[p.seat] ? t("summary.made", { n: r.made[p.seat] }) : t("summary.not_made")))))));
    const totals = v.players.map((p) => hist.reduce((sum, r) => sum + (r.points[p.seat] || 0), 0));
    const total = el("tr", { class: "total" }, el("th", { scope: "row" }, t("summary.total")),
      v.players.map((p, i) => el("td", null, String(p.score !== undefined ? p.score : totals[i]))));
    return el("table", { class: "scores" }, el("thead", null, head), el("tbody", null, rows, total));
  };

  /* Who leads, best first: the winners of a finished game, then (the card games) the most phases done and
     the fewest points (M-7, R-12), with fixed rounds the fewest points alone; the board game the phase marker
     furthest on (B-8, B-9). Each entry {seat, place, phases, score, leader}; equal standings share a place. */
  P10.ranking = function (v, opts) {
    const fixed = Boolean(opts && opts.fixedRounds);
    const board = v.ruleset === "board";
    const winners = new Set(v.over ? v.winners || [] : []);
    const key = (p) => [winners.has(p.seat) ? 0 : 1,
      board ? (p.finished ? 0 : 1) : 0,
      board ? -(p.marker || 0) : fixed ? 0 : -(p.phases_done || 0),
      board ? 0 : p.score || 0];
    const rows = v.players.map((p) => ({ seat: p.seat, key: key(p), phases: board ? p.marker || 0 : p.phases_done || 0,
      score: p.score || 0, finished: Boolean(p.finished), phase: p.phase }));
    const cmp = (a, b) => { for (let i = 0; i < a.key.length; i++) if (a.key[i] !== b.key[i]) return a.key[i] - b.key[i]; return 0; };
    rows.sort((a, b) => cmp(a, b) || a.seat - b.seat);
    rows.forEach((r, i) => { r.place = i && !cmp(r, rows[i - 1]) ? rows[i - 1].place : i + 1; r.leader = r.place === 1; });
    return rows;
  };

  /* The ranking as a phone reads it: a table of four narrow columns (place, name, phases, points with this
     round's), best first, and a bar per player sorted the same way, the leader's marked: no sideways scroll at
     six seats on a 360 px screen. `opts`: {fixedRounds, lead: a node to stand under the heading (the winners)}. */
  P10.rankingView = function (v, nameOf, opts) {
    const rows = P10.ranking(v, opts);
    const board = v.ruleset === "board";
    const last = (v.history || [])[(v.history || []).length - 1] || null;
    const finish = board ? v.finish || 10 : (v.phases || []).length || 10;
    const order = v.players.map((p) => p.seat);
    const phaseText = (r) => (board ? (r.finished ? t("board.finish") : t("table.phase", { n: r.phase }))
      : String(r.phases));
    const head = el("tr", null, el("th", { scope: "col" }, "#"), el("th", { scope: "col" }, t("series.player")),
      el("th", { scope: "col" }, t(board ? "ranking.marker" : "ranking.phases")),
      board ? null : el("th", { scope: "col" }, t("summary.total")));
    const body = rows.map((r) => el("tr", { class: r.leader ? "leader" : null, "data-seat": r.seat, "data-place": r.place },
      el("td", null, String(r.place)),
      el("th", { scope: "row" }, (r.leader ? "★ " : "") + nameOf(r.seat)),
      el("td", null, phaseText(r)),
      board ? null : el("td", null, String(r.score), last ? el("small", { class: "muted round-points",
        title: t("ranking.this_round") }, " +" + String(last.points[r.seat] || 0)) : null)));
    const table = el("table", { class: "ranking", id: "summary-ranking" }, el("thead", null, head), el("tbody", null, body));
    // the bars: phases done (the board: the marker's step) out of the game's, best first
    const W = 300, row = 22, L = 4, bar = W - L - 34;
    const svgNode = P10.svg("svg", { viewBox: `0 0 ${W} ${rows.length * row + 4}`, class: "ranking-chart", role: "img",
      "aria-label": t(board ? "ranking.chart_board" : "ranking.chart") + ": " + rows.map((r) => nameOf(r.seat) + " " + r.phases).join(", ") },
    rows.map((r, i) => {
      const y = 2 + i * row, w = Math.max(2, (bar * Math.min(r.phases, finish)) / Math.max(1, finish));
      return P10.svg("g", { class: "series-" + (order.indexOf(r.seat) % PALETTE.length) + (r.leader ? " leader" : "") },
        P10.svg("rect", { x: L, y: y + 3, width: bar, height: row - 6, rx: 3, class: "track" }),
        P10.svg("rect", { x: L, y: y + 3, width: w, height: row - 6, rx: 3, class: "bar" }),
        P10.svg("text", { x: L + 6, y: y + row / 2 + 4, "font-size": 11, class: "bar-name", text: (r.leader ? "★ " : "") + nameOf(r.seat) }),
        P10.svg("text", { x: W - 2, y: y + row / 2 + 4, "font-size": 11, "text-anchor": "end", class: "bar-value", text: String(r.phases) + "/" + finish }));
    }));
    return el("section", { class: "ranking-box" }, el("h3", null, t(v.over ? "ranking.title_final" : "ranking.title")),
      (opts && opts.lead) || null, table, el("figure", null, el("figcaption", null, t(board ? "ranking.chart_board" : "ranking.chart")), svgNode));
  };

  P10.chart = function (v, nameOf) {
    const hist = v.history || [];
    const wrap = el("div", { class: "charts" });
    const series = (kind) => v.players.map((p) => {
      let total = 0, phase = 0;
      return [0].concat(hist.map((r) => {
        total += r.points[p.seat];
        if (r.made[p.seat]) phase = Math.max(phase, r.made[p.seat]);
        return kind === "score" ? total : phase;
      }));
    });
    for (const kind of ["score", "phase"]) {
      const data = series(kind);
      const max = Math.max(1, ...data.flat());
      const W = 260, H = 120, L = 28, B = 18;
      const x = (i) => L + (i * (W - L - 6)) / Math.max(1, hist.length);
      const y = (val) => H - B - (val * (H - B - 6)) / max;
      const svgNode = P10.svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img",
        "aria-label": t(kind === "score" ? "summary.chart_score" : "summary.chart_phase") + ": " +
          v.players.map((p, i) => nameOf(p.seat) + " " + data[i][data[i].length - 1]).join(", ") },
      P10.svg("line", { x1: L, y1: H - B, x2: W, y2: H - B, stroke: "#888" }),
      P10.svg("line", { x1: L, y1: 0, x2: L, y2: H - B, stroke: "#888" }),
      P10.svg("text", { x: 2, y: 10, "font-size": 9, text: String(max) }),
      P10.svg("text", { x: 2, y: H - B, "font-size": 9, text: "0" }),
      hist.map((r, i) => P10.svg("text", { x: x(i + 1) - 3, y: H - 4, "font-size": 9, text: String(r.round) })),
      data.map((points, i) => P10.svg("polyline", { class: "series-" + (i % PALETTE.length), fill: "none", stroke: PALETTE[i % PALETTE.length], "stroke-width": 2,
        "stroke-dasharray": i % 2 ? "4 2" : null, points: points.map((val, k) => `${x(k)},${y(val)}`).join(" ") })));
      P10.add(wrap, el("figure", null, el("figcaption", null, t(kind === "score" ? "summary.chart_score" : "summary.chart_phase")), svgNode));
    }
    // the colours are classes (the page's Content-Security-Policy allows no style attribute); app.css repeats
    // PALETTE per class (.series-N), brighter in dark mode, for the lines and the legend
    P10.add(wrap, el("ul", { class: "legend" }, v.players.map((p, i) => el("li", null,
      el("span", { class: "swatch series-" + (i % PALETTE.length), "aria-hidden": "true" }), nameOf(p.seat)))));
    return wrap;
  };
})(P10);
