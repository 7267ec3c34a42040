// The table of "Tales of the Northlands: The Sagas of Noggin the Nog", drawn from a player view.
//
// render(view, ctx) -> SVG string (README.md in this folder gives the interface): the whole table in
// one W x H drawing (960 x 736 units, the board panel of a 1280x800 table page). The layout follows
// the rulebook (noggin-the-nog-rulebook.txt). Under the header, three columns. On the left, the
// Central Wheel of 3.1 (season in the inner circle, the Rune ring with the Runestone, the Step track
// of 10 spaces with the Nog Moon at the top and the Step markers, 4.1-4.3), Noggin's popularity
// track with the crown between Nogbad's Crow on the left and Noggin's Dragon on the right (set-up
// I, J; 3.5) and Nogbad's Wheel of Infamy (8.0). In the middle, the places of the Nogs' actions:
// the action spaces (5.0-5.6, 6.0); the Mine grid of two rows of three tiles with the row above it
// (set-up Q, R; 5.1) beside the forest trail of ten clearings walked counter-clockwise (5.3); the
// fjord (5.2, set-up L) beside the Nog Market with its exchange rate (6.6, 8.0); the two rows of
// Building tiles and the transport piles (set-up F, 5.5). On the right, Noggin's Castle and the
// characters (set-up D, 6.1), the Invention cards (6.5), the Counting House card and its auction
// (6.3). Along the bottom, the player boards (3.8) as one table, a column per seat and a row per
// part of the board (Farm, Room left, Mountains, Fields and Orchard, Transport, Buildings, cards,
// Nogs on actions; the Forge token and Accusation cards; the final scoring of 9.0), beside the
// Saga cards with their Harbourside Reserve card (6.4). Dummy players
// (set-up E) have a Step marker only. The seat's own Friend or Foe card (variants) is drawn in its
// own view alone, marked data-secret. Lists longer than their box are cut ("+N more", an ellipsis)
// and short words stand for long ones; the whole text is then the tooltip (<title>). The house
// rules the view follows are in docs/house-rules.md (Noggin the Nog).

import {
  FRAME, H, INK, MIN_TEXT, MUTED, PAPER, PIECE, W, circle, cube, el, group, humanise, inner, line, onPiece, panel,
  path, piece, rect, outcomeOf, seatLabel, secretsOf, statusLine, svgDoc, toMoveOf, text as svgText, title,
} from "./svg.js";
import {
  NOGGIN_BUILDINGS as BUILDINGS, NOGGIN_CHARACTERS as CHARACTERS, NOGGIN_COUNTING_HOUSE as COUNTING_HOUSE,
  NOGGIN_INVENTIONS as INVENTIONS,
} from "./names.js";

/** svg.js's text(), at MIN_TEXT unless a size is given (the widths below are measured so). */
const text = (x, y, str, o = {}) => svgText(x, y, str, { ...o, size: o.size ?? MIN_TEXT });

const SEASONS = ["Spring", "Summer", "Autumn", "Winter"];
const ACTIONS = [
  ["miner", "Miner"], ["fisherman", "Fisherman"], ["woodcutter", "Woodcutter"], ["farmer", "Farmer"],
  ["builder", "Builder"], ["restock", "Restock"], ["market_day", "Market Day"],
];
const CUBE = { stone: "#9a9a9a", wood: "#8a5a2b", fish: "#3b7dd8", harvest: "#e8c21a", gold: "#f2b705", coin: "#c0c0c0" };
const RESOURCE = { stone: "Stone", wood: "Wood", fish: "Fish", harvest: "Harvest", gold: "Gold", coin: "Coins", food: "Food" };
const BASIC = ["stone", "wood", "fish", "harvest"];

const WHEEL = ["Sabotage Fishing Nets", "Trouble at Home", "Bears in the Woods", "Bad News"];

const TRANSPORTS = [["mine_cart", "Mine cart", "Mine"], ["wood_cart", "Wood cart", "Wood"], ["boat", "Fishing boat", "Boat"]];
const SPACES = { mountains: "Mountains", field0: "Field 1", field1: "Field 2", orchard: "Orchard", meadow: "Meadow",
                 new_land: "New Land", beside: "beside the board" };
const PENDING = {
  bid: "a bid in the Counting House auction", keep_card: "the auction's winner to place the card",
  knut: "Knut's order of the Reserve cards", seers_tower: "the Seer's Tower", fireworks: "the Fireworks",
  draw_reserve: "the choice of the next Reserve deck", fishing_tokens: "the Coral Necklace",
};

const name = (table, id) => table[id] || humanise(id);
const resName = (id) => RESOURCE[id] || CHARACTERS[id] || humanise(id);
const plural = (n, one, many = one + "s") => `${n} ${n === 1 ? one : many}`;

// -- the layout (units) ----------------------------------------------------------------------------
//
//   0- 40  header: title, season, active player and status
//  42-488  upper band, three columns:
//          x   6-262  Central Wheel 240, popularity track 68, Wheel of Infamy 126
//          x 268-688  action spaces 98; Mine 232 wide | forest trail, 156; fjord 112 wide | Nog
//                     Market, 74; Buildings 100
//          x 694-954  Noggin's Castle 118, Invention cards 190, Counting House 126
// 494-730  lower band: the player boards as one table (x 6-592) | Saga cards (x 598-954)
const GAP = 6, TOP = 42, LOW = 494, BOTTOM = H - GAP;
const COL_A = [6, 256], COL_B = [268, 420], COL_C = [694, 260], TABLE_W = 586;

// -- measuring text ----------------------------------------------------------------------------------

/** Advance widths of the printable ASCII characters (space to "~") in DejaVu Sans, the drawing's
 * first font, in hundredths of an em, normal and bold (the fallbacks are narrower). Any other
 * character counts as one em. */
const ADVANCE = [
  [32, 40, 46, 84, 64, 95, 78, 28, 39, 39, 50, 84, 32, 36, 32, 34, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 34, 34, 84, 84,
   84, 53, 100, 68, 69, 70, 77, 63, 58, 78, 75, 30, 30, 66, 56, 86, 75, 79, 60, 79, 69, 63, 61, 73, 68, 99, 69, 61, 69,
   39, 34, 39, 84, 50, 50, 61, 63, 53, 63, 57, 35, 63, 63, 28, 28, 58, 28, 97, 63, 55, 63, 63, 38, 52, 39, 63, 59, 82,
   59, 59, 53, 64, 34, 64, 84],
  [35, 46, 52, 84, 70, 100, 87, 31, 46, 46, 52, 84, 38, 42, 38, 37, 70, 70, 70, 70, 70, 70, 70, 70, 70, 70, 40, 40, 84,
   84, 84, 58, 100, 77, 76, 73, 83, 68, 68, 82, 84, 37, 37, 77, 64, 100, 84, 85, 73, 85, 77, 72, 68, 81, 77, 110, 77,
   72, 73, 46, 37, 46, 84, 50, 50, 67, 72, 59, 72, 68, 44, 72, 71, 34, 34, 67, 34, 104, 71, 69, 72, 72, 49, 60, 48, 71,
   65, 92, 65, 65, 58, 71, 37, 71, 84],
];

/** The width (units) of `str` drawn at `size` (never under MIN_TEXT, as text() draws it), with a
 * little to spare: small normal text renders up to 3% wider than its advances add up to. */
function tw(str, size = MIN_TEXT, bold = false) {
  const table = ADVANCE[bold ? 1 : 0];
  let w = 0;
  for (const ch of String(str ?? "")) {
    const c = ch.codePointAt(0);
    w += c >= 32 && c < 127 ? table[c - 32] : 100;
  }
  return (w / 100) * Math.max(size || MIN_TEXT, MIN_TEXT) * (bold ? 1.01 : 1.03);
}

/** `str` if it is at most `width` units wide, else cut to fit with an ellipsis (always, if `force`). */
function fit(str, width, size, bold = false, force = false) {
  const s = String(str ?? "");
  if (!force && tw(s, size, bold) <= width) return s;
  let n = s.length;
  while (n > 0 && tw(s.slice(0, n).trimEnd() + "\u2026", size, bold) > width) n--;
  return s.slice(0, n).trimEnd() + "\u2026";
}

/** The first of `candidates` (long to short wordings) at most `width` units wide, else the last cut. */
function pick(width, candidates, size, bold = false) {
  return candidates.find((c) => tw(c, size, bold) <= width) ?? fit(candidates[candidates.length - 1], width, size, bold);
}

/** A text cut to `width` units (fit()); its tooltip is `o.tip` if given, else the whole text when cut. */
function label(x, y, str, width, o = {}) {
  const { tip, ...rest } = o;
  const s = String(str ?? "");
  const shown = fit(s, width, rest.size, rest.weight === "bold");
  const tipText = tip || (shown !== s ? s : null);
  return tipText ? el("g", {}, [text(x, y, shown, rest), title(tipText)]) : text(x, y, shown, rest);
}

