/* Sounds, synthesised with WebAudio (no files): a few short tones, and an off switch remembered in this
   browser (localStorage "p10.sound"). The whole API: play(name), enabled(), setEnabled(on); also
   P10.sound. Browsers let a page sound only after a user gesture: the audio
   context is created (or resumed) on the first play after one. */
import { P10 } from "./common.js";

/* Each sound: [frequency Hz, start s, length s, waveform] notes. */
const SOUNDS = {
  turn: [[660, 0, 0.12, "sine"], [880, 0.13, 0.2, "sine"]],
  draw: [[520, 0, 0.06, "triangle"]],
  discard: [[330, 0, 0.08, "triangle"]],
  lay: [[523, 0, 0.1, "triangle"], [659, 0.09, 0.1, "triangle"], [784, 0.18, 0.16, "triangle"]],
  hit: [[700, 0, 0.08, "triangle"], [940, 0.07, 0.1, "triangle"]],
  skip: [[440, 0, 0.12, "square"], [294, 0.12, 0.18, "square"]],
  dice: [[180, 0, 0.04, "square"], [240, 0.06, 0.04, "square"], [200, 0.12, 0.05, "square"]],
  end: [[523, 0, 0.15, "sine"], [659, 0.15, 0.15, "sine"], [784, 0.3, 0.15, "sine"], [1046, 0.45, 0.3, "sine"]],
};
const VOLUME = 0.12;
let context = null;

export function enabled() { return P10.store.get("sound") !== "off"; }

export function setEnabled(on) { P10.store.set("sound", on ? "on" : "off"); }

/** Plays sound `name` (one of SOUNDS) unless sound is off; returns whether it was played. */
export function play(name) {
  const notes = SOUNDS[name];
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!notes || !enabled() || !Context) return false;
  try {
    context = context || new Context();
    if (context.state === "suspended") context.resume();
    const now = context.currentTime + 0.01;
    for (const [frequency, start, length, wave] of notes) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.type = wave;
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(VOLUME, now + start + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      osc.connect(gain).connect(context.destination);
      osc.start(now + start);
      osc.stop(now + start + length + 0.02);
    }
    return true;
  } catch (err) {
    return false;  // no audio device, or audio blocked: the game goes on silently
  }
}

P10.sound = { play, enabled, setEnabled };
