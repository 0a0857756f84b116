/* The game's analysis, when the server offers it (GET .../analysis): its marks on the timeline (missed lay-downs,
   missed hits, discards that fed the next player, turning points), each a button that opens its step, and a
   short card per player ("Anna: 1 missed lay-down, 4 missed hits worth 35 points"). A server without it (404),
   a running game (409) or an analysis still being computed (202, asked again a few times) shows no marks. */
import { R, $, gamePath, nameOf } from "./state.js";
import { place } from "./timeline.js";

import { P10 } from "../common.js";
import "../cards.js";
const { t, el, clear } = P10;

export async function loadAnalysis(show, tries = 6) {
  if (R.record.public) return;
  const r = await P10.api("GET", gamePath("/analysis"));
  if (r.status === 202 && tries > 0) { setTimeout(() => loadAnalysis(show, tries - 1), 1500); return; }
  if (!r.ok || !r.data || !Array.isArray(r.data.marks)) return;
  R.analysis = r.data;
  renderMarks(show);
  renderCards();
  showCards();
}

const KINDS = ["missed_laydown", "missed_hit", "discarded_hit", "missed_go_out", "missed_pickup", "fed_next", "turning_point"];
const MARK_PX = 24;  // a mark's size: marks closer than this on the track are one cluster

function groupText(g) {
  return g ? t("analysis.on_group", { name: nameOf(g.owner), group: P10.groupLabel(g) }) : "";
}

/** The better move of a coaching mark in words: "Hit the blue 8 on Anna's set of 8s and go out: saves 15 points". */
function moveText(m) {
  const parts = [];
  for (const p of m.move || []) {
    if (p.do === "take") parts.push(t("analysis.do.take", { card: P10.cardLabel(p.card) }));
    else if (p.do === "hit") parts.push(t("analysis.do.hit", { card: P10.cardLabel(p.card), group: groupText(p.group) }));
    else if (p.do === "discard" && m.kind !== "missed_go_out") parts.push(t("analysis.do.discard", { card: P10.cardLabel(p.card) }));
    else if (p.do === "lay") parts.push(t("analysis.do.lay"));
  }
  let text = parts.join(t("analysis.then"));
  if (m.kind === "missed_go_out") text += (text ? t("analysis.then") : "") + t("analysis.do.go_out");
  text = text.charAt(0).toUpperCase() + text.slice(1);
  const counts = R.analysis && R.analysis.points !== false && typeof m.points === "number" && m.points > 0;
  return counts ? t("analysis.saves", { move: text, n: m.points }) : text + ".";
}

export function markText(m) {
  if (m.move) return nameOf(m.seat) + " (" + t("replay.round", { n: m.round }) + "): " + moveText(m);
  const params = { name: nameOf(m.seat), round: m.round, points: m.points === null || m.points === undefined ? "" : m.points,
    n: typeof m.points === "number" ? m.points : 0 };
  const key = "analysis.mark." + m.kind + (m.kind === "missed_hit" && typeof m.points === "number" ? "_points" : "");
  const text = t(key, params);
  return text === key ? m.kind.replace(/_/g, " ") : text;
}

/** Marks closer than a mark's size on the track form one cluster (never overlapping buttons). */
export function clusters(marks, width, total) {
  const out = [];
  const px = (step) => (total ? step / total : 0) * width;
  for (const m of marks) {
    const last = out[out.length - 1];
    if (last && px(m.step) - px(last[0].step) < MARK_PX) last.push(m);
    else out.push([m]);
  }
  return out;
}

function renderMarks(show) {
  const box = clear($("rp-marks"));
  const width = ($("rp-slider").getBoundingClientRect().width || 300);
  for (const group of clusters(R.analysis.marks, width, R.record.version)) {
    const m = group[0];
    const label = group.length === 1 ? t("replay.step_n", { n: m.step }) + ": " + markText(m)
      : t("analysis.cluster", { n: group.length });
    const button = el("button", { type: "button", class: "rp-mark rp-mark-" + (group.length === 1 ? m.kind : "cluster"),
      "data-step": m.step, "data-steps": group.map((g) => g.step).join(","), "aria-label": label, title: label },
    group.length === 1 ? "" : String(group.length));
    place(button, m.step);
    button.addEventListener("click", () => (group.length === 1 ? show(m.step) : listCluster(group, show)));
    box.appendChild(button);
  }
  renderLegend();
}

/** A tap on a cluster lists its marks, each opening its step. */
function listCluster(group, show) {
  const list = clear($("rp-cluster"));
  for (const m of group) {
    const b = el("button", { type: "button", class: "rp-cluster-step link", "data-step": m.step },
      t("replay.step_n", { n: m.step }) + ": " + markText(m));
    b.addEventListener("click", () => { list.classList.add("hidden"); show(m.step); });
    list.appendChild(el("li", {}, b));
  }
  list.classList.remove("hidden");
}

function renderLegend() {
  const legend = clear($("rp-legend"));
  const present = new Set(R.analysis.marks.map((m) => m.kind));
  for (const kind of KINDS) {
    if (!present.has(kind)) continue;
    legend.appendChild(el("li", {}, el("span", { class: "rp-swatch rp-swatch-" + kind, "aria-hidden": "true" }),
      " " + t("analysis.legend." + kind)));
  }
}

/** "Anna: 1 missed lay-down, 4 missed hits worth 35 points, 2 discards that fed the next player" */
export function playerCard(p) {
  const points = !R.analysis || R.analysis.points !== false;
  const parts = [];
  parts.push(t("analysis.missed_laydowns", { n: p.missed_laydowns }));
  parts.push(p.missed_hits && points ? t("analysis.missed_hits_worth", { n: p.missed_hits, points: p.missed_hit_points })
    : t("analysis.missed_hits", { n: p.missed_hits || 0 }));
  parts.push(t("analysis.fed_next", { n: p.fed_next }));
  if (p.discarded_hits) parts.push(t("analysis.discarded_hits", { n: p.discarded_hits }));
  if (p.missed_go_outs) parts.push(t("analysis.missed_go_outs", { n: p.missed_go_outs }));
  if (p.missed_pickups) parts.push(t("analysis.missed_pickups", { n: p.missed_pickups }));
  if (points && p.coaching_points) parts.push(t("analysis.better_saves", { n: p.coaching_points }));
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

/** The per-player summary is reachable at every step once the analysis is there. */
export function showCards() {
  $("rp-analysis").classList.toggle("hidden", !R.analysis);
}