/** `str` in lines of at most `width` units (a word longer than a line is cut). */
function wrapTo(str, width, size, bold = false) {
  const out = [];
  let cur = "";
  for (const word of String(str ?? "").split(/\s+/).filter(Boolean)) {
    const next = cur ? `${cur} ${word}` : word;
    if (!cur || tw(next, size, bold) <= width) cur = next;
    else {
      out.push(cur);
      cur = word;
    }
  }
  if (cur) out.push(cur);
  return out.map((l) => fit(l, width, size, bold));
}

/** At most `max` lines of `str` wrapped to `width`: when it does not all fit, the last line ends in
 * an ellipsis. Returns {lines, cut}. */
function wrapMax(str, width, max, size, bold = false) {
  const all = wrapTo(str, width, size, bold);
  const lines = all.slice(0, Math.max(1, max));
  const cut = all.length > lines.length;
  if (cut) lines[lines.length - 1] = fit(lines[lines.length - 1], width, size, bold, true);
  return { lines, cut };
}

/** A paragraph from (x, y): `str` wrapped into at most `max` lines `gap` apart; when cut, the whole
 * text (or `o.tip`) is its tooltip. */
function paragraph(x, y, str, width, max, o = {}) {
  const { gap = 14, tip, ...rest } = o;
  const { lines, cut } = wrapMax(str, width, max, rest.size, rest.weight === "bold");
  const texts = lines.map((l, i) => text(x, y + i * gap, l, rest));
  return cut || tip ? el("g", {}, [...texts, title(tip || str)]) : texts.join("");
}

/** Items joined by ", " into at most `max` lines of `width` units: the items that do not fit are
 * counted in a closing "+N more" (an item longer than a line is cut). Returns {lines, cut}. */
function listLines(items, width, max, size) {
  const rows = [[]];
  const wide = (arr, tail) => tw(arr.join(", ") + tail, size);
  let i = 0;
  for (; i < items.length; i++) {
    const row = rows[rows.length - 1];
    if (!row.length || wide([...row, items[i]], ",") <= width) {
      row.push(items[i]);
    } else if (rows.length < max) {
      rows.push([items[i]]);
    } else {
      break;
    }
  }
  let rest = items.length - i;
  const last = rows[rows.length - 1];
  let more = (n) => `, +${n} more`;
  if (rest) {
    while (last.length > 1 && wide(last, more(rest)) > width) {
      last.pop();
      rest++;
    }
    if (wide(last, more(rest)) > width) more = (n) => ` +${n}`; // one item, cut to leave room for the count
  }
  const lines = rows.map((row, k) => {
    const tail = k < rows.length - 1 ? "," : rest ? more(rest) : "";
    if (row.length === 1) return fit(row[0], width - tw(tail, size), size) + tail;
    return row.join(", ") + tail;
  });
  return { lines, cut: rest > 0 || lines.some((l) => l.includes("\u2026")) };
}

/** The table of Noggin the Nog: see the header comment. */
export function render(view, ctx = {}) {
  const v = inner(view);
  const seat = ctx.seat ?? null;
  const players = v.players || [];
  const colourOf = (s) => players[s]?.colour || "grey";
  const nameOf = (s) => seatLabel(ctx, s);
  const t = {
    v, ctx, seat, players, secrets: secretsOf(v, ctx), colourOf, nameOf,
    seatOf: Object.fromEntries(players.map((p) => [p.colour, p.seat])),
  };
  const heading = "Tales of the Northlands: The Sagas of Noggin the Nog";
  const [ax, aw] = COL_A, [bx, bw] = COL_B, [cx, cw] = COL_C;
  return svgDoc(heading, [
    header(t, heading),
    centralWheel(t, ax, TOP, aw, 240),
    popularity(t, ax, TOP + 246, aw, 68),
    wheelOfInfamy(t, ax, TOP + 320, aw, 126),
    actionSpaces(t, bx, TOP, bw, 98),
    mine(t, bx, TOP + 104, 232, 156),
    forest(t, bx + 238, TOP + 104, bw - 238, 156),
    fjord(t, bx, TOP + 266, 112, 74),
    market(t, bx + 118, TOP + 266, bw - 118, 74),
    buildingRows(t, bx, TOP + 346, bw, 100),
    castle(t, cx, TOP, cw, 118),
    inventionCards(t, cx, TOP + 124, cw, 190),
    countingHouse(t, cx, TOP + 320, cw, 126),
    playerBoards(t, COL_A[0], LOW, TABLE_W, BOTTOM - LOW),
    sagas(t, COL_A[0] + TABLE_W + GAP, LOW, W - GAP - (COL_A[0] + TABLE_W + GAP), BOTTOM - LOW),
  ], { game: "noggin", seat });
}

function header(t, heading) {
  const v = t.v;
  const season = v.season || 1;
  const when = `Season ${season} of 8: ${SEASONS[(season - 1) % 4]}, Year ${season > 4 ? 2 : 1}`;
  let status = statusLine(v, t.ctx, t.nameOf);
  const outcome = outcomeOf(v, t.ctx);
  if (outcome) {
    const top = (outcome.council_of_elders || outcome.leader_in_exile || []).map(t.nameOf).join(" and ");
    if (outcome.crown === "noggin") status = `Game over: Noggin keeps the crown; Council of Elders: ${top}`;
    else if (outcome.crown === "nogbad") {
      status = `Game over: Nogbad takes the crown; Leader in Exile: ${top}`;
      if ((outcome.winners || []).length) status += `; Nogbad's side won: ${outcome.winners.map(t.nameOf).join(" and ")}`;
    }
  }
  if (!outcome && v.pending && PENDING[v.pending]) status += ` (waiting for ${PENDING[v.pending]})`;
  const active = v.active_seat !== null && v.active_seat !== undefined ? `Active player: ${t.nameOf(v.active_seat)}` : "";
  return group("header", {}, [
    text(10, 20, heading, { size: 17, weight: "bold" }),
    text(W - 10, 20, when, { size: 13, anchor: "end", weight: "bold" }),
    label(10, 36, [active, status].filter(Boolean).join(" \u00b7 "), W - 20, { size: 12, fill: MUTED }),
  ]);
}

// -- the Central Wheel (3.1, 4.1-4.3) ---------------------------------------------------------

function centralWheel(t, x, y, w, h) {
  const v = t.v;
  const R = Math.min(w - 16, h - 32) / 2;
  const cx = x + w / 2, cy = y + 26 + R;
  const rStep = R, rRune = R - 34, rSeason = R - 62;
  const rMark = (rStep + rRune) / 2, rLabel = (rRune + rSeason) / 2;
  const seasonStart = 10 * ((v.season || 1) - 1);
  const parts = [panel(x, y, w, h, "The Central Wheel", { size: 13 })];
  parts.push(el("g", {}, [text(x + w - 8, y + 18, "\u263e Nog Moon", { size: 11.5, anchor: "end", fill: MUTED }),
                          title("\u263e: the Nog Moon, space 0 at the top of the Central Wheel")]));
  parts.push(circle(cx, cy, rStep, { fill: "#d9c9a3", stroke: "#6b5a3a", "stroke-width": 2 }));
  parts.push(circle(cx, cy, rRune, { fill: "#c4b28a", stroke: "#6b5a3a" }));
  parts.push(circle(cx, cy, rSeason, { fill: "#f3ead2", stroke: "#6b5a3a" }));
  const angle = (space) => -Math.PI / 2 + (space * 2 * Math.PI) / 10;
  const runeSpace = v.runestone !== undefined ? (v.runestone - seasonStart + 100) % 10 : null;
  for (let s = 0; s < 10; s++) {
    const a0 = angle(s - 0.5);
    parts.push(line(cx + rRune * Math.cos(a0), cy + rRune * Math.sin(a0),
                    cx + rStep * Math.cos(a0), cy + rStep * Math.sin(a0), { stroke: "#6b5a3a" }));
    const a = angle(s);
    const rx = cx + rLabel * Math.cos(a), ry = cy + rLabel * Math.sin(a);
    if (s !== runeSpace) { // the Runestone covers its space's mark
      parts.push(text(rx, ry + 4, s === 0 ? "\u263e" : s, { size: s === 0 ? 14 : 11.5, anchor: "middle", fill: "#5a4a2a" }));
    }
  }
  // Runestone on the Rune ring
  if (v.runestone !== undefined) {
    const a = angle(runeSpace);
    const rx = cx + rLabel * Math.cos(a), ry = cy + rLabel * Math.sin(a);
    parts.push(group("runestone", { "data-space": (v.runestone - seasonStart) }, [
      rect(rx - 9, ry - 9, 18, 18, { rx: 4, fill: "#7d7d7d", stroke: INK, "stroke-width": 1.5 }),
      text(rx, ry + 4, "R", { size: 11.5, anchor: "middle", weight: "bold", fill: "#fff" }),
      title(`Runestone: space ${v.runestone - seasonStart} of the Rune ring`),
    ]));
  }
  // Step markers on the Step track, side by side when they share a space
  const bySpace = {};
  for (const m of v.markers || []) {
    const space = ((m.pos - seasonStart) % 10 + 10) % 10;
    (bySpace[space] = bySpace[space] || []).push(m);
  }
  const markers = [];
  const spread = 19 / rMark; // radians between markers sharing a space
  for (const [space, ms] of Object.entries(bySpace)) {
    const a = angle(Number(space));
    ms.forEach((m, k) => {
      const along = (k - (ms.length - 1) / 2) * spread;
      const mx = cx + rMark * Math.cos(a + along), my = cy + rMark * Math.sin(a + along);
      const dummy = m.dummy || m.seat === null || m.seat === undefined;
      const who = dummy ? `dummy player (${m.colour})` : t.nameOf(m.seat);
      const active = v.active === m.marker;
      markers.push(el("g", { "data-marker": m.marker, "data-seat": m.seat ?? "dummy" }, [
        active ? circle(mx, my, 12.5, { fill: "none", stroke: INK, "stroke-width": 2.5, "stroke-dasharray": "3 2" }) : "",
        piece(mx, my, m.colour, dummy ? "D" : String(m.seat), { r: 9, size: 11.5 }),
        title(`Step marker of ${who}: space ${space}${active ? " (active player)" : ""}`),
      ]));
    });
  }
  parts.push(group("step-markers", {}, markers));
  const season = v.season || 1;
  parts.push(el("g", {}, [
    text(cx, cy - 8, SEASONS[(season - 1) % 4], { size: 15, anchor: "middle", weight: "bold" }),
    text(cx, cy + 8, `Season ${season}`, { size: 11.5, anchor: "middle" }),
    text(cx, cy + 22, `Year ${season > 4 ? 2 : 1}`, { size: 11.5, anchor: "middle", fill: MUTED }),
    title(`Season ${season} of 8: ${SEASONS[(season - 1) % 4]}, Year ${season > 4 ? 2 : 1}`),
  ]));
  return group("central-wheel", {}, parts);
}

