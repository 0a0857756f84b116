/* The turn timer (the table's clock) as a countdown: the view carries the seconds left when it was built. */
import { S, $, nameOf } from "./state.js";

const P10 = window.P10;
const { t } = P10;

export function renderTimer() {
  const timer = S.view.timer;
  if (!timer || !(timer.seats || []).length || S.view.over) { S.timerEnd = null; $("timer").classList.add("hidden"); return; }
  const key = S.version + ":" + timer.deadline;
  if (S.timerKey !== key) { S.timerKey = key; S.timerEnd = Date.now() + timer.remaining * 1000; }
  S.timerSeats = timer.seats;
  tickTimer();
}

export function tickTimer() {
  const node = $("timer");
  if (!S.timerEnd) { node.classList.add("hidden"); return; }
  const left = Math.max(0, Math.round((S.timerEnd - Date.now()) / 1000));
  node.classList.remove("hidden");
  node.classList.toggle("urgent", left <= 10);
  const names = S.timerSeats.map(nameOf).join(", ");
  // A correspondence timer (hours, days) reads as h:mm:ss; a short one in seconds.
  node.textContent = "⏱ " + (left >= 3600
    ? t("table.timer_long", { time: Math.floor(left / 3600) + ":" + String(Math.floor(left / 60) % 60).padStart(2, "0")
        + ":" + String(left % 60).padStart(2, "0"), names })
    : t("table.timer", { s: left, names }));
}

export function initTimer() { setInterval(tickTimer, 1000); }
