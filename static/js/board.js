/* The board game (B-1..B-10): the 32-field ring with pawns, the phase track with markers, the dice and
   every field action's choices. Drawn with SVG; every field has a text label and a symbol. */
import { P10 } from "./common.js";
import "./cards.js";

(function (P10) {
  const { t, el, svg, clear } = P10;
  const PAWN = ["#d32f2f", "#1f5fbf", "#2e7d32", "#e5b400", "#8e24aa", "#00796b"];
  const FIELD_SYMBOL = { "+N": "+", search: "◎", again: "↻", swap: "⇄", all: "∀", joker: "J", ask: "?", choice: "★" };
  const FIELD_FILL = { "+N": "#e3f2fd", search: "#fff3e0", again: "#e8f5e9", swap: "#fce4ec", all: "#ede7f6",
    joker: "#fffde7", ask: "#e0f7fa", choice: "#bbdefb" };

  P10.fieldName = function (field) {
    if (field && field.startsWith("+")) return t("field.plus", { n: field.slice(1) });
    return t("field." + field);
  };

  function fieldShort(f) { return f.field.startsWith("+") ? f.field : FIELD_SYMBOL[f.action] || "?"; }

  /* The ring's path: a loop of straight sides and round ends fitted to a W×H box (a circle in a square box),
     so that on a wide, low felt (a tablet with groups laid, a phone) the 32 fields are spread along the
     whole box instead of a circle its height allows. pos(d) is the point at distance d along the loop from
     its top middle, clockwise, with the outward normal (nx, ny). */
  function loop(W, H, margin) {
    const cx = W / 2, cy = H / 2;
    const wide = W >= H;
    const r = Math.max(10, Math.min(W, H) / 2 - margin);
    const s = Math.max(0, Math.abs(W - H) / 2);  // half of a straight side
    const length = 4 * s + 2 * Math.PI * r;
    // along the loop of a wide box, from the top middle; a tall box turns it a quarter (top middle again)
    const flat = (d) => {
      if (d < s) return [d, -r, 0, -1];
      if (d < s + Math.PI * r) { const a = (d - s) / r; return [s + r * Math.sin(a), -r * Math.cos(a), Math.sin(a), -Math.cos(a)]; }
      if (d < 3 * s + Math.PI * r) return [s - (d - s - Math.PI * r), r, 0, 1];
      if (d < 3 * s + 2 * Math.PI * r) { const a = (d - 3 * s - Math.PI * r) / r; return [-s - r * Math.sin(a), r * Math.cos(a), -Math.sin(a), Math.cos(a)]; }
      return [-s + (d - 3 * s - 2 * Math.PI * r), -r, 0, -1];
    };
    const pos = (d) => {
      if (wide) { const [x, y, nx, ny] = flat(((d % length) + length) % length); return { x: cx + x, y: cy + y, nx, ny }; }
      const [x, y, nx, ny] = flat((((d + s + Math.PI * r / 2) % length) + length) % length);
      return { x: cx + y, y: cy - x, nx: ny, ny: -nx };
    };
    return { length, pos, r, s };
  }

  /* The size the ring is drawn at: the table's felt gives the board a box of its own (the SVG fills it, in
     CSS pixels, re-laid when the box changes); elsewhere (the replay) a square that scales with the page. */
  function boxSize(box) {
    if (!document.body.classList.contains("in-game") || !box.clientWidth) return { W: 380, H: 380, fit: false };
    const info = box.querySelector(".field-info");
    const H = box.clientHeight - (info ? info.offsetHeight : 0);
    return { W: Math.max(160, box.clientWidth), H: Math.max(120, H), fit: true };
  }

  /* The ring as one line (B-1), for a small phone while the lay-down is being built (app.css shows it instead
     of the ring there, so that the seats and all they laid stay in view over the builder): the fields the
     pawns stand on, each with its number, its symbol (in the field's colour) and the marks of the pawns on
     it, from the player's own field (marked) onwards in the ring's order; a spectator's from field 0. */
  function pawnStrip(v, ctx, marks) {
    const ring = v.ring || [];
    const n = ring.length || 32;
    const pawns = v.pawns || [];
    const own = ctx.seat !== null && ctx.seat !== undefined && pawns[ctx.seat] !== undefined ? pawns[ctx.seat] : null;
    const start = own === null ? 0 : own;
    const fields = [...new Set(pawns)].sort((a, b) => ((a - start + n) % n) - ((b - start + n) % n));
    const nameOf = (seat) => (ctx.names && ctx.names[seat]) || t("seat.n", { n: seat + 1 });
    return el("ol", { class: "pawn-strip", "aria-label": t("board.title") }, fields.map((field) => {
      const f = ring[field] || { field: "", action: "" };
      const here = pawns.map((at, seat) => [at, seat]).filter(([at]) => at === field).map(([, seat]) => seat);
      const label = t("board.field", { n: field, action: P10.fieldName(f.field) }) + ": " + here.map(nameOf).join(", ");
      return el("li", { class: "strip-field" + (field === own ? " me" : ""), "data-field": field, title: label },
        el("span", { class: "sr-only" }, label),
        el("span", { class: "strip-where", "aria-hidden": "true" },
          el("span", { class: "strip-number" }, String(field)),
          el("span", { class: "strip-symbol", "data-action": f.action }, fieldShort(f))),
        here.map((seat) => el("span", { class: "pawn-mark seat-c" + marks[seat].colour + (seat === ctx.seat ? " mine" : ""),
          "data-pawn": seat, "aria-hidden": "true" }, marks[seat].initial)));
    }));
  }

  /** The ring, the pawns, the phase track with markers and the dice. ctx: {names, seat}. */
  P10.renderBoard = function (box, v, ctx) {
    const { W, H, fit } = boxSize(box);
    box.p10board = { v, ctx, W, H };
    if (fit && !box.p10resize && typeof ResizeObserver === "function") {
      box.p10resize = new ResizeObserver(() => {
        // a hidden board (another rule set's table now) waits: it is drawn again with the next board view
        if (!box.clientWidth || box.classList.contains("hidden")) return;
        const last = box.p10board, now = boxSize(box);
        if (last && (Math.abs(now.W - last.W) > 2 || Math.abs(now.H - last.H) > 2)) P10.renderBoard(box, last.v, last.ctx);
      });
      box.p10resize.observe(box);
    }
    clear(box);
    const ring = v.ring || [];
    const n = ring.length || 32;
    // fields as large as the loop leaves room for (their symbols stay legible), the numbers outside them
    const first = loop(W, H, 24);
    const fr = Math.max(9, Math.min(20, (first.length / n) * 0.46));
    const numberSize = Math.max(8, Math.min(11, fr * 0.55));
    const path = loop(W, H, fr + 3 + numberSize + 2);
    const step = path.length / n;
    const nodes = [];
    const rail = [];
    for (let k = 0; k <= 96; k++) { const q = path.pos((k * path.length) / 96); rail.push(q.x.toFixed(1) + "," + q.y.toFixed(1)); }
    nodes.push(svg("polyline", { class: "ring-rail", points: rail.join(" "), fill: "none", stroke: "#b0bec5", "stroke-width": 2 }));
    // Fields the pawn may move to now (the prompt's legal moves) are buttons; any other field explains
    // itself on hover (its title) and on a tap or a long press (the caption under the ring).
    const p = ctx.prompt;
    const targets = new Map(p && p.action === "move" ? (p.moves || []).map((m) => [m.field, m.steps]) : []);
    const info = el("p", { class: "field-info muted small-text", "aria-live": "polite" });
    ring.forEach((f, i) => {
      const { x, y, nx, ny } = path.pos(i * step);
      const label = t("board.field", { n: i, action: P10.fieldName(f.field) });
      const steps = targets.get(i);
      const attrs = { class: "field" + (steps !== undefined ? " target" : ""), "data-field": i };
      if (steps !== undefined) {
        Object.assign(attrs, { role: "button", tabindex: 0, "data-move": steps,
          "aria-label": t("board.move_to", { n: steps, field: i, action: P10.fieldName(f.field) }) });
      } else {
        Object.assign(attrs, { role: "img", "aria-label": label });
      }
      const out = fr + 3 + numberSize * 0.55;
      const node = svg("g", attrs,
        svg("title", { text: steps !== undefined ? attrs["aria-label"] : label }),
        svg("circle", { cx: x, cy: y, r: i === 0 ? fr + 2 : fr, fill: FIELD_FILL[f.action] || "#eee", stroke: i === 0 ? "#1f5fbf" : "#607d8b", "stroke-width": i === 0 ? 3 : 1 }),
        svg("text", { class: "field-symbol", x, y: y + fr * 0.35, "text-anchor": "middle", "font-size": (fr * (fieldShort(f).length > 1 ? 0.9 : 1.05)).toFixed(1), "font-weight": 700, text: fieldShort(f) }),
        svg("text", { class: "field-number", x: x + nx * out, y: y + ny * out + numberSize * 0.35, "text-anchor": "middle", "font-size": numberSize.toFixed(1), text: String(i) }));
      if (steps !== undefined) {
        const go = () => ctx.send({ type: "move", steps });
        node.addEventListener("click", go);
        node.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") { event.preventDefault(); go(); }
        });
      } else {
        node.addEventListener("click", () => { info.textContent = label; });
      }
      nodes.push(node);
    });
    // Pawns: a disc in the seat's colour with its initial (P10.seatMarks: no two alike), inside the ring next
    // to their field; pawns on one field stand side by side (and in a second row), never on each other.
    const marks = P10.seatMarks(Object.fromEntries((v.pawns || []).map((_f, seat) => [seat, (ctx.names && ctx.names[seat]) || t("seat.n", { n: seat + 1 })])));
    const pr = Math.max(8, Math.min(13, fr * 0.75));
    const onField = {};
    (v.pawns || []).forEach((field, seat) => { (onField[field] = onField[field] || []).push(seat); });
    (v.pawns || []).forEach((field, seat) => {
      const here = onField[field], k = here.indexOf(seat);
      const perRow = Math.max(1, Math.min(here.length, 3)), row = Math.floor(k / perRow), col = k % perRow;
      const inRow = Math.min(perRow, here.length - row * perRow);
      const base = path.pos(field * step + (col - (inRow - 1) / 2) * pr * 2.1);
      const depth = fr + pr + 3 + row * (pr * 2 + 2);
      const x = base.x - base.nx * depth, y = base.y - base.ny * depth;
      const name = (ctx.names && ctx.names[seat]) || t("seat.n", { n: seat + 1 });
      const pawnLabel = name + ": " + t("board.field", { n: field, action: P10.fieldName(ring[field] ? ring[field].field : "") });
      nodes.push(svg("g", { class: "pawn", "data-pawn": seat, role: "img", "aria-label": pawnLabel },
        svg("title", { text: pawnLabel }),
        svg("circle", { cx: x, cy: y, r: pr, class: "pawn-disc seat-c" + marks[seat].colour, fill: PAWN[seat % PAWN.length], stroke: seat === ctx.seat ? "#000" : "#fff", "stroke-width": 2 }),
        svg("text", { x, y: y + pr * 0.35, "text-anchor": "middle", "font-size": (pr * (marks[seat].initial.length > 1 ? 0.8 : 1)).toFixed(1), class: "pawn-initial seat-c" + marks[seat].colour, fill: "#fff", "font-weight": 800, text: marks[seat].initial })));
    });
    const C = W / 2, CY = H / 2;
    // Dice in the middle.
    const dice = v.dice || [];
    const die = Math.max(24, Math.min(36, path.r - fr));
    dice.forEach((d, i) => {
      const x = C - dice.length * die * 0.6 + i * die * 1.2 + die * 0.1;
      nodes.push(svg("g", { class: "die-face" },
        svg("rect", { x, y: CY - die / 2, width: die, height: die, rx: die / 6, fill: "#fff", stroke: "#333", "stroke-width": 2 }),
        svg("text", { x: x + die / 2, y: CY + die * 0.19, "text-anchor": "middle", "font-size": (die * 0.55).toFixed(1), "font-weight": 800, text: String(d) })));
    });
    const picture = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "ring", role: "group", "aria-label": t("board.title") }, nodes);
    const strip = pawnStrip(v, ctx, marks);
    const legend = el("ul", { class: "legend" }, Object.entries(FIELD_SYMBOL).map(([action, sym]) =>
      el("li", null, el("strong", null, sym + " "), action === "+N" ? t("field.plus", { n: "N" }) : t("field." + action))));
    // Phase track: 1..finish with each player's marker.
    const track = el("div", { class: "phase-track", role: "list", "aria-label": t("board.phase_track") });
    const finish = v.finish || 10;
    for (let step = 0; step <= finish; step++) {
      const here = (v.players || []).filter((p) => (p.marker ?? 0) === step);
      const label = step === finish ? t("board.finish") : t("phase.number", { n: (v.phases && v.phases[step]) ? v.phases[step].number : step + 1 });
      P10.add(track, el("div", { class: "step", role: "listitem", "data-step": step,
        "aria-label": label + (here.length ? ": " + here.map((p) => (ctx.names && ctx.names[p.seat]) || p.seat + 1).join(", ") : "") },
      step === finish ? "⚑" : String(step + 1),
      el("div", null, here.map((p) => el("span", { class: "marker pawn-colour-" + (p.seat % PAWN.length) })))));
    }
    // The ring in the box; the phase track and the legend in ctx.trackBox when the page gives one (the table
    // keeps the ring in sight and lets the track scroll), else under the ring. h2: the board is a section of
    // the table page (h1), like the hand (axe heading-order).
    const extra = ctx.trackBox ? clear(ctx.trackBox) : box;
    P10.add(box, picture, strip, info);
    P10.add(extra, el("h2", { class: "phase-track-title" }, t("board.phase_track")), track, el("details", null, el("summary", null, t("board.legend")), legend));
  };

  /** Board-only prompts; returns true when it rendered the whole prompt (``play`` is left to the table). */
  P10.renderBoardPrompt = function (ctx) {
    const { p, promptNode, controls, actions, send, selectedIds, oneSelected, nameOf, v } = ctx;
    const handCard = (id) => (v.hand || []).find((c) => c.id === id);
    switch (p.action) {
      case "roll":
        promptNode.textContent = p.again ? t("prompt.roll_again") : t("prompt.roll");
        P10.add(controls, el("button", { type: "button", class: "primary", id: "act-roll", onclick: () => send({ type: "roll_dice" }) }, P10.icon("dice"), " " + t("board.roll")));
        return true;
      case "move":
        promptNode.textContent = t("prompt.move", { dice: (p.dice || []).join(" + ") });
        P10.add(controls, el("div", { class: "dice" }, (p.dice || []).map((d) => el("span", { class: "die", role: "img", "aria-label": t("board.die", { n: d }) }, String(d)))),
          ...(p.moves || []).map((m) => el("button", { type: "button", class: "move", "data-steps": m.steps,
            onclick: () => send({ type: "move", steps: m.steps }) },
          t("board.move_to", { n: m.steps, field: m.field, action: P10.fieldName(v.ring[m.field].field) }))));
        return true;
      case "choose":
        promptNode.textContent = t("prompt.choose_action");
        P10.add(controls, ...(p.actions || []).map((a) => el("button", { type: "button", "data-action": a,
          onclick: () => send({ type: "choose_action", action: a }) }, (FIELD_SYMBOL[a] || "") + " " + (a === "+N" ? t("field.plus", { n: "N" }) : t("field." + a)))));
        return true;
      case "take":
        promptNode.textContent = p.again ? t("prompt.take_again") : t("prompt.take", { n: p.remaining });
        P10.add(controls, 
          el("button", { type: "button", class: "primary", id: "act-draw", onclick: () => send({ type: "draw", pile: "draw" }) }, t("act.draw_pile")),
          (p.piles || []).includes("discard") ? el("button", { type: "button", id: "act-take-discard", onclick: () => send({ type: "draw", pile: "discard" }) }, t("act.discard_pile")) : null);
        return true;
      case "search":
        promptNode.textContent = t("prompt.search");
        P10.add(controls, el("div", { class: "choice-cards" }, (p.discard_pile || []).slice().reverse().map((c) =>
          el("button", { type: "button", class: "plain", "data-search": c.id, "aria-label": t("act.take") + " " + P10.cardLabel(c),
            onclick: () => send({ type: "search", card: c.id }) }, P10.cardEl(c, { small: true })))));
        return true;
      case "swap":
        promptNode.textContent = t("prompt.swap", { max: p.max });
        {
          // 1 to max cards (B-5 swap): with none selected, or too many, the button waits
          const count = selectedIds().length;
          P10.add(actions, el("button", { type: "button", class: "primary", id: "act-swap", disabled: count < 1 || count > p.max,
            onclick: () => {
              const ids = selectedIds();
              if (ids.length < 1 || ids.length > p.max) { ctx.setError(t("prompt.swap", { max: p.max })); return; }
              send({ type: "swap", cards: ids });
            } }, t("act.swap")));
        }
        return true;
      case "ask": {
        promptNode.textContent = t("prompt.ask");
        const number = el("select", { id: "ask-number", "aria-label": t("act.ask_number") }, (p.numbers || []).map((k) => el("option", { value: k }, String(k))));
        const direction = el("select", { id: "ask-direction", "aria-label": t("act.ask_direction") },
          (p.directions || []).map((d) => el("option", { value: d }, t("dir." + d) + " (" + (p[d + "_order"] || []).map(nameOf).join(" → ") + ")")));
        P10.add(controls, el("label", { for: "ask-number", class: "inline-label" }, t("act.ask_number")), number,
          el("label", { for: "ask-direction", class: "inline-label" }, t("act.ask_direction")), direction,
          el("button", { type: "button", class: "primary", id: "act-ask", onclick: () => send({ type: "ask", number: parseInt(number.value, 10), direction: direction.value }) }, t("act.ask_board")));
        return true;
      }
      case "give":
        promptNode.textContent = t("prompt.give", { name: nameOf(p.to), number: p.number });
        P10.add(controls, el("div", { class: "choice-cards" }, (p.cards || []).map((id) => {
          const c = handCard(id);
          return el("div", { class: "choice" }, P10.cardEl(c, { small: true }),
            el("button", { type: "button", "data-give": id, onclick: () => send({ type: "give", card: id }) }, t("act.give")));
        })));
        return true;
      case "discard2":
        promptNode.textContent = t("prompt.discard2");
        P10.add(actions, 
          el("button", { type: "button", class: "primary", id: "act-discard", onclick: () => { const id = oneSelected(); if (id !== null) send({ type: "discard", card: id, target: null }); } }, t("act.discard")),
          el("button", { type: "button", id: "act-end-turn", onclick: () => send({ type: "end_turn" }) }, t("act.end_turn")));
        return true;
      case "keep":
        promptNode.textContent = t("prompt.keep", { max: p.max });
        P10.add(actions, el("button", { type: "button", class: "primary", id: "act-keep", onclick: () => {
          const ids = selectedIds();
          if (ids.length > p.max) { ctx.setError(t("prompt.keep", { max: p.max })); return; }
          send({ type: "keep", cards: ids });
        } }, t("act.keep_selected")));
        return true;
      default:
        return false;
    }
  };
})(P10);
