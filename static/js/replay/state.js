/* The replay's shared state and small helpers: the record, the step on screen, the cache of loaded steps, the
   seat it is viewed as, and the API paths of this game (carrying the share token of a share link). */
import { P10 } from "../common.js";

export const R = {
  record: null,      // GET .../replay: the game's record with its rounds and each command's round and turn
  step: 0,           // the step on screen (0: the deal; k: after k commands)
  target: 0,         // the step last asked for (still loading, or on screen): moves count from it
  cache: new Map(),  // step -> the whole table's (or, running, the spectator's) answer of .../replay/{step}
  seatCache: new Map(), // "seat:step" -> that seat's view at that step (finished games: "view as")
  names: {},         // engine seat -> name
  seat: null,        // the seat the finished game is viewed as, or null for the whole table
  cards: new Map(),  // card id -> card (finished games: every card of the deal, for the move list)
  analysis: null,    // GET .../analysis when the server has it: {marks, players}
  timer: null,
  speed: 1,
  share: null,       // the share link's token, when the page is /shared/{token}
};
P10.replay = R;

export const $ = (id) => document.getElementById(id);

/** An API path of this game ("" -> .../replay's parent): /api/shared/{token}... through a share link (its
    address names no table), else /api/tables/{table}/games/{number}... */
export function gamePath(suffix, params) {
  const text = new URLSearchParams(params || {}).toString();
  const base = R.share ? `/api/shared/${encodeURIComponent(R.share)}` : `/api/tables/${R.tableId}/games/${R.number}`;
  return `${base}${suffix}${text ? "?" + text : ""}`;
}

export function nameOf(seat) {
  return seat === null || seat === undefined ? "?" : R.names[seat] || P10.t("seat.n", { n: seat + 1 });
}

/** The round a step shows (a round starts at the step its deal is shown at). */
export function roundAt(step) {
  let current = R.record.rounds[0];
  for (const r of R.record.rounds) if (r.step <= step) current = r;
  return current;
}
