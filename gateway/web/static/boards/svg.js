// Shared helpers of the board drawings (see README.md in this folder): escaping, SVG
// elements as strings, colours of the pieces, and small layout aids. Pure functions: no
// DOM, no globals changed. Every string that may come from a view goes through esc().

/** The size of every table drawing (its viewBox, units): the table page gives the drawing about
 * this many CSS px beside its side column at 1280x800 (one unit is about one pixel), so the whole
 * table shows in one screen with every text at 11 px or more (issue 12, acceptance 2). A drawing
 * lays everything out inside W x H; tests/web/test_boards.py checks it for every fixture. */
export const W = 960;
export const H = 736;
/** The smallest font size of any text (units, about px on the table page): legible at 1280x800. */
export const MIN_TEXT = 11.5;

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text or attribute value made safe for SVG/XML: & < > " ' escaped; null/undefined -> "". */
export function esc(value) {
  if (value === null || value === undefined) return "";
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]).replace(
    // characters XML 1.0 forbids (C0 controls other than tab, newline, return; lone surrogates)
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    "\uFFFD");
}

/** A number for an attribute: rounded to 0.1, never NaN. */
export function num(n) {
  const x = Number(n);
  return Number.isFinite(x) ? String(Math.round(x * 10) / 10) : "0";
}

function attrs(a) {
  let out = "";
  for (const [k, v] of Object.entries(a || {})) {
    if (v === null || v === undefined || v === false) continue;
    out += ` ${k}="${typeof v === "number" ? num(v) : esc(v)}"`;
  }
  return out;
}

/** `<tag attrs>children</tag>` (children: a string or a list of strings, already SVG). */
export function el(tag, a, children) {
  const inner = Array.isArray(children) ? children.join("") : children || "";
  return inner ? `<${tag}${attrs(a)}>${inner}</${tag}>` : `<${tag}${attrs(a)}/>`;
}

/** A group that tests and the page can find: `data-component="<name>"` (and any attrs). */
export function group(component, a, children) {
  return el("g", { "data-component": component, ...a }, children);
}

/** A text element; `str` is escaped. Options: size, weight, anchor, fill, italic, plus any attrs. */
export function text(x, y, str, o = {}) {
  const { size = 13, weight, anchor, fill = INK, italic, ...rest } = o;
  return el("text", {
    x, y, "font-size": Math.max(size, MIN_TEXT), "font-weight": weight, "text-anchor": anchor, fill,
    "font-style": italic ? "italic" : null, ...rest,
  }, esc(str));
}

/** Several lines of text from `y` down, `gap` apart. */
export function lines(x, y, strs, o = {}) {
  const gap = o.gap || (o.size || 13) * 1.25;
  return strs.map((s, i) => text(x, y + i * gap, s, o)).join("");
}

export function rect(x, y, w, h, o = {}) {
  return el("rect", { x, y, width: w, height: h, ...o });
}

export function circle(cx, cy, r, o = {}) {
  return el("circle", { cx, cy, r, ...o });
}

export function line(x1, y1, x2, y2, o = {}) {
  return el("line", { x1, y1, x2, y2, ...o });
}

export function path(d, o = {}) {
  return el("path", { d, ...o });
}

/** A `<title>` child: the tooltip and accessible name of its parent. */
export function title(str) {
  return el("title", {}, esc(str));
}

/** A framed panel with a heading; returns the frame and heading (draw the contents after). */
export function panel(x, y, w, h, heading, o = {}) {
  return rect(x, y, w, h, { rx: 8, fill: o.fill || PAPER, stroke: o.stroke || FRAME, "stroke-width": 1.5 }) +
    (heading ? text(x + 10, y + 19, heading, { size: o.size || 14, weight: "bold", fill: o.ink || INK }) : "");
}

/** Words wrapped to lines of at most `max` characters (a rough fit for the fonts used). */
export function wrap(str, max) {
  const words = String(str ?? "").split(/\s+/).filter(Boolean);
  const out = [];
  let cur = "";
  for (const w of words) {
    if (cur && (cur + " " + w).length > max) {
      out.push(cur);
      cur = w;
    } else {
      cur = cur ? cur + " " + w : w;
    }
  }
  if (cur) out.push(cur);
  return out;
}

/** A string cut to `max` characters with an ellipsis. */
export function clip(str, max) {
  const s = String(str ?? "");
  return s.length > max ? s.slice(0, Math.max(1, max - 1)) + "\u2026" : s;
}

