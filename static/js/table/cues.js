/* Which table moments make a sound (sound.js plays them): this seat's turn coming up (alerts.js's "turn"
   hook), and a few key events of anyone's — a phase laid, a hit, a skip, the dice, the end of a round or the
   game. The events are the seat's own redacted ones from the socket. Also the sound switch in the table's
   toolbar. */
import { $, on } from "./state.js";
import { enabled, play, setEnabled } from "../sound.js";

const EVENT_SOUND = {
  phase_laid: "lay", card_hit: "hit", skip_played: "skip", turn_skipped: "skip", dice_rolled: "dice",
  round_ended: "end", board_round_ended: "end", game_ended: "end",
};

// alerts.js says when this seat's turn starts (with vibration and notifications).
on("turn", () => play("turn"));

on("message", (msg) => {
  if (msg.type !== "update") return;
  const names = new Set((msg.events || []).map((e) => EVENT_SOUND[e.type]).filter(Boolean));
  // One sound per update: the end of a round outranks what led to it.
  for (const name of ["end", "lay", "hit", "skip", "dice"]) if (names.has(name)) { play(name); return; }
});

export function initCues() {
  const button = $("sound-button");
  if (!button) return;
  const show = () => button.setAttribute("aria-pressed", String(enabled()));
  button.addEventListener("click", () => { setEnabled(!enabled()); show(); });
  show();
}