// -- Noggin's popularity track (3.5, set-up I, J) -----------------------------------------------

function popularity(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Popularity track", { size: 13 })];
  const span = 9, step = Math.min(12, (w - 24) / (2 * span + 3));
  const cx = x + w / 2, ty = y + 36;
  for (let i = 1; i <= span; i++) {
    parts.push(rect(cx - i * step - step / 2 + 1, ty - step / 2 + 1, step - 2, step - 2, { fill: "#e7d3d3", stroke: "#8a6b6b", rx: 2 }));
    parts.push(rect(cx + i * step - step / 2 + 1, ty - step / 2 + 1, step - 2, step - 2, { fill: "#d5e6d0", stroke: "#6b8a6b", rx: 2 }));
  }
  if (v.crow !== 0 && v.dragon !== 0) { // a marker on the crown covers it
    parts.push(el("g", {}, [text(cx, ty + 6, "\u265b", { size: 17, anchor: "middle", fill: "#b8860b" }), title("the crown")]));
  }
  const both = v.crow === 0 && v.dragon === 0 ? step / 2 : 0; // both on the crown: side by side
  if (v.crow !== undefined) {
    const px = cx - Math.min(v.crow, span + 1) * step - both;
    parts.push(group("crow", { "data-distance": v.crow }, [
      circle(px, ty, 8, { fill: "#222" }), text(px, ty + 4, "C", { size: 11.5, anchor: "middle", fill: "#fff", weight: "bold" }),
      title(`Nogbad's Crow: ${plural(v.crow, "space")} from the crown`),
    ]));
  }
  if (v.dragon !== undefined) {
    const px = cx + Math.min(v.dragon, span + 1) * step + both;
    parts.push(group("dragon", { "data-distance": v.dragon }, [
      circle(px, ty, 8, { fill: "#3f9142" }), text(px, ty + 4, "D", { size: 11.5, anchor: "middle", fill: "#fff", weight: "bold" }),
      title(`Noggin's Dragon: ${plural(v.dragon, "space")} from the crown`),
    ]));
  }
  const half = (w - 28) / 2;
  parts.push(label(x + 10, y + h - 9, `Nogbad's Crow: ${v.crow ?? "?"}`, half,
                   { fill: "#8a3a3a", tip: `\u2190 Nogbad's Crow: ${v.crow ?? "?"} space(s) from the crown` }));
  parts.push(label(x + w - 10, y + h - 9, `Noggin's Dragon: ${v.dragon ?? "?"}`, half,
                   { anchor: "end", fill: "#2f6b2f", tip: `Noggin's Dragon \u2192: ${v.dragon ?? "?"} space(s) from the crown` }));
  return group("popularity-track", {}, parts);
}

// -- Nogbad's Wheel of Infamy (8.0) ----------------------------------------------------------

function wheelOfInfamy(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Nogbad's Wheel of Infamy", { size: 13 })];
  const cx = x + 40, cy = y + 62, r = 30;
  for (let q = 0; q < 4; q++) {
    const a0 = -Math.PI / 2 + (q * Math.PI) / 2, a1 = a0 + Math.PI / 2;
    const on = v.wheel === q;
    parts.push(path(`M${cx},${cy} L${cx + r * Math.cos(a0)},${cy + r * Math.sin(a0)} A${r},${r} 0 0 1 ${cx + r * Math.cos(a1)},${cy + r * Math.sin(a1)} Z`,
      { fill: on ? "#c8372d" : "#e7d3d3", stroke: "#6b3a3a" }));
    const am = (a0 + a1) / 2;
    parts.push(text(cx + r * 0.55 * Math.cos(am), cy + r * 0.55 * Math.sin(am) + 4, q + 1,
                    { size: 11.5, anchor: "middle", weight: "bold", fill: on ? "#fff" : INK }));
    if (on) { // the Infamous Crow on the rim of its quarter
      const kx = cx + (r + 4) * Math.cos(am), ky = cy + (r + 4) * Math.sin(am);
      parts.push(el("g", { "data-component": "infamous-crow" }, [
        circle(kx, ky, 8, { fill: "#222", stroke: "#fff" }),
        text(kx, ky + 4, "C", { anchor: "middle", fill: "#fff", weight: "bold" }),
        title(`the Infamous Crow, on quarter ${q + 1}: ${WHEEL[q]}`),
      ]));
    }
  }
  const lx = x + 80, room = x + w - 8 - lx;
  WHEEL.forEach((name_, q) => {
    const on = v.wheel === q;
    const str = `${q + 1}: ${name_}`;
    const o = { weight: on ? "bold" : null, fill: on ? "#8a2020" : INK };
    const marked = on && tw(`${str} \u25c0 Crow`, MIN_TEXT, true) <= room ? `${str} \u25c0 Crow` : str;
    parts.push(label(lx, y + 40 + q * 15, marked, room,
                     { ...o, tip: on ? `${str}: the Infamous Crow is on this quarter` : null }));
  });
  let where = "in his castle";
  if (v.nogbad === "active") {
    const space = ACTIONS.find(([id]) => id === v.nogbad_space);
    where = `active, blocking ${space ? space[1] : humanise(v.nogbad_space)}`;
  } else if (v.nogbad === "dungeon") {
    where = `in the Royal Dungeon${v.gaoler !== null && v.gaoler !== undefined ? `, guarded by ${t.nameOf(v.gaoler)}` : ""}`;
  }
  parts.push(paragraph(x + 10, y + 106, `Nogbad: ${where}`, w - 20, 2,
                       { weight: "bold", fill: v.nogbad === "active" ? "#8a2020" : INK }));
  return group("wheel-of-infamy", { "data-quarter": v.wheel, "data-nogbad": v.nogbad }, parts);
}

// -- the action spaces (5.0-5.6, 6.0) ----------------------------------------------------------

