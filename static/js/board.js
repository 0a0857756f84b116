/* The board game (B-1..B-10): the 32-field ring with pawns, the phase track with markers, the dice and
   every field action's choices. Drawn with SVG; every field has a text label and a symbol. */
"use strict";

(function (P10) {
  const { t, el, svg, clear } = P10;
  const PAWN = ["#d32f2f", "#1f5fbf", "#2e7d32", "#e5b400", "#8e24aa", "#00897b"];
  const FIELD_SYMBOL = { "+N": "+", search: "◎", again: "↻", swap: "⇄", all: "∀", joker: "J", ask: "?", choice: "★" };
  const FIELD_FILL = { "+N": "#e3f2fd", search: "#fff3e0", again: "#e8f5e9", swap: "#fce4ec", all: "#ede7f6",
    joker: "#fffde7", ask: "#e0f7fa", choice: "#bbdefb" };

  P10.fieldName = function (field) {
    if (field && field.startsWith("+")) return t("field.plus", { n: field.slice(1) });
    return t("field." + field);
  };

  function fieldShort(f) { return f.field.startsWith("+") ? f.field : FIELD_SYMBOL[f.action] || "?"; }

  /** The ring, the pawns, the phase track with markers and the dice. ctx: {names, seat}. */
  P10.renderBoard = function (box, v, ctx) {
    clear(box);
    const ring = v.ring || [];
    const n = ring.length || 32;
    const W = 340, C = W / 2, Rr = 140, fr = 15;
    const nodes = [];
    nodes.push(svg("circle", { cx: C, cy: C, r: Rr, fill: "none", stroke: "#b0bec5", "stroke-width": 2 }));
    // Fields the pawn may move to now (the prompt's legal moves) are buttons; any other field explains
    // itself on hover (its title) and on a tap or a long press (the caption under the ring).
    const p = ctx.prompt;
    const targets = new Map(p && p.action === "move" ? (p.moves || []).map((m) => [m.field, m.steps]) : []);
    const info = el("p", { class: "field-info muted small-text", "aria-live": "polite" });
    ring.forEach((f, i) => {
      const a = (2 * Math.PI * i) / n - Math.PI / 2;
      const x = C + Rr * Math.cos(a), y = C + Rr * Math.sin(a);
      const label = t("board.field", { n: i, action: P10.fieldName(f.field) });
      const steps = targets.get(i);
      const attrs = { class: "field" + (steps !== undefined ? " target" : ""), "data-field": i };
      if (steps !== undefined) {
        Object.assign(attrs, { role: "button", tabindex: 0, "data-move": steps,
          "aria-label": t("board.move_to", { n: steps, field: i, action: P10.fieldName(f.field) }) });
      } else {
        Object.assign(attrs, { role: "img", "aria-label": label });
      }
      const node = svg("g", attrs,
        svg("title", { text: steps !== undefined ? attrs["aria-label"] : label }),
        svg("circle", { cx: x, cy: y, r: i === 0 ? fr + 3 : fr, fill: FIELD_FILL[f.action] || "#eee", stroke: i === 0 ? "#1f5fbf" : "#607d8b", "stroke-width": i === 0 ? 3 : 1 }),
        svg("text", { x, y: y + 3, "text-anchor": "middle", "font-size": 10, "font-weight": 700, text: fieldShort(f) }),
        svg("text", { x: C + (Rr - 27) * Math.cos(a), y: C + (Rr - 27) * Math.sin(a) + 3, "text-anchor": "middle", "font-size": 7, fill: "#78909c", text: String(i) }));
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
    // Pawns: a disc in the seat's colour with its initial (P10.seatMarks: no two alike), offset so two pawns
    // never hide each other.
    const marks = P10.seatMarks(Object.fromEntries((v.pawns || []).map((_f, seat) => [seat, (ctx.names && ctx.names[seat]) || t("seat.n", { n: seat + 1 })])));
    (v.pawns || []).forEach((field, seat) => {
      const a = (2 * Math.PI * field) / n - Math.PI / 2;
      const r = Rr + 22 + (seat % 2) * 8;
      const x = C + r * Math.cos(a), y = C + r * Math.sin(a);
      const name = (ctx.names && ctx.names[seat]) || t("seat.n", { n: seat + 1 });
      const pawnLabel = name + ": " + t("board.field", { n: field, action: P10.fieldName(ring[field] ? ring[field].field : "") });
      nodes.push(svg("g", { class: "pawn", "data-pawn": seat, role: "img", "aria-label": pawnLabel },
        svg("title", { text: pawnLabel }),
        svg("circle", { cx: x, cy: y, r: 10, class: "pawn-disc seat-c" + marks[seat].colour, fill: PAWN[seat % PAWN.length], stroke: seat === ctx.seat ? "#000" : "#fff", "stroke-width": 2 }),
        svg("text", { x, y: y + 3.5, "text-anchor": "middle", "font-size": marks[seat].initial.length > 1 ? 8 : 10, class: "pawn-initial seat-c" + marks[seat].colour, fill: "#fff", "font-weight": 800, text: marks[seat].initial })));
    });
    // Dice in the middle.
    const dice = v.dice || [];
    dice.forEach((d, i) => {
      const x = C - dice.length * 22 + i * 44 + 4;
      nodes.push(svg("g", { class: "die-face" },
        svg("rect", { x, y: C - 20, width: 36, height: 36, rx: 6, fill: "#fff", stroke: "#333", "stroke-width": 2 }),
        svg("text", { x: x + 18, y: C + 5, "text-anchor": "middle", "font-size": 20, "font-weight": 800, text: String(d) })));
    });
    const picture = svg("svg", { viewBox: `-20 -20 ${W + 40} ${W + 40}`, role: "group", "aria-label": t("board.title") }, nodes);
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
    P10.add(box, picture, info);
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
})(window.P10);
