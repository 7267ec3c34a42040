// Drawing a view: the game's own drawing (static/boards/<game>.js, render(view, ctx) -> SVG text),
// or, while a game has none (or it fails), a readable tree of the view that folds open.

import { el, humanise } from "./api.js";

const loaded = new Map();

/** The drawing module of a game, or null when it has none (loaded once per page). */
export function boardModule(game) {
  if (!loaded.has(game)) {
    loaded.set(game, import(`/static/boards/${encodeURIComponent(game)}.js`)
      .then((m) => (typeof m.render === "function" ? m : null))
      .catch(() => null));
  }
  return loaded.get(game);
}

/**
 * The score column a game's drawing module gives (its `scores(view)`: {label, values per seat}), or
 * null when it gives none (the pages then show the view's own score fields).
 */
export async function scoresOf(game, view) {
  const mod = await boardModule(game);
  if (!mod || typeof mod.scores !== "function" || !view) return null;
  try {
    const out = mod.scores(view);
    return out && Array.isArray(out.values) ? out : null;
  } catch {
    return null;
  }
}

/**
 * Draw `view` (the API's player view, the "view" field) into `container`.
 * ctx = {game, seat (int or null), players (seats), summary (GET /games/<id>)}.
 * Returns "board" when the game's drawing drew it, "tree" for the fallback.
 */
export async function drawView(container, view, ctx) {
  const mod = await boardModule(ctx.game);
  if (mod) {
    try {
      const svg = mod.render(view, ctx);
      if (typeof svg === "string" && svg.trim().startsWith("<")) {
        container.innerHTML = svg;
        container.dataset.drawn = "board";
        const root = container.querySelector("svg");
        if (root) {
          root.setAttribute("role", root.getAttribute("role") || "img");
          if (!root.getAttribute("aria-label")) root.setAttribute("aria-label", `The table of ${ctx.game}`);
        }
        return "board";
      }
    } catch (err) {
      console.warn("board drawing failed; showing the view as a tree", err);
    }
  }
  const open = new Set(Array.from(container.querySelectorAll("details[open]"), (d) => d.dataset.path));
  container.replaceChildren(tree(view, open));
  container.dataset.drawn = "tree";
  return "tree";
}

function scalar(v) {
  if (v === null || v === undefined) return "—";
  if (typeof v === "boolean") return v ? "yes" : "no";
  return String(v);
}

function isScalar(v) {
  return v === null || typeof v !== "object";
}

function short(v) {
  if (Array.isArray(v)) {
    if (v.every(isScalar)) return v.length ? v.map(scalar).join(", ") : "none";
    return `${v.length} item${v.length === 1 ? "" : "s"}`;
  }
  const keys = Object.keys(v);
  if (keys.length && keys.every((k) => isScalar(v[k])) && keys.length <= 6) {
    return keys.map((k) => `${humanise(k)} ${scalar(v[k])}`).join(" · ");
  }
  return `${keys.length} field${keys.length === 1 ? "" : "s"}`;
}

/** A view as nested tables and folding <details>, the fallback drawing of any game. */
export function tree(value, open = new Set(), path = "") {
  if (isScalar(value)) return el("span", {}, scalar(value));
  if (Array.isArray(value) && value.every(isScalar)) return el("span", {}, short(value));
  const table = el("table", { class: "tree" });
  const body = el("tbody");
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  for (const [k, v] of entries) {
    const here = `${path}/${k}`;
    let cell;
    if (isScalar(v) || (Array.isArray(v) && v.every(isScalar))) {
      cell = el("td", {}, isScalar(v) ? scalar(v) : short(v));
    } else {
      const details = el("details", { dataset: { path: here } }, el("summary", {}, short(v)), tree(v, open, here));
      if (open.has(here)) details.open = true;
      cell = el("td", {}, details);
    }
    body.append(el("tr", {}, el("th", { scope: "row" }, Array.isArray(value) ? `#${k}` : humanise(k)), cell));
  }
  table.append(body);
  return table;
}