function actionSpaces(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Action spaces", { size: 13 })];
  parts.push(text(x + w - 10, y + 18, "Nogs placed this season", { anchor: "end", fill: MUTED }));
  const perRow = 4, bw = (w - 12) / perRow, bh = (h - 26) / 2;
  ACTIONS.forEach(([id, name_], i) => {
    const bx = x + 6 + (i % perRow) * bw, by = y + 25 + Math.floor(i / perRow) * bh;
    const blocked = v.nogbad === "active" && v.nogbad_space === id;
    const current = v.action && v.action.kind === id;
    const cell = [rect(bx + 2, by + 1, bw - 4, bh - 3, {
      rx: 5, fill: blocked ? "#f1d0cc" : current ? "#fff4c2" : "#f3ead2",
      stroke: current ? INK : "#9c8b6e", "stroke-width": current ? 2 : 1,
    })];
    cell.push(label(bx + 8, by + 14, name_, bw - 14, { weight: "bold" }));
    const py = by + bh - 11;
    let px = bx + 15;
    for (const p of t.players) {
      const n = p.placed?.[id] || 0;
      if (!n) continue;
      cell.push(el("g", { "data-seat": p.seat, "data-nogs": n }, [
        piece(px, py, p.colour, n, { r: 7, size: 11.5 }),
        title(`${t.nameOf(p.seat)}: ${plural(n, "Nog")} on ${name_}; used ${p.uses?.[id] || 0} time(s) this season`),
      ]));
      px += 16;
    }
    const right = blocked ? bx + bw - 26 : bx + bw - 8;
    const chars = Object.entries(v.characters || {}).filter(([, where]) => where === `action:${id}`).map(([c]) => name(CHARACTERS, c));
    if (chars.length) {
      cell.push(label(right, py + 4, chars.join(", "), right - (px - 4), { anchor: "end",
                                                                          tip: `On ${name_}: ${chars.join(", ")}` }));
    }
    if (current) cell.push(title(`${name_}: the action being carried out`));
    if (blocked) {
      cell.push(el("g", {}, [circle(bx + bw - 15, py, 8, { fill: "#555" }),
                             text(bx + bw - 15, py + 4, "N", { size: 11.5, anchor: "middle", fill: "#fff", weight: "bold" }),
                             title(`Nogbad blocks ${name_}`)]));
    }
    parts.push(el("g", { "data-action": id, "data-blocked": blocked ? "true" : null }, cell));
  });
  const nx = x + 6 + 3 * bw, ny = y + 25 + bh;
  parts.push(el("g", {}, [
    text(nx + 8, ny + 14, fit("Repeat +1 Nog", bw - 12), { fill: MUTED }),
    text(nx + 8, ny + 28, fit("Market Day: 1", bw - 12), { fill: MUTED }),
    title("Repeating an action this season takes 1 more Nog each time; Market Day just 1"),
  ]));
  return group("action-spaces", {}, parts);
}

// -- the Mine (set-up Q-S, 5.1) ------------------------------------------------------------------

function mine(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "The Mine", { size: 13 })];
  parts.push(label(x + w - 8, y + 18, `Gold cubes left: ${v.gold_supply ?? 0}`, w - 90, { anchor: "end", fill: MUTED }));
  const m = v.mine_map;
  if (!m) {
    parts.push(text(x + 10, y + 44, "No Mine tile yet", { fill: MUTED }));
    return group("mine", {}, parts);
  }
  const cols = m.width || 12, rows = (m.depth || 8) + 1;
  const cs = Math.min((w - 88) / cols, (h - 50) / rows);
  const gx = x + 8, gy = y + 27;
  const fill = { surface: "#cfe3b8", rock: "#6d5840", empty: "#2d2419", stone: "#9a9a9a", gold: "#f2b705" };
  const cells = [];
  const squares = {};
  for (const sq of m.squares || []) squares[`${sq.square[0]},${sq.square[1]}`] = sq.content;
  for (let r = -1; r < rows - 1; r++) {
    for (let c = 0; c < cols; c++) {
      const content = squares[`${r},${c}`];
      const px = gx + c * cs, py = gy + (r + 1) * cs;
      cells.push(rect(px, py, cs, cs, content
        ? { fill: fill[content] || "#ccc", stroke: "#00000033" }
        : { fill: "#efe6d2", stroke: "#d9ccb0", "stroke-dasharray": "2 2" }));
    }
  }
  for (let i = 0; i <= 3; i++) {  // the tile slots' borders (2 rows of 3 tiles of 4x4)
    cells.push(line(gx + i * 4 * cs, gy + cs, gx + i * 4 * cs, gy + rows * cs, { stroke: "#00000066" }));
  }
  for (let j = 0; j <= 2; j++) {
    cells.push(line(gx, gy + cs + j * 4 * cs, gx + cols * cs, gy + cs + j * 4 * cs, { stroke: "#00000066" }));
  }
  if (m.miner && m.miner.length === 2) {
    const px = gx + m.miner[1] * cs + cs / 2, py = gy + (m.miner[0] + 1) * cs + cs / 2;
    cells.push(el("g", { "data-component": "miner" }, [
      circle(px, py, cs / 2 - 1, { fill: "#111", stroke: "#fff" }),
      text(px, py + 4, "M", { size: 11.5, anchor: "middle", fill: "#fff", weight: "bold" }),
      title(`the Miner, square [${m.miner[0]}, ${m.miner[1]}]`),
    ]));
  }
  parts.push(el("g", {}, cells));
  const lx = gx + cols * cs + 10;
  [["stone", "Stone"], ["gold", "Gold"], ["empty", "gallery"], ["rock", "rock"]].forEach(([k, name_], i) => {
    parts.push(rect(lx, y + 38 + i * 16, 10, 10, { fill: fill[k], stroke: "#00000055" }));
    parts.push(label(lx + 14, y + 47 + i * 16, name_, x + w - 6 - (lx + 14)));
  });
  parts.push(label(x + 10, y + h - 7, `Free tile slots: ${(m.free_slots || []).length}`, w - 20,
                   { fill: MUTED, tip: `Free slots for new Mine tiles: ${(m.free_slots || []).length}` }));
  return group("mine", {}, parts);
}

// -- the forest trail (5.3, set-up H) ----------------------------------------------------------

function forest(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Forest trail", { size: 13 })];
  const trail = v.forest_trail || [];
  const ring = Math.min(w - 12, h - 46) / 2;
  const cx = x + w / 2, cy = y + 26 + ring, R = ring - 11; // the caption below
  const n = trail.length || 10;
  // counter-clockwise from the top: the Woodcutter's direction (5.3)
  const at = (i) => -Math.PI / 2 - (i * 2 * Math.PI) / n;
  const zones = {};
  trail.forEach((c, i) => { (zones[c.zone] = zones[c.zone] || []).push(i); });
  for (const [zone, idx] of Object.entries(zones)) {
    const a = (at(idx[0]) + at(idx[idx.length - 1])) / 2;
    const zx = cx + R * 0.5 * Math.cos(a), zy = cy + R * 0.5 * Math.sin(a);
    const trees = v.forest ? v.forest[zone] : trail[idx[0]].trees;
    parts.push(el("g", { "data-zone": zone }, [
      path(hexagon(zx, zy, 12.5), { fill: "#3f7f3a", stroke: "#234d20" }),
      text(zx, zy + 4.5, trees, { size: 12.5, anchor: "middle", fill: "#fff", weight: "bold" }),
      title(`forest zone ${Number(zone) + 1}: ${plural(trees, "tree")}`),
    ]));
  }
  trail.forEach((c, i) => {
    const a = at(i), px = cx + R * Math.cos(a), py = cy + R * Math.sin(a);
    const here = v.woodcutter === i;
    const next = v.woodcutter_next && v.woodcutter_next.clearing === c.clearing;
    parts.push(el("g", { "data-clearing": c.clearing }, [
      circle(px, py, 10, { fill: here ? "#8a5a2b" : "#e8dcb8", stroke: next ? "#c8372d" : "#6b5a3a",
                           "stroke-width": next ? 2.5 : 1 }),
      text(px, py + 4, c.number, { size: 11.5, anchor: "middle", weight: "bold", fill: here ? "#fff" : INK }),
      title(`clearing ${c.clearing + 1}: cut ${plural(c.number, "tree")}${here ? "; the Woodcutter is here" : ""}${next ? "; his next clearing" : ""}`),
    ]));
  });
  const start = v.woodcutter === -1 || v.woodcutter === undefined || v.woodcutter === null;
  const nextText = v.woodcutter_next ? `; next: clearing ${v.woodcutter_next.clearing + 1}` : "";
  parts.push(label(x + 8, y + h - 7, start ? "Woodcutter: at the start" : `Woodcutter: clearing ${v.woodcutter + 1}`, w - 16,
                   { fill: MUTED, tip: (start ? "Woodcutter on his starting space" : `Woodcutter in clearing ${v.woodcutter + 1}`) + nextText }));
  parts.push(el("g", {}, [text(x + w - 8, y + 19, "\u21ba", { size: 14, anchor: "end", fill: MUTED }),
                          title("The Woodcutter walks the trail counter-clockwise")]));
  return group("forest-trail", { "data-woodcutter": v.woodcutter }, parts);
}

function hexagon(cx, cy, r) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = Math.PI / 6 + (k * Math.PI) / 3;
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return `M${pts.join(" L")} Z`;
}

// -- the fjord (5.2, set-up L) and the Nog Market (6.6) ------------------------------------------

function fjord(t, x, y, w, h) {
  const v = t.v;
  const blocked = v.nogbad === "active" && v.nogbad_space === "fisherman";
  const waves = Math.max(1, Math.floor((w - 16) / 24));
  return group("fjord", { "data-fish": v.fjord }, [
    panel(x, y, w, h, "The fjord", { fill: "#d7e8f5", size: 13 }),
    path(`M${x + 8},${y + 32} ${"q12,-8 24,0 ".repeat(waves)}`, { fill: "none", stroke: "#3b7dd8", "stroke-width": 2 }),
    cube(x + 10, y + 53, CUBE.fish, `${v.fjord ?? 0} Fish`, { textSize: 14, weight: "bold" }),
    blocked ? el("g", {}, [text(x + 10, y + h - 6, "Nogbad!", { weight: "bold", fill: "#8a2020" }),
                           title("Nogbad blocks the Fisherman action: Sabotage Fishing Nets")]) : "",
  ]);
}

