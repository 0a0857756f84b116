/* The game's analysis, when the server offers it (GET .../analysis): its marks on the timeline (missed lay-downs,
   missed hits, discards that fed the next player, turning points), each a button that opens its step, and a
   short card per player ("Anna: 1 missed lay-down, 4 missed hits worth 35 points"). A server without it (404),
   a running game (409) or an analysis still being computed (202, asked again a few times) shows no marks. */
import { R, $, gamePath, nameOf } from "./state.js";
import { place } from "./timeline.js";

const P10 = window.P10;
const { t, el, clear } = P10;

export async function loadAnalysis(show, tries = 6) {
  if (R.record.public) return;
  const r = await P10.api("GET", gamePath("/analysis"));
  if (r.status === 202 && tries > 0) { setTimeout(() => loadAnalysis(show, tries - 1), 1500); return; }
  if (!r.ok || !r.data || !Array.isArray(r.data.marks)) return;
  R.analysis = r.data;
  renderMarks(show);
  renderCards();
}

export function markText(m) {
  const params = { name: nameOf(m.seat), round: m.round, points: m.points === null || m.points === undefined ? "" : m.points,
    n: typeof m.points === "number" ? m.points : 0 };
  const key = "analysis.mark." + m.kind + (m.kind === "missed_hit" && typeof m.points === "number" ? "_points" : "");
  const text = t(key, params);
  return text === key ? m.kind.replace(/_/g, " ") : text;
}

function renderMarks(show) {
  const box = clear($("rp-marks"));
  for (const m of R.analysis.marks) {
    const label = t("replay.step_n", { n: m.step }) + ": " + markText(m);
    const button = el("button", { type: "button", class: "rp-mark rp-mark-" + m.kind, "data-step": m.step,
      "aria-label": label, title: label });
    place(button, m.step);
    button.addEventListener("click", () => show(m.step));
    box.appendChild(button);
  }
}

/** "Anna: 1 missed lay-down, 4 missed hits worth 35 points, 2 discards that fed the next player" */
export function playerCard(p) {
  const parts = [];
  parts.push(t("analysis.missed_laydowns", { n: p.missed_laydowns }));
  parts.push(p.missed_hits ? t("analysis.missed_hits_worth", { n: p.missed_hits, points: p.missed_hit_points })
    : t("analysis.missed_hits", { n: 0 }));
  parts.push(t("analysis.fed_next", { n: p.fed_next }));
  return nameOf(p.seat) + ": " + parts.join(", ");
}

function renderCards() {
  const list = clear($("rp-analysis-cards"));
  for (const p of R.analysis.players || []) list.appendChild(el("li", { class: "rp-analysis-card", "data-seat": p.seat }, playerCard(p)));
  const turning = (R.analysis.marks || []).filter((m) => m.kind === "turning_point");
  if (turning.length) {
    list.appendChild(el("li", { class: "rp-analysis-card" }, t("analysis.turning_points") + " ",
      turning.flatMap((m, i) => [i ? ", " : "", el("a", { href: "#step=" + m.step }, t("replay.round", { n: m.round }) + " · " + nameOf(m.seat))])));
  }
}

/** The analysis panel is shown at the game's end (the last step), like the end of a game at the table. */
export function showCards(step) {
  $("rp-analysis").classList.toggle("hidden", !R.analysis || step !== R.record.version);
}