/** "fish_smokery" -> "Fish smokery"; a name for an id no table names. */
export function humanise(id) {
  const s = String(id ?? "").replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Boxes of `n` parts in rows of at most `cols` from (x, y), `w` wide in all, each `h` high:
 * [[x, y, width, height], ...]; `.bottom` is the y below the last row. */
export function grid(n, x, y, w, h, cols = 2, gap = 8) {
  const c = Math.max(1, Math.min(n, cols));
  const bw = (w - gap * (c - 1)) / c;
  const boxes = Array.from({ length: n }, (_, i) => [x + (i % c) * (bw + gap), y + Math.floor(i / c) * (h + gap), bw, h]);
  boxes.bottom = y + Math.ceil(Math.max(1, n) / c) * (h + gap) - gap;
  return boxes;
}

/** Whole SVG document string: viewBox W x H (`o.height`, if given, only ever makes it taller, which
 * the tests refuse), as wide as its box and as tall as that width asks, a background and the children. */
export function svgDoc(label, children, o = {}) {
  const h = Math.max(H, Math.ceil(o.height || 0));
  return el("svg", {
    xmlns: "http://www.w3.org/2000/svg", viewBox: `0 0 ${W} ${h}`, width: "100%",
    preserveAspectRatio: "xMidYMid meet", role: "img", "aria-label": label,
    "font-family": "'DejaVu Sans', 'Liberation Sans', Arial, sans-serif",
    "data-game": o.game, "data-seat": o.seat === null || o.seat === undefined ? "spectator" : o.seat,
  }, [title(label), rect(0, 0, W, h, { fill: o.background || TABLE }), ...children]);
}

// -- colours -------------------------------------------------------------------------------

export const INK = "#1f1a14";
export const MUTED = "#6b6257";
export const PAPER = "#fbf6ea";
export const FRAME = "#9c8b6e";
export const TABLE = "#e9e0cc";

/** Fill colours of the players' pieces, by the colour names the games use. */
export const PIECE = {
  red: "#c8372d", blue: "#2f63b8", yellow: "#e2b812", green: "#3f9142",
  black: "#2b2b2b", white: "#f4f4f4", grey: "#8a8a8a", purple: "#7b4aa8", orange: "#e07b24",
};

/** A text colour readable on a piece's fill. */
export function onPiece(colour) {
  return colour === "yellow" || colour === "white" ? INK : "#ffffff";
}

/** Seat colours of games whose seats have no colour of their own (Resource Hog). */
export const SEAT_COLOURS = ["red", "blue", "yellow", "green"];

// -- the view and its context ----------------------------------------------------------------

/** The game's own view object from `view` (the GET /view body), or `view` itself if it already is. */
export function inner(view) {
  return view && typeof view === "object" && view.view && typeof view.view === "object" ? view.view : view || {};
}

/** The seat whose secrets `v` (the game's view object) may show: the view's own `seat` when
 * the context names the same seat, else null (a spectator, or a view and context that disagree). */
export function secretsOf(v, ctx) {
  const seat = ctx?.seat ?? null;
  return seat !== null && v && v.seat === seat ? seat : null;
}

/** Seat name for the table: ctx.players may give names (a list of strings or {name}). */
export function seatName(ctx, seat) {
  const p = Array.isArray(ctx?.players) ? ctx.players[seat] : null;
  const name = typeof p === "string" ? p : p && typeof p === "object" ? p.name : null;
  return name ? String(name) : `Seat ${seat}`;
}

/** The built-in bot playing a seat, if the summary names one ("greedy", ...). */
export function seatBot(ctx, seat) {
  const b = ctx?.summary?.bots?.[String(seat)];
  if (!b) return null;
  return typeof b === "string" ? b : b.kind || "bot";
}

/** "Seat 1 (you)", "Seat 2 (greedy bot)". */
export function seatLabel(ctx, seat) {
  const bot = seatBot(ctx, seat);
  const you = ctx && ctx.seat === seat;
  return seatName(ctx, seat) + (you ? " (you)" : bot ? ` (${bot} bot)` : "");
}

/** A field of the view, else of the summary: the view's own fields win, so a replay's view at
 * an earlier version is not told the end the summary already knows. */
function fact(v, ctx, key, summaryKey = key) {
  return v && Object.prototype.hasOwnProperty.call(v, key) ? v[key] : ctx?.summary?.[summaryKey];
}

/** The game's outcome as the view knows it (null while it runs). */
export function outcomeOf(v, ctx) {
  return fact(v, ctx, "outcome") ?? null;
}

/** Seats to move as the view knows them. */
export function toMoveOf(v, ctx) {
  return fact(v, ctx, "to_move") || [];
}

/** The status line of the header: the outcome, a phase, or whose decision it is (`v` is the
 * game's view object, see inner()). */
export function statusLine(v, ctx, nameOf) {
  const outcome = outcomeOf(v, ctx);
  if (outcome) {
    const winners = outcome.winners || [];
    return winners.length
      ? `Game over: ${winners.map((s) => nameOf(s)).join(" and ")} won`
      : `Game over${outcome.reason ? ": " + outcome.reason : ""}`;
  }
  const phase = v && Object.prototype.hasOwnProperty.call(v, "phase") ? v.phase : ctx?.summary?.status === "phase";
  if (phase) return "Between turns: a phase of the game is running";
  const to = toMoveOf(v, ctx);
  if (!to.length) return "";
  return `To move: ${to.map((s) => nameOf(s)).join(", ")}`;
}

/** Small resource cube with a count beside it. */
export function cube(x, y, fill, n, o = {}) {
  const s = o.size || 12;
  return rect(x, y - s + 2, s, s, { fill, stroke: "#00000066", rx: 2 }) +
    (n === undefined ? "" : text(x + s + 3, y, n, { size: o.textSize || 13, weight: o.weight }));
}

/** A meeple-like piece (a disc) in a player's colour, with an optional letter/number on it. */
export function piece(x, y, colour, label, o = {}) {
  const r = o.r || 9;
  return circle(x, y, r, { fill: PIECE[colour] || colour || "#999", stroke: o.stroke || "#00000088",
                           "stroke-width": o.strokeWidth || 1 }) +
    (label === undefined || label === null ? "" :
      text(x, y + r * 0.42, label, { size: o.size || r * 1.15, anchor: "middle", weight: "bold",
                                      fill: onPiece(colour) }));
}