function market(t, x, y, w, h) {
  const v = t.v;
  const mk = v.market || {};
  const parts = [panel(x, y, w, h, "The Nog Market", { size: 13 })];
  const goods = [...BASIC, "gold"].concat(v.coins ? ["coin"] : []);
  const colW = (w - 20) / 3;
  goods.forEach((g, i) => {
    const gx = x + 10 + (i % 3) * colW, gy = y + 37 + Math.floor(i / 3) * 16;
    parts.push(el("g", { "data-resource": g }, cube(gx, gy, CUBE[g], `${RESOURCE[g]} ${mk[g] ?? 0}`, { size: 11, textSize: 11.5 })));
  });
  const rate = v.exchange_rate || 2;
  parts.push(text(x + w - 10, y + 18, `Exchange ${rate}:1`, { size: 12, anchor: "end", weight: "bold", fill: rate > 2 ? "#8a2020" : INK }));
  parts.push(rate > 2
    ? label(x + 10, y + h - 6, pick(w - 20, ["Bad News: Nogbad at the Market, exchange 3:1", "Bad News: Nogbad here, 3:1"], MIN_TEXT, true),
            w - 20, { weight: "bold", fill: "#8a2020", tip: "Bad News: Nogbad is at the Market, the exchange rate is 3:1" })
    : label(x + 10, y + h - 6, pick(w - 20, ["Discover needs 9 Stone here; Restock takes 4, 8 or 12",
                                            "Discover: 9 Stone \u00b7 Restock: 4, 8, 12"]), w - 20,
            { fill: MUTED, tip: "Discovering a Mine tile needs 9 Stone at the Market; Restock takes 4, 8 or 12 from it" }));
  return group("market", { "data-rate": rate }, parts);
}

// -- Building tiles and transports (set-up F, 5.5, 7.1) -------------------------------------------

function buildingRows(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Buildings", { size: 13 })];
  const tp = v.transport_piles || {};
  const piles = TRANSPORTS.map(([id, long]) => `${long} ${tp[id] ?? 0}`).join(", ");
  parts.push(label(x + w - 10, y + 18, pick(w - 100, [
    `Transport tiles: ${piles}`,
    `Transport tiles: ${TRANSPORTS.map(([id, long, short]) => `${id === "boat" ? short : long} ${tp[id] ?? 0}`).join(", ")}`,
    `Transport: ${TRANSPORTS.map(([id, , short]) => `${short} ${tp[id] ?? 0}`).join(", ")}`,
  ]), w - 100, { anchor: "end", fill: MUTED, tip: `Transport tiles left: ${piles}` }));
  const rows = v.rows || {};
  const n = Math.max(3, (rows.top || []).length, (rows.bottom || []).length);
  const lw = 66, gap = 4;
  const tw_ = (w - lw - 8 - gap * (n - 1)) / n;
  [["top", "Top", "Top row"], ["bottom", "Bottom", "Bottom row: the tiles to build"]].forEach(([k, name_, tip], r) => {
    const ry = y + 25 + r * 31;
    parts.push(el("g", {}, [text(x + 10, ry + 18, name_, { weight: "bold" }), title(tip)]));
    (rows[k] || []).forEach((b, i) => {
      const bx = x + lw + i * (tw_ + gap);
      const full = b ? name(BUILDINGS, b) : "taken";
      const { lines } = wrapMax(full, tw_ - 6, 2);
      parts.push(el("g", { "data-row": k, "data-building": b || "" }, [
        rect(bx, ry, tw_, 28, { rx: 3, fill: b ? (r ? "#f6e2b3" : "#efe6d2") : "none", stroke: "#9c8b6e",
                                "stroke-dasharray": b ? null : "3 2" }),
        ...lines.map((l, j) => text(bx + tw_ / 2, ry + (lines.length === 1 ? 18 : 12 + j * 13), l,
                                    { anchor: "middle", fill: b ? INK : MUTED })),
        title(b ? full : "taken this season"),
      ]));
    });
  });
  const pile = v.year1_pile || [];
  const info = pile.length ? `Year 1 pile: ${plural(pile.length, "tile")}`
    : `Seasons ${(v.season || 1) <= 4 ? "1-4: Year 1 tiles" : "5-8: Year 2 tiles"}`;
  parts.push(label(x + 10, y + h - 6, info, w - 20,
                   { fill: MUTED, tip: pile.length ? `${info}: the Builder may take any of them (5.5)` : null }));
  return group("buildings", {}, parts);
}

// -- Noggin's Castle and the characters (set-up D, 6.1) -----------------------------------------

function castle(t, x, y, w, h) {
  const v = t.v;
  const where = v.characters || {};
  const parts = [panel(x, y, w, h, "Noggin's Castle", { size: 13 })];
  const chars = Object.keys(CHARACTERS);
  const home = chars.filter((c) => where[c] === "castle").length;
  const room = w - 24 - tw("Noggin's Castle", 13, true);
  parts.push(label(x + w - 10, y + 18, pick(room, [`${home} of 7 characters at home`, `${home} of 7 at home`]), room,
                   { anchor: "end", fill: MUTED, tip: `${home} of the 7 characters in Noggin's Castle` }));
  let cx = x + 10, cy = y + 27;
  const away = {};
  chars.forEach((c) => {
    const at = where[c];
    const inside = at === "castle";
    if (at && !inside) (away[at] = away[at] || []).push(CHARACTERS[c]);
    const cw = tw(CHARACTERS[c]) + 14;
    if (cx + cw > x + w - 10) {
      cx = x + 10;
      cy += 23;
    }
    parts.push(el("g", { "data-character": c, "data-where": at || "" }, [
      rect(cx, cy, cw, 20, { rx: 10, fill: inside ? "#f6e2b3" : "none", stroke: "#9c8b6e",
                             "stroke-dasharray": inside ? null : "3 2" }),
      text(cx + cw / 2, cy + 14, CHARACTERS[c], { anchor: "middle", fill: inside ? INK : MUTED }),
      title(`${CHARACTERS[c]}: ${inside ? "in Noggin's Castle" : at ? `away, on ${whereName(v, at)}` : "not on the table"}`),
    ]));
    cx += cw + 6;
  });
  const awayText = Object.entries(away).map(([at, names]) => `${names.join(" and ")} on ${whereName(v, at)}`).join("; ");
  if (awayText) {
    const top = cy + 20 + 14;
    parts.push(paragraph(x + 10, top, `Away: ${awayText}`, w - 20, Math.floor((y + h - 4 - top) / 14) + 1, { fill: MUTED }));
  }
  return group("castle", {}, parts);
}

function whereName(v, where) {
  const [kind, i] = String(where ?? "").split(":");
  if (kind === "saga") return (v.saga_cards || [])[Number(i)]?.name || `Saga ${Number(i) + 1}`;
  if (kind === "invention") return (v.invention_cards || [])[Number(i)]?.name || `Invention ${Number(i) + 1}`;
  if (kind === "action") return `the ${(ACTIONS.find(([id]) => id === i) || [null, humanise(i)])[1]} space`;
  return humanise(where);
}

// -- Saga cards and their Reserve cards (6.4) ------------------------------------------------

function sagas(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Saga cards", { size: 13 })];
  const done = v.sagas_done || [];
  const rd = v.reserve || {};
  const decks = ["A", "B", "C"].map((d) => `${d} ${deckLeft(rd[d])}`).join(", ");
  const room = w - 24 - tw("Saga cards", 13, true);
  const doneNames = done.map((s) => humanise(s)).join(", ");
  parts.push(label(x + w - 10, y + 18, pick(room, [
    `Sagas completed: ${done.length} \u00b7 Reserve decks: ${decks}`,
    `Completed: ${done.length} \u00b7 Reserve decks: ${decks}`,
    `Completed: ${done.length} \u00b7 Reserve: ${decks}`,
  ]), room, { anchor: "end", fill: MUTED,
              tip: `Sagas completed: ${done.length}${doneNames ? ` (${doneNames})` : ""}; cards left in the Reserve decks: ${decks}` }));
  const cw = (w - 12 - GAP) / 2;
  (v.sagas || [null, null]).slice(0, 2).forEach((s, i) => {
    parts.push(sagaCard(t, s, (v.saga_cards || [])[i], i, x + 6 + i * (cw + GAP), y + 26, cw, h - 32));
  });
  return group("sagas", {}, parts);
}

function deckLeft(d) {
  if (!d) return "?";
  return Math.max(0, (d.size ?? 0) - (d.top ?? 0) - (d.bottom ?? 0) - (d.discard ?? 0));
}

