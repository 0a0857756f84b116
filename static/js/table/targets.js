/* Where a hand card may go now: read from the prompt, which the server builds from the engine's legal
   commands (its `hits`, `discards` and Master's `plays` of action cards); this module knows no rules, it only
   looks the card up. Used by the hit buttons (players.js), the discard pile (piles.js) and by drag and drop
   and the target highlighting (dnd.js). */
import { cardById, prompt } from "./state.js";

/** The legal targets of hand card `id`: {groups: Map(group index -> [end, ...]), discard: bool,
    seats: Map(seat -> play), blue: play | null}. An end is "low", "high" (runs) or null (other groups). A play
    (Master action cards) is the prompt's {card, target, to}: `seats` holds those that leave the card in front
    of seat `to` (a Skip in front of its target, Take two / All mine in front of oneself), `blue` one that
    puts it onto the blue pile (`to` null). A Mattel skip's seats are its discards naming that seat
    ({discard: true}). */
export function targetsOf(id) {
  const p = prompt();
  const groups = new Map();
  const seats = new Map();
  let blue = null;
  if (!p || id === null || id === undefined) return { groups, discard: false, seats, blue };
  for (const hit of p.hits || []) {
    if (hit.card !== id) continue;
    if (!groups.has(hit.group)) groups.set(hit.group, []);
    groups.get(hit.group).push(hit.end);
  }
  for (const play of p.plays || []) {
    if (play.card !== id) continue;
    if (play.to === null) blue = blue || play;
    else if (!seats.has(play.to)) seats.set(play.to, play);
  }
  // A Mattel skip is discarded naming the player it skips (M-6): each of the prompt's skip targets is a seat
  // it may be dropped on, as a discard (Master lays its Skip in front of the player with a play, R-10).
  const card = cardById(id);
  const discard = (p.discards || []).includes(id);
  if (discard && card && card.kind === "action" && card.action === "skip" && !(p.plays || []).some((x) => x.card === id)) {
    for (const seat of p.skip_targets || []) if (!seats.has(seat)) seats.set(seat, { card: id, target: seat, to: seat, discard: true });
  }
  return { groups, discard, seats, blue };
}

/** The ends of group `index` that card `id` may be hit onto ([] when none). */
export function hitEnds(id, index) {
  return targetsOf(id).groups.get(index) || [];
}
