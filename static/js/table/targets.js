/* Where a hand card may go now: read from the prompt, which the server builds from the engine's legal
   commands (its `hits` and `discards`); this module knows no rules, it only looks the card up. Used by the
   hit buttons (players.js) and by drag and drop and the target highlighting (dnd.js). */
import { prompt } from "./state.js";

/** The legal targets of hand card `id`: {groups: Map(group index -> [end, ...]), discard: bool}. An end is
    "low", "high" (runs) or null (other groups). */
export function targetsOf(id) {
  const p = prompt();
  const groups = new Map();
  if (!p || id === null || id === undefined) return { groups, discard: false };
  for (const hit of p.hits || []) {
    if (hit.card !== id) continue;
    if (!groups.has(hit.group)) groups.set(hit.group, []);
    groups.get(hit.group).push(hit.end);
  }
  return { groups, discard: (p.discards || []).includes(id) };
}

/** The ends of group `index` that card `id` may be hit onto ([] when none). */
export function hitEnds(id, index) {
  return targetsOf(id).groups.get(index) || [];
}