function sagaCard(t, s, card, slot, x, y, w, h) {
  if (!s) {
    return el("g", { "data-saga": slot }, [rect(x, y, w, h, { rx: 6, fill: "none", stroke: "#9c8b6e", "stroke-dasharray": "4 3" }),
                                           text(x + w / 2, y + h / 2, "no Saga card", { anchor: "middle", fill: MUTED })]);
  }
  const parts = [rect(x, y, w, h, { rx: 6, fill: "#f7eed8", stroke: "#7a6a4a", "stroke-width": 1.5 })];
  const nameText = card?.name || humanise(s.card);
  parts.push(el("g", {}, [
    circle(x + 14, y + 14, 10, { fill: "#e8c21a", stroke: "#7a6a4a" }),
    text(x + 14, y + 18, s.needed, { size: 12, anchor: "middle", weight: "bold" }),
    text(x + 29, y + 19, fit(nameText, w - 34, 12, true), { size: 12, weight: "bold" }),
    title(`${nameText}: ${plural(s.needed, "Reserve card")} to complete${card?.money ? " (the Money Saga)" : ""}`),
  ]));
  const done = s.done || [];
  parts.push(text(x + 8, y + 36, pick(w - 16, [`Reserve cards done: ${done.length} of ${s.needed}`,
                                               `Reserve done: ${done.length} of ${s.needed}`, `Done: ${done.length} of ${s.needed}`])));
  // the foot (the Nogs and characters on the card), the Harbourside card above it, the done cards above that
  const chars = (card?.characters || []).map((c) => name(CHARACTERS, c));
  const charLines = chars.length ? wrapMax(`Characters: ${chars.join(", ")}`, w - 16, 2) : { lines: [] };
  const foot = y + h - 20 - 14 * charLines.lines.length;
  const cur = s.current;
  const needs = cur?.needs || [];
  const half = (w - 20) / 2, top = y + 41;
  // the Harbourside card takes what one row of done cards leaves: its conditions in two columns
  // when their names fit (or when one column is too tall), the rest in "+N more"
  const room = foot - top - (done.length ? 19 : 0);
  const twoCols = needs.every((nd) => 30 + tw(resName(nd)) <= half - 2) || 19 + 14 * needs.length > room;
  const needRows = Math.min(twoCols ? Math.ceil(needs.length / 2) : needs.length, Math.max(1, Math.floor((room - 19) / 14)));
  const slots = needRows * (twoCols ? 2 : 1), needsShown = needs.length > slots ? slots - 1 : needs.length;
  const hb = cur ? 19 + 14 * needRows : 0;
  const fits = Math.max(0, Math.floor((foot - hb - top - 2) / 17));
  const shown = done.length > fits ? Math.max(0, fits - 1) : done.length;
  done.slice(0, shown).forEach((d, k) => {
    const by = top + k * 17;
    const nogs = (d.nogs || []).map((n, seat) => (n ? `${t.nameOf(seat)} ${n}` : "")).filter(Boolean).join(", ");
    parts.push(el("g", { "data-reserve": d.deck }, [
      rect(x + 6, by, w - 12, 15, { rx: 3, fill: "#e9dfc6", stroke: "#b5a47f" }),
      text(x + 11, by + 12, `${d.deck}${d.nogbad ? " \u2620 Nogbad" : ""}`, { weight: "bold", fill: d.nogbad ? "#8a2020" : INK }),
      nogRow(t, d.nogs || [], x + w - 9, by + 7.5),
      title(`Reserve card ${d.deck} done${d.nogbad ? ", with Nogbad's portrait" : ""}${nogs ? `; Nogs: ${nogs}` : ""}`),
    ]));
  });
  if (done.length > shown && fits) {
    const by = top + shown * 17;
    parts.push(el("g", {}, [
      rect(x + 6, by, w - 12, 15, { rx: 3, fill: "#e9dfc6", stroke: "#b5a47f", "stroke-dasharray": "3 2" }),
      text(x + 11, by + 12, fit(`+${done.length - shown} more done`, w - 22)),
      title(`Reserve cards done: ${done.map((d) => `${d.deck}${d.nogbad ? " (Nogbad)" : ""}`).join(", ")}`),
    ]));
  }
  if (cur) {
    const chips = Math.min(done.length, fits);
    const hy = top + chips * 17 + (chips ? 2 : 0);
    const full = cur.bonus ? `Harbourside: card ${cur.deck} (bonus)` : `Harbourside: Reserve card ${cur.deck}`;
    parts.push(el("g", { "data-component": "harbourside", "data-deck": cur.deck }, [
      rect(x + 6, hy, w - 12, hb, { rx: 4, fill: "#fffaf0", stroke: "#7a6a4a" }),
      label(x + 11, hy + 13, pick(w - 22, [full, cur.bonus ? `Harbourside ${cur.deck} (bonus)` : `Harbourside: card ${cur.deck}`,
                                           `Harbourside ${cur.deck}`], MIN_TEXT, true),
            w - 22, { weight: "bold", tip: full }),
      ...needs.slice(0, needsShown).map((need, k) => {
        const met = (cur.met || [])[k];
        const col = twoCols ? k % 2 : 0, row = twoCols ? Math.floor(k / 2) : k;
        const who = met && met.seat !== undefined && met.seat !== null ? t.colourOf(met.seat) : null;
        return need_(x + 10 + col * half, hy + 27 + row * 14, need, met, who, (twoCols ? half : w - 20) - 2);
      }),
      needs.length > needsShown ? el("g", {}, [
        text(x + 10 + (twoCols ? (needsShown % 2) * half : 0), hy + 27 + (twoCols ? Math.floor(needsShown / 2) : needsShown) * 14,
             `+${needs.length - needsShown} more`),
        title(`Harbourside card ${cur.deck} needs: ${needs.map(resName).join(", ")}`),
      ]) : "",
    ]));
  }
  if (chars.length) {
    const n = charLines.lines.length;
    parts.push(el("g", { "data-component": "saga-characters" }, [
      ...charLines.lines.map((l, k) => text(x + 8, y + h - 7 - 14 * (n - k), l)),
      title(`Characters on the card: ${chars.join(", ")}`),
    ]));
  }
  parts.push(label(x + 8, y + h - 7, `Nogs on the card: ${card?.nogs ?? 0}`, w - 16, { fill: MUTED }));
  return el("g", { "data-saga": slot, "data-card": s.card }, parts);
}

/** One condition of a Reserve or Invention card at (nx, ny), `width` wide: its cube (filled once
 * met, with the colour of the seat that met it on the left) and its name. */
function need_(nx, ny, need, met, who, width) {
  return el("g", { "data-need": need, "data-met": met ? "true" : "false" }, [
    who ? piece(nx + 5, ny - 4, who, null, { r: 5 }) : "",
    rect(nx + 13, ny - 10, 12, 12, { rx: 2, fill: met ? (CUBE[met.paid] || "#bbb") : (CUBE[need] || "#fff"),
                                     stroke: INK, "stroke-opacity": met ? 1 : 0.5, "fill-opacity": met ? 1 : 0.35 }),
    label(nx + 29, ny, resName(need), width - 29, { tip: `${resName(need)}: ${met ? `met${met.paid ? ` with ${resName(met.paid)}` : ""}` : "still needed"}` }),
  ]);
}

/** Per-seat Nog counts as small coloured discs, right-aligned at (right, y). */
function nogRow(t, nogs, right, y) {
  const out = [];
  let px = right;
  for (let seat = nogs.length - 1; seat >= 0; seat--) {
    if (!nogs[seat]) continue;
    out.push(piece(px - 7, y, t.colourOf(seat), nogs[seat], { r: 7, size: 11.5 }));
    px -= 16;
  }
  return out.join("");
}

// -- Invention cards (6.5) and the Counting House (6.3) --------------------------------------------

function inventionCards(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Invention cards", { size: 13 })];
  const cw = w - 12, ch = (h - 32 - GAP) / 2;
  (v.inventions || [null, null]).slice(0, 2).forEach((inv, i) => {
    const cx = x + 6, cy = y + 26 + i * (ch + GAP);
    const card = (v.invention_cards || [])[i];
    if (!inv) {
      parts.push(el("g", { "data-invention": i }, [rect(cx, cy, cw, ch, { rx: 6, fill: "none", stroke: "#9c8b6e", "stroke-dasharray": "4 3" }),
                                                   text(cx + cw / 2, cy + ch / 2 + 4, "no Invention card", { anchor: "middle", fill: MUTED })]));
      return;
    }
    const nm = card?.name || name(INVENTIONS, inv.card);
    const once = card?.once === "turn" || card?.once === "season" ? card.once : card?.once ? "season" : null;
    const ability = card?.ability ? (once ? `special ability, once a ${once}` : "special ability") : "no special ability";
    const cell = [rect(cx, cy, cw, ch, { rx: 6, fill: "#eef2f7", stroke: "#5a6a7a", "stroke-width": 1.5 }),
                  el("g", {}, [text(cx + 8, cy + 16, fit(nm, cw - 16, 12.5, true), { size: 12.5, weight: "bold" }),
                               title(`${nm}: ${ability}`)]),
                  label(cx + 8, cy + 30, ability, cw - 16, { fill: MUTED })];
    const first = inv.first !== null && inv.first !== undefined;
    const slots = first ? 4 : 6, needs = inv.needs || [];
    const half = (cw - 16) / 2;
    const shown = needs.length > slots ? slots - 1 : needs.length;
    needs.slice(0, shown).forEach((need, k) => {
      const met = (inv.met || [])[k];
      cell.push(need_(cx + 8 + (k % 2) * half, cy + 45 + Math.floor(k / 2) * 14, need, met,
                      met && met.seat !== undefined && met.seat !== null ? t.colourOf(met.seat) : null, half - 4));
    });
    if (needs.length > shown) {
      cell.push(el("g", {}, [text(cx + 8 + (shown % 2) * half, cy + 45 + Math.floor(shown / 2) * 14, `+${needs.length - shown} more`),
                             title(`Needs: ${needs.map(resName).join(", ")}`)]));
    }
    if (first) cell.push(label(cx + 8, cy + ch - 5, `First Nog: ${t.nameOf(inv.first)}`, cw - 16, { fill: MUTED }));
    parts.push(el("g", { "data-invention": i, "data-card": inv.card }, cell));
  });
  return group("inventions", {}, parts);
}

