/* The timeline: the slider with a tick at each round's first step, "jump to round", first / previous round /
   back / play / forward / next round / last, autoplay at a chosen speed, and the keyboard (← → a step,
   PgUp PgDn a round, Home End the ends). */
import { R, $ } from "./state.js";

import { P10 } from "../common.js";
const { t, el, clear } = P10;
let go = () => {};

/** Where a step sits along the slider's track, in per cent (the thumb's half-width is left at each end). */
export function place(node, step) {
  const fraction = R.record.version ? step / R.record.version : 0;
  node.style.left = `calc(var(--thumb) / 2 + (100% - var(--thumb)) * ${fraction})`;
}

export function buildTimeline(show) {
  go = show;
  const slider = $("rp-slider");
  slider.max = String(R.record.version);
  const ticks = clear($("rp-ticks"));
  const select = clear($("rp-round-select"));
  const total = R.record.total_rounds;
  for (const r of R.record.rounds) {
    const tick = el("span", { class: "rp-tick", title: t("replay.round", { n: r.round }) });
    place(tick, r.step);
    ticks.appendChild(tick);
    select.appendChild(el("option", { value: String(r.step) },
      total ? t("replay.round_of", { n: r.round, total }) : t("replay.round", { n: r.round })));
  }
  select.addEventListener("change", () => { stop(); go(parseInt(select.value, 10)); });
  $("rp-first").addEventListener("click", () => { stop(); go(0); });
  $("rp-back").addEventListener("click", () => { stop(); go(R.target - 1); });
  $("rp-forward").addEventListener("click", () => { stop(); go(R.target + 1); });
  $("rp-last").addEventListener("click", () => { stop(); go(R.record.version); });
  $("rp-prev-round").addEventListener("click", () => { stop(); go(roundStep(-1)); });
  $("rp-next-round").addEventListener("click", () => { stop(); go(roundStep(1)); });
  slider.addEventListener("input", () => { stop(); go(parseInt(slider.value, 10)); });
  $("rp-play").addEventListener("click", () => (R.timer ? stop() : play()));
  $("rp-speed").addEventListener("change", () => {
    R.speed = parseFloat($("rp-speed").value) || 1;
    if (R.timer) { stop(); play(); }
  });
  document.addEventListener("keydown", onKey);
  swipe(document.querySelector(".rp-grid"));
}

/** A horizontal swipe over the table steps: to the left the next step, to the right the one before (a mostly
    vertical one scrolls the page as usual). */
function swipe(area) {
  if (!area) return;
  let from = null;
  area.addEventListener("touchstart", (event) => {
    from = event.touches.length === 1 ? { x: event.touches[0].clientX, y: event.touches[0].clientY } : null;
  }, { passive: true });
  area.addEventListener("touchend", (event) => {
    if (!from || !event.changedTouches.length) return;
    const dx = event.changedTouches[0].clientX - from.x, dy = event.changedTouches[0].clientY - from.y;
    from = null;
    if (Math.abs(dx) < 48 || Math.abs(dx) < 2 * Math.abs(dy)) return;
    stop();
    go(R.target + (dx < 0 ? 1 : -1));
  }, { passive: true });
}

/** The first step of the previous (-1) or next (+1) round; -1 from inside a round goes to its own start. Steps
    count from the one last asked for (``R.target``), so keys pressed while a step loads queue: three quick → →
    → land three steps on. */
export function roundStep(direction) {
  const starts = R.record.rounds.map((r) => r.step);
  if (direction > 0) {
    const next = starts.find((s) => s > R.target);
    return next === undefined ? R.record.version : next;
  }
  const earlier = starts.filter((s) => s < R.target);
  return earlier.length ? earlier[earlier.length - 1] : 0;
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  const typing = target && (target.tagName === "SELECT" || target.tagName === "TEXTAREA" ||
    (target.tagName === "INPUT" && target.type !== "range"));
  if (typing) return;
  const moves = {
    ArrowLeft: () => R.target - 1, ArrowRight: () => R.target + 1,
    PageUp: () => roundStep(-1), PageDown: () => roundStep(1),
    Home: () => 0, End: () => R.record.version,
  };
  if (!moves[event.key]) return;
  event.preventDefault();  // also the slider's own handling: one key, one step
  stop();
  go(moves[event.key]());
}

export function play() {
  if (R.step >= R.record.version) go(0);
  $("rp-play").setAttribute("aria-pressed", "true");
  $("rp-play").textContent = "❚❚";
  $("rp-play").setAttribute("aria-label", t("replay.pause"));
  R.timer = setInterval(() => {
    if (R.step >= R.record.version) stop(); else go(R.step + 1);
  }, 900 / R.speed);
}

export function stop() {
  clearInterval(R.timer);
  R.timer = null;
  $("rp-play").setAttribute("aria-pressed", "false");
  $("rp-play").textContent = "▶";
  $("rp-play").setAttribute("aria-label", t("replay.play"));
}
