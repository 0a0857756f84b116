/* "Play on from here": from the step on screen of a finished game, a practice table at exactly that position
   (POST .../practice): the player picks their seat and the bots' level; the answer sets the new seat's cookie
   and names the table's page, which the browser opens. */
import { R, $, gamePath, nameOf } from "./state.js";

import { P10 } from "../common.js";
const { t, el, clear } = P10;

export function initPractice() {
  if (R.record.public || R.record.status !== "finished") return;
  const button = $("rp-practice");
  button.classList.remove("hidden");
  const seats = clear($("rp-practice-seat"));
  R.record.seats.forEach((s) => seats.appendChild(el("option", { value: String(s.seat) }, nameOf(s.seat))));
  button.addEventListener("click", () => {
    const panel = $("rp-practice-panel");
    const open = panel.classList.toggle("hidden") === false;
    button.setAttribute("aria-expanded", String(open));
    if (open) {
      if (R.seat !== null) seats.value = String(R.seat);  // viewed as a seat: that seat is offered first
      practiceStep(R.step);
      $("rp-practice-seat").focus();
    }
  });
  $("rp-practice-start").addEventListener("click", start);
}

/** The panel follows the step on screen: its button names the step, and the last step (the game is over
    there) has nothing left to play. */
export function practiceStep(step) {
  const startButton = $("rp-practice-start");
  if (!startButton || R.record.public) return;
  const over = step >= R.record.version;
  startButton.textContent = t("practice.start", { n: step });
  startButton.disabled = over;
  $("rp-practice-ended").classList.toggle("hidden", !over);
}

async function start() {
  const startButton = $("rp-practice-start");
  startButton.disabled = true;
  $("replay-error").textContent = "";
  const body = { step: R.step, seat: parseInt($("rp-practice-seat").value, 10), level: $("rp-practice-level").value };
  const r = await P10.api("POST", gamePath("/practice"), body);
  if (!r.ok) {
    $("replay-error").textContent = P10.errorText(r.data.error);
    practiceStep(R.step);
    return;
  }
  location.href = r.data.url;
}