function countingHouse(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "The Counting House", { size: 13 })];
  const card = v.counting_house_card;
  parts.push(el("g", { "data-card": card?.card || "" }, [
    rect(x + 10, y + 27, w - 20, 24, { rx: 5, fill: card ? "#f3e3b8" : "none", stroke: "#9c8b6e", "stroke-dasharray": card ? null : "4 3" }),
    label(x + w / 2, y + 44, card ? card.name : "no card this season", w - 30, { size: 12, anchor: "middle",
                                                                                 weight: card ? "bold" : null, fill: card ? INK : MUTED }),
  ]));
  const au = v.auction;
  const info = [];
  if (au) {
    const next = Array.isArray(au.order) && au.next < au.order.length ? au.order[au.next] : null;
    info.push(`Auction: highest bid ${au.bid ?? 0} Step(s)${au.leader !== null && au.leader !== undefined ? ` by ${t.nameOf(au.leader)}` : ""}`);
    if (next !== null && next !== undefined) info.push(`Next to bid: ${t.nameOf(next)}`);
  } else if (v.decision && v.decision.kind === "keep_card") {
    info.push(`${t.nameOf(v.decision.seat)} won the auction and places the card`);
  }
  info.push(`Cards left in the deck: ${Math.max(0, 15 - (v.ch_drawn ?? 0))}`);
  const top = y + 68, max = Math.floor((y + h - 5 - top) / 14) + 1;
  const lines = info.flatMap((s) => wrapTo(s, w - 20));
  const { lines: shown } = lines.length > max ? wrapMax(info.join(" \u00b7 "), w - 20, max) : { lines };
  parts.push(el("g", {}, [...shown.map((l, i) => text(x + 10, top + i * 14, l)), lines.length > max ? title(info.join("; ")) : ""]));
  return group("counting-house", {}, parts);
}

// -- the player boards (3.8): one table, a column per seat -----------------------------------------

const LABEL_W = 84, HEAD = 21, PITCH = 13.5;
/** The lines the list rows may take at most, and the order they give them up in when the table
 * runs short of room (the Nogs on actions show on the action spaces too, the final total in Score). */
const LIST_LINES = { Buildings: 3, Cards: 3, "On actions": 2, Other: 2, Final: 2 };
const GIVE_UP = [["On actions", 1], ["Buildings", 2], ["Cards", 2], ["Other", 1], ["Final", 1], ["Buildings", 1], ["Cards", 1]];
const ACTION_SHORT = { market_day: "Market" };

function playerBoards(t, x, y, w, h) {
  const ps = t.players;
  const parts = [rect(x, y, w, h, { rx: 8, fill: PAPER, stroke: FRAME, "stroke-width": 1.5 })];
  if (!ps.length) {
    parts.push(text(x + 10, y + 19, "Player boards", { size: 13, weight: "bold" }));
    parts.push(text(x + 10, y + 40, "No players yet", { fill: MUTED }));
    return group("player-boards", {}, parts);
  }
  const cw = (w - 8 - LABEL_W) / ps.length, x0 = x + 4 + LABEL_W;
  const count = (rows) => rows.reduce((a, r) => a + r.lines, 0);
  const budget = Math.floor((h - HEAD - 4) / PITCH);
  const caps = { ...LIST_LINES };
  let rows = boardRows(t, cw - 9, caps);
  for (const [k, n] of GIVE_UP) {
    if (count(rows) <= budget) break;
    caps[k] = n;
    rows = boardRows(t, cw - 9, caps);
  }
  const pitch = Math.min(16, (h - HEAD - 4) / count(rows));
  let by = y + HEAD + 1;
  rows.forEach((r, k) => {
    r.top = by;
    if (k % 2 === 0) parts.push(rect(x + 2, by, w - 4, r.lines * pitch, { fill: "#f1e8d3" }));
    by += r.lines * pitch;
  });
  parts.push(el("g", {}, [text(x + 10, y + 16, "Players", { weight: "bold" }),
                          title("The player boards (3.8), a column per seat")]));
  for (const r of rows) {
    if (!r.secret) parts.push(el("g", {}, [text(x + 10, r.top + pitch - 3.5, r.label, { weight: "bold" }), title(r.tip)]));
  }
  ps.forEach((p, i) => parts.push(playerColumn(t, p, i, rows, x0 + i * cw, y, cw, h, pitch, x + 10)));
  return group("player-boards", {}, parts);
}

function playerColumn(t, p, i, rows, x, y, w, h, pitch, lx) {
  const mine = t.seat === p.seat;
  const toMove = toMoveOf(t.v, t.ctx).includes(p.seat);
  const colour = PIECE[p.colour] || "#999";
  const parts = [
    rect(x + 1, y + 3, w - 2, h - 6, { rx: 5, fill: "none", stroke: colour, "stroke-width": mine ? 3 : 1.2 }),
    rect(x + 1, y + 3, w - 2, HEAD - 4, { rx: 5, fill: colour }),
    label(x + 6, y + 16, t.nameOf(p.seat), w - 10, { weight: "bold", fill: onPiece(p.colour),
                                                     tip: `${t.nameOf(p.seat)}: ${p.colour}${toMove ? ", to move" : ""}` }),
  ];
  for (const r of rows) {
    const cell = r.cells[i];
    if (cell) parts.push(cell(x + 6, r.top, pitch, lx));
  }
  return el("g", { "data-component": "player-board", "data-seat": p.seat, "data-colour": p.colour }, parts);
}

/** A cell of text lines from the row's top, `pitch` apart. */
function textCell(lines, o = {}) {
  return (cx, top, pitch) => el("g", o.attrs || {}, [
    ...lines.map((l, j) => text(cx, top + (j + 1) * pitch - 3.5, l, o.style || {})),
    o.tip ? title(o.tip) : "",
  ]);
}

/** Coloured squares (discs for Gold and coins) with numbers, in lines of `width`:
 * [{key, n, fill, hollow, disc, mark, tip}] -> {at: the items with their place, lines}. */
function flowSquares(items, width) {
  let dx = 0, row = 0;
  const at = items.map((it) => {
    const iw = 11 + tw(`${it.n}${it.mark || ""}`);
    if (dx && dx + iw > width) {
      dx = 0;
      row++;
    }
    const pos = { ...it, dx, row };
    dx += iw + 4;
    return pos;
  });
  return { at, lines: row + 1 };
}

function squaresCell(flow) {
  return (cx, top, pitch) => el("g", {}, flow.at.map((it) => {
    const base = top + (it.row + 1) * pitch - 3.5, sx = cx + it.dx;
    const shape = it.disc ? circle(sx + 4.5, base - 4, 4.5, { fill: it.fill, stroke: "#00000088" })
      : rect(sx, base - 8.5, 9, 9, it.hollow ? { fill: "#fffaf0", stroke: it.fill, "stroke-width": 2, rx: 2 }
                                             : { fill: it.fill, stroke: "#00000066", rx: 2 });
    return el("g", { "data-resource": it.key }, [shape, text(sx + 11, base, `${it.n}${it.mark || ""}`), title(it.tip)]);
  }));
}

/** The rows of the player boards' table, each {label, tip, lines, cells: a drawing function per
 * seat}; `caps` limits the lines of the list rows (LIST_LINES). */
