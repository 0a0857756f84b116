/* The turn timer (the table's clock) as a countdown: the view carries the seconds left when it was built and
   the turn's full length. On the screen of a seat the clock runs for it is personal and prominent ("Your
   time: 1:42", a ring that empties); the others see whose clock runs. */
import { S, $, nameOf } from "./state.js";

import { P10 } from "../common.js";
const { t } = P10;

/* The clock that runs now: the view's, unless the host set the table's clock since that view was built (PUT
   /clock sends a new table info, not a new view): a timer turned off stops at once, another mode counts with
   the table info's timer. The next view carries the new clock itself. */
let lastMode;          // the table's turn_timer as last rendered
let changedAt = null;  // the view version at which it changed

function currentTimer() {
  const mode = S.table ? S.table.turn_timer : undefined;
  if (mode !== lastMode) {
    if (lastMode !== undefined) changedAt = S.version;
    lastMode = mode;
  }
  if (changedAt === null || changedAt !== S.version) return S.view.timer;
  return mode === "off" ? null : (S.table.timer || S.view.timer);
}

export function renderTimer() {
  const timer = currentTimer();
  if (!timer || !(timer.seats || []).length || S.view.over) { S.timerEnd = null; $("timer").classList.add("hidden"); return; }
  const key = S.version + ":" + timer.deadline;
  if (S.timerKey !== key) { S.timerKey = key; S.timerEnd = Date.now() + timer.remaining * 1000; }
  S.timerSeats = timer.seats;
  S.timerTotal = timer.seconds || timer.remaining || 1;
  tickTimer();
}

/** 102 -> "1:42"; a correspondence timer (hours, days) 93784 -> "26:03:04". */
export function clock(seconds) {
  const two = (n) => String(n).padStart(2, "0");
  if (seconds >= 3600) return Math.floor(seconds / 3600) + ":" + two(Math.floor(seconds / 60) % 60) + ":" + two(seconds % 60);
  return Math.floor(seconds / 60) + ":" + two(seconds % 60);
}

export function tickTimer() {
  const node = $("timer");
  if (!S.timerEnd) { node.classList.add("hidden"); return; }
  const left = Math.max(0, Math.round((S.timerEnd - Date.now()) / 1000));
  const mine = S.seat !== null && S.timerSeats.includes(S.seat);
  node.classList.remove("hidden");
  node.classList.toggle("urgent", left <= 10);
  node.classList.toggle("mine", mine);
  node.querySelector(".timer-ring").style.setProperty("--left", String(Math.min(1, left / S.timerTotal)));
  node.querySelector(".timer-text").textContent = mine
    ? t("table.timer_mine", { time: clock(left) })
    : t("table.timer_others", { time: clock(left), names: S.timerSeats.map(nameOf).join(", ") });
}

export function initTimer() { setInterval(tickTimer, 1000); }
