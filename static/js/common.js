/* Shared helpers of every page: i18n, DOM building, API calls, toasts, the language switcher. An ES module,
   like every script of the pages but theme.js: its helpers are the properties of the one object ``P10``, which
   every page module imports (``import { P10 } from "../common.js";``) and the other shared modules extend
   (cards.js, board.js, scoresheet.js, series.js, invite.js, sound.js); each helper is also a named export. */

export const P10 = {};
(function (P10) {
  /** The JSON of a <script type="application/json" id="…"> data block (no inline script: the CSP forbids it). */
  P10.data = function (id, fallback) {
    const node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : fallback;
  };
  P10.lang = document.documentElement.lang || "en";
  const I18N = P10.data("p10-i18n", {});

  /** The interface text of `key` with {name} placeholders filled. */
  // Plural forms: a catalogue may hold "key#one", "key#few", … (the CLDR categories of its language) next to
  // "key"; with a numeric {n} the page's language picks the form, and "key" is the fallback.
  const plurals = typeof Intl !== "undefined" && Intl.PluralRules ? new Intl.PluralRules(P10.lang) : null;
  P10.t = function (key, params) {
    if (plurals && params && typeof params.n === "number") {
      const form = key + "#" + plurals.select(params.n);
      if (Object.prototype.hasOwnProperty.call(I18N, form)) key = form;
    }
    let text = Object.prototype.hasOwnProperty.call(I18N, key) ? I18N[key] : key;
    if (params) {
      for (const [name, value] of Object.entries(params)) {
        text = text.split("{" + name + "}").join(String(value));
      }
    }
    return text;
  };

  /** Whether the catalogue has a text for ``key`` (a key the page builds, with a fallback of its own). */
  P10.hasText = function (key) { return Object.prototype.hasOwnProperty.call(I18N, key); };

  /* The label of the option ``name`` in the page's language (its name, spaced, without one). */
  P10.optionLabel = function (name) {
    const key = "option." + name;
    return Object.prototype.hasOwnProperty.call(I18N, key) ? I18N[key] : name.replace(/_/g, " ");
  };

  /* The words for ``value`` of the option ``name`` whose values are a closed list (the value itself without them). */
  P10.choiceLabel = function (name, value) {
    const key = "choice." + name + "." + value;
    return Object.prototype.hasOwnProperty.call(I18N, key) ? I18N[key] : String(value);
  };

  /* A bot seat added without a name is called "Bot 2 (easy)" by the server (app/api/bots.py), the same for every
     reader; every page says it in its own language ("Robot 2 (facile)"). Any other name is the player's own and
     stays as it is. ``isBot`` false keeps a human's name as typed; unknown (a replay's or a series' seats) goes
     by the name alone. */
  const BOT_NAME = /^Bot (\d+) \((easy|normal|hard)\)$/;
  P10.playerName = function (name, isBot) {
    const m = isBot === false ? null : BOT_NAME.exec(name || "");
    return m ? P10.t("bot.name", { n: m[1], level: P10.t("level." + m[2]) }) : name || "";
  };

  /** el("button", {class: "x", onclick: f, "aria-label": "..."}, child, "text", ...) */
  P10.el = function (tag, attrs, ...children) {
    const node = document.createElement(tag);
    node.p10attrs = attrs || {};  // what this node was made from (P10.patch compares it)
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
      else if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.appendChild(typeof child === "string" || typeof child === "number"
        ? document.createTextNode(String(child)) : child);
    }
    return node;
  };

  P10.svg = function (tag, attrs, ...children) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined) continue;
      if (key === "text") node.textContent = value;
      else node.setAttribute(key, String(value));
    }
    for (const child of children.flat()) if (child) node.appendChild(child);
    return node;
  };

  /** An icon of static/img/icons.svg (drawn, not an emoji: a font without emoji shows none as an empty box),
      hidden from screen readers: its control carries the name. */
  P10.icon = function (name, cls) {
    const use = P10.svg("use", { href: "/static/img/icons.svg#i-" + name });
    return P10.svg("svg", { class: "icon" + (cls ? " " + cls : ""), "aria-hidden": "true", focusable: "false",
      "data-icon": name }, use);
  };

  /** node.append(...) without the "null" text nodes that the DOM makes of null children. */
  P10.add = function (node, ...children) {
    for (const child of children.flat()) {
      if (child !== null && child !== undefined && child !== false) node.append(child);
    }
    return node;
  };

  P10.clear = function (node) { while (node.firstChild) node.removeChild(node.firstChild); return node; };

  function made(node) {
    // What P10.el made the node from, as text (listeners by name: a new render makes new functions). Attributes
    // others add later (an extension's, a style the browser tooling sets) do not count, nor the user's own
    // changes (a value typed, a <details> opened).
    if (node.p10made === undefined) {
      node.p10made = node.tagName + JSON.stringify(Object.entries(node.p10attrs || {})
        .map(([key, value]) => (typeof value === "function" ? [key] : [key, value])));
    }
    return node.p10made;
  }
  function same(a, b) {
    if (a.nodeType !== 1 || b.nodeType !== 1 || !a.p10attrs || !b.p10attrs) return a.isEqualNode(b);
    if (made(a) !== made(b) || a.childNodes.length !== b.childNodes.length) return false;
    return [...a.childNodes].every((child, i) => same(child, b.childNodes[i]));
  }
  /* Bring `node`'s children to `fresh` (nodes as P10.el makes them) in place: a child equal to its counterpart is
     kept as it is, one of the same tag and id is brought up to it attribute by attribute and child by child, any
     other is replaced. What a player is doing there survives a render that changes something else: a click
     between its press and its release, text typed into a field, a <details> they opened. The kept nodes keep
     their listeners, so those must not depend on what the render knew (they read the state when called). */
  P10.patch = function (node, fresh) {
    fresh = fresh.flat().filter((c) => c !== null && c !== undefined && c !== false)
      .map((c) => (typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c));
    const old = [...node.childNodes];
    if (old.length !== fresh.length) { node.replaceChildren(...fresh); return node; }
    old.forEach((was, i) => {
      const now = fresh[i];
      if (same(was, now)) return;
      if (was.nodeType !== 1 || now.nodeType !== 1 || was.tagName !== now.tagName || was.id !== now.id ||
          was.tagName === "INPUT" || was.tagName === "BUTTON") {
        node.replaceChild(now, was);
        return;
      }
      for (const { name } of [...was.attributes]) {
        if (!now.hasAttribute(name) && !(name === "open" && was.tagName === "DETAILS")) was.removeAttribute(name);
      }
      for (const { name, value } of [...now.attributes]) if (was.getAttribute(name) !== value) was.setAttribute(name, value);
      was.p10attrs = now.p10attrs;
      was.p10made = undefined;
      P10.patch(was, [...now.childNodes]);
    });
    return node;
  };

  P10.uuid = function () {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "c" + Date.now().toString(36) + Math.random().toString(36).slice(2, 10);
  };

  /** An API error in words: the engine's message, translated by its code when the catalogue knows it. */
  P10.errorText = function (error) {
    if (!error) return P10.t("error.unknown");
    const key = "error." + error.code;
    const known = Object.prototype.hasOwnProperty.call(I18N, key);
    // English pages show the engine's own message, which names the exact cards and numbers; other
    // languages show the translated text of its stable code (and the message when there is none).
    if (known && (P10.lang !== "en" || !error.message)) return P10.t(key, { message: error.message || "" });
    return error.message || error.code;
  };

  /** fetch JSON; resolves {ok, status, data} where data.error is set on failure. */
  P10.api = async function (method, path, body) {
    const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (err) {
      return { ok: false, status: 0, data: { error: { code: "network", message: P10.t("error.network") } } };
    }
    let data = null;
    try { data = await response.json(); } catch (err) { data = null; }
    if (!response.ok && !(data && data.error)) {
      data = { error: { code: "http_" + response.status, message: response.statusText } };
    }
    return { ok: response.ok, status: response.status, data };
  };

  let toastTimer = null;
  P10.toast = function (text) {
    const node = document.getElementById("toast");
    if (!node) return;
    node.textContent = text;
    node.classList.add("show");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => node.classList.remove("show"), 3500);
  };

  P10.copy = async function (input) {
    try {
      await navigator.clipboard.writeText(input.value);
    } catch (err) {
      input.select();
      document.execCommand && document.execCommand("copy");
    }
    P10.toast(P10.t("lobby.copied"));
  };

  P10.store = {
    get(key) { try { return JSON.parse(localStorage.getItem("p10." + key)); } catch (err) { return null; } },
    set(key, value) { try { localStorage.setItem("p10." + key, JSON.stringify(value)); } catch (err) { /* private mode */ } },
  };

  /* Dark mode follows the system (prefers-color-scheme) until the toggle chooses; the choice is remembered
     per browser (base.html applies it before the first paint). */
  P10.darkTheme = function () {
    const chosen = document.documentElement.dataset.theme;
    if (chosen) return chosen === "dark";
    return Boolean(window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches);
  };
  function initTheme() {
    const toggle = document.getElementById("theme-toggle");
    if (!toggle) return;
    const show = () => toggle.setAttribute("aria-pressed", String(P10.darkTheme()));
    toggle.addEventListener("click", () => {
      const next = P10.darkTheme() ? "light" : "dark";
      document.documentElement.dataset.theme = next;
      P10.store.set("theme", next);
      show();
    });
    if (window.matchMedia) window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", show);
    show();
  }

  document.addEventListener("DOMContentLoaded", () => {
    initTheme();
    const select = document.getElementById("lang-select");
    if (select) {
      select.addEventListener("change", () => {
        document.cookie = "lang=" + select.value + "; path=/; max-age=31536000; samesite=lax";
        location.reload();
      });
    }
  });
})(P10);

(function (P10) {
  /** A phase's groups [{kind, size}] in words: "2 sets of 3 + 1 run of 4", "7 cards of one colour". */
  P10.describePhase = function (groups) {
    const parts = [];
    let i = 0;
    while (i < groups.length) {
      const g = groups[i];
      let count = 1;
      while (i + count < groups.length && groups[i + count].kind === g.kind && groups[i + count].size === g.size) count++;
      if (g.kind === "colour") {
        for (let k = 0; k < count; k++) parts.push(P10.t("phase.colour", { size: g.size }));
      } else {
        parts.push(P10.t(count === 1 ? "phase.one." + g.kind : "phase.many." + g.kind, { count, size: g.size }));
      }
      i += count;
    }
    return parts.join(" + ");
  };
})(P10);

export const { add, api, choiceLabel, clear, copy, darkTheme, data, describePhase, el, errorText, hasText, icon, lang, optionLabel, patch, playerName, store, svg, t, toast, uuid } = P10;

// The browser tests and the console reach the page's helpers and state as ``P10`` (no script reads it).
globalThis.P10 = P10;