function boardRows(t, width, caps) {
  const v = t.v, ps = t.players;
  const rows = [];
  const add = (row) => rows.push({ ...row, lines: Math.max(1, ...row.sizes) });
  const toMove = toMoveOf(v, t.ctx);
  const final = v.final?.breakdown || [];
  const none = (str = "none") => ({ lines: 1, cell: textCell([str], { style: { fill: MUTED } }) });

  // Score (the players' points, 3.5) and whose turn it is
  add({ label: "Score", tip: "Players' points (PP)", sizes: [1], cells: ps.map((p) => {
    const score = final[p.seat]?.total ?? p.score;
    const moving = toMove.includes(p.seat);
    const str = pick(width, [`${score} PP${moving ? " \u00b7 \u25b6 to move" : ""}`, `${score} PP${moving ? " \u25b6" : ""}`], MIN_TEXT, true);
    return textCell([str], { style: { weight: "bold" }, tip: `${score} PP${moving ? "; to move" : ""}`,
                             attrs: { "data-component": "score", "data-score": score } });
  }) });

  // Farm (3.7: Gold and coins take no room)
  const goods = [...BASIC, "gold"].concat(v.coins || ps.some((p) => p.stock?.coin) ? ["coin"] : []);
  const farms = ps.map((p) => flowSquares(goods.map((g) => ({
    key: g, n: p.stock?.[g] ?? 0, fill: CUBE[g], disc: g === "gold" || g === "coin", tip: `${RESOURCE[g]}: ${p.stock?.[g] ?? 0} in the Farm`,
  })), width));
  add({ label: "Farm", tip: "In the Farm: Stone, Wood, Fish, Harvest (squares), Gold and coins (discs), coloured as in the Nog Market",
        sizes: farms.map((f) => f.lines), cells: farms.map(squaresCell) });

  // Room left in the Farm and the buildings' storage
  add({ label: "Room left", tip: "Room left for each basic resource (the Farm holds 6; buildings add room)", sizes: [1],
        cells: ps.map((p) => {
          const room = p.storage?.room;
          if (!room) return none("\u2013").cell;
          return squaresCell(flowSquares(BASIC.map((g) => ({
            key: g, n: room[g] ?? 0, fill: CUBE[g], hollow: true, tip: `Room left for ${RESOURCE[g]}: ${room[g] ?? 0}`,
          })), width));
        }) });

  add({ label: "Mountains", tip: "Nogs on the Mountains space; Nogs in the general reserve", sizes: [1], cells: ps.map((p) => {
    const m = p.mountains ?? 0, r = p.reserve ?? 0;
    return textCell([pick(width, [`${plural(m, "Nog")}; ${r} in reserve`, `${plural(m, "Nog")}; reserve ${r}`, `${m}; reserve ${r}`])],
                    { tip: `Mountains: ${plural(m, "Nog")}; ${r} in the general reserve` });
  }) });

  add({ label: "Fields", tip: "Harvest cubes on the two fields; trees on the Orchard", sizes: [1], cells: ps.map((p) => {
    const f = p.fields || [], o = p.orchard ?? 0;
    return textCell([pick(width, [`${f.join(" and ")} Harvest; Orchard ${plural(o, "tree")}`, `${f.join(", ")} Harvest; Orchard ${o}`,
                                  `${f.join(", ")} \u00b7 Orchard ${o}`, `${f.join(", ")} \u00b7 Orch. ${o}`])],
                    { tip: `Fields: ${f.map((n) => `${n} Harvest`).join(", ") || "none"}; Orchard: ${plural(o, "tree")}` });
  }) });

  add({ label: "Transport", tip: "Capacity of the Mine cart (grey), Wood cart (brown) and Fishing boat (blue); \u2191 upgraded",
        sizes: [1], cells: ps.map((p) => {
          const tc = p.transport_capacity || {}, up = p.transports || [];
          const cap = (id) => `${tc[id] ?? 2}${up.includes(id) ? "\u2191" : ""}`;
          const long = TRANSPORTS.map(([id, name_]) => `${name_} ${cap(id)}`).join(", ");
          const mid = TRANSPORTS.map(([id, , short]) => `${short} ${cap(id)}`).join(", ");
          const fitText = [long, mid].find((s) => tw(s) <= width);
          if (fitText) return textCell([fitText], { tip: `Transport: ${long}` });
          const colours = { mine_cart: CUBE.stone, wood_cart: CUBE.wood, boat: CUBE.fish };
          return squaresCell(flowSquares(TRANSPORTS.map(([id, name_]) => ({
            key: id, n: tc[id] ?? 2, mark: up.includes(id) ? "\u2191" : "", fill: colours[id],
            tip: `${name_}: carries ${tc[id] ?? 2}${up.includes(id) ? " (upgraded)" : ""}`,
          })), width));
        }) });

  // lists: wrapped in the wording that takes fewest lines (the long one on a tie); when neither fits,
  // the short items that do and "+N more"; the whole list is the tooltip
  const listCell = (full, short, max, o = {}) => {
    if (!full.length) return none(o.none);
    let lines = null;
    for (const items of [full, short].filter(Boolean)) {
      const wrapped = wrapTo(items.join(", "), width);
      if (wrapped.length <= max && !wrapped.some((l) => l.endsWith("\u2026")) && (!lines || wrapped.length < lines.length)) lines = wrapped;
    }
    lines = lines || listLines(short || full, width, max).lines;
    return { lines: lines.length, cell: textCell(lines, { attrs: o.attrs, style: o.style, tip: `${o.tipHead}: ${full.join(", ")}` }) };
  };
  const listRow = (label_, tip, items) => add({ label: label_, tip, sizes: items.map((c) => c.lines), cells: items.map((c) => c.cell) });

  listRow("Buildings", "Building tiles built, with the space each is on", ps.map((p) => {
    const b = Object.entries(p.buildings || {});
    return listCell(b.map(([id, space]) => `${name(BUILDINGS, id)} (${SPACES[space] || humanise(space)})`),
                    b.map(([id]) => name(BUILDINGS, id)), caps.Buildings, { tipHead: "Buildings" });
  }));
  listRow("Cards", "Counting House cards (face up or down) and Invention cards", ps.map((p) => {
    const ch = p.counting_house || [], inv = p.inventions || [];
    return listCell([...ch.map((c) => `${name(COUNTING_HOUSE, c.card)}${c.up ? "" : " (face down)"}`), ...inv.map((c) => name(INVENTIONS, c))],
                    [...ch.map((c) => `${name(COUNTING_HOUSE, c.card)}${c.up ? "" : " (down)"}`), ...inv.map((c) => name(INVENTIONS, c))],
                    caps.Cards, { tipHead: "Cards", attrs: { "data-component": "cards" } });
  }));
  listRow("On actions", "Nogs on the action spaces this season", ps.map((p) => {
    const on = ACTIONS.filter(([id]) => p.placed?.[id]);
    return listCell(on.map(([id, name_]) => `${name_} ${p.placed[id]}`), on.map(([id, name_]) => `${ACTION_SHORT[id] || name_} ${p.placed[id]}`),
                    caps["On actions"], { tipHead: "Nogs on actions" });
  }));

  // Forge token and the Friend or Foe variant's Accusation cards
  const notes = ps.map((p) => [
    p.forge ? ["Forge token", "Forge"] : null,
    p.accused ? ["Accusation card played", "Accusation used"] : null,
    p.shown ? [`accused, showed ${p.shown === "nogbad" ? "Nogbad" : "Noggin"}`, `showed ${p.shown === "nogbad" ? "Nogbad" : "Noggin"}`] : null,
    p.unmasked ? ["unmasked: plays as a friend", "unmasked"] : null,
  ].filter(Boolean));
  if (notes.some((n) => n.length)) {
    listRow("Other", "Forge token; Accusation cards (Friend or Foe)", notes.map((n) => (n.length
      ? listCell(n.map(([l]) => l), n.map(([, s]) => s), caps.Other, { tipHead: "Other", style: { fill: MUTED } })
      : none("\u2013"))));
  }

  // the seat's own Friend or Foe card: in its own view alone
  const own = ps.findIndex((p) => p.seat === t.secrets);
  if (own >= 0 && v.my_loyalty) {
    const foe = v.my_loyalty === "nogbad";
    const full = foe ? "Nogbad: you secretly help Nogbad" : "Noggin: you help Noggin";
    const cells = ps.map(() => null);
    cells[own] = (cx, top, pitch, lx) => el("g", { "data-component": "my-loyalty", "data-secret": t.secrets }, [
      text(lx, top + pitch - 3.5, "Your card", { weight: "bold" }),
      text(cx, top + pitch - 3.5, pick(width, [full, foe ? "Nogbad (a foe)" : "Noggin (a friend)"], MIN_TEXT, true), { weight: "bold" }),
      title(`Your Friend or Foe card: ${full}`),
    ]);
    rows.push({ label: "Your card", tip: "", lines: 1, cells, secret: true });
  }

  // the final scoring (9.0)
  if (final.length) {
    const LONG = { nogs: "Nogs" }, SHORT = { nogs: "Nogs", resources: "res.", buildings: "bldg.", inventions: "inv." };
    listRow("Final", "Final scoring (9.0), the total in Score", ps.map((p) => {
      const f = final[p.seat];
      if (!f) return none("\u2013");
      const parts = Object.entries(f).filter(([k, n]) => k !== "total" && n);
      if (!parts.length) return { lines: 1, cell: textCell([`${f.total} PP`]) };
      return listCell(parts.map(([k, n]) => `${LONG[k] || k} ${n}`), parts.map(([k, n]) => `${SHORT[k] || k} ${n}`), caps.Final,
                      { tipHead: `Final ${f.total} PP` });
    }));
  }
  return rows;
}

export const size = { width: W, height: H };
