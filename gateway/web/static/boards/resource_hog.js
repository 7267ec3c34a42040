// The table of Resource Hog, drawn from a player view.
//
// render(view, ctx) -> SVG string (README.md in this folder gives the interface). The
// specification (resource-hog-actions-and-events.txt, resource-hog-components.md) names the
// pieces drawn here: land areas with field and forest squares, game, mines, harbours, roads,
// manors, mottes and castles and stone heads; sea and lake areas with their fish pools; each
// area's store of goods; peasants and nobles in each player's colour (a noble is the side with
// a dot); the trading board with its columns of goods and priced slots, the slave and mercenary
// tracks; and the three action tokens of each player. It prints no map, no round and no prices:
// the eight land areas in a ring round the Mere between the Western and Eastern Seas, the
// orders, the 8 rounds, the trading board's prices and the wealth that wins are the house rules
// of docs/house-rules.md (Resource Hog: the map, the round, costs, the trading board). A seat's
// orders before they are revealed are its secret, drawn in its own view alone (data-secret).
//
// The whole table fits the 960 x 736 drawing (svg.js's W x H), top to bottom:
//   header (the round, whose move)                                 y   0-30
//   round track: one thin row of the 8 rounds and the stage       y  32-54
//   map: the Western Sea, L1-L4, the Mere, L8-L5, the Eastern Sea  y  58-358 (lands as 4-line cards)
//   trading board (left) and action tokens (right)                y 362-562
//   player boards: one table, a column a seat; rows Purse, Lands,
//   Pieces, Goods, Buildings, Wealth (house rules: length and winner)  y 566-730
// What a box cannot hold is cut with an ellipsis or "+N" and given whole in a <title> tooltip.

import {
  INK, MUTED, PIECE, SEAT_COLOURS, W, circle, el, group, humanise, inner, line, panel, path, piece, rect,
  outcomeOf, seatLabel, secretsOf, statusLine, svgDoc, toMoveOf, text, title,
} from "./svg.js";

/** The land areas' names and coasts (house rules: the map); which have ore depends on the number
 * of players and comes with each land of the view (`ore`). */
const LANDS = {
  L1: ["Ashby", "west_sea"], L2: ["Brackenholm", "west_sea"], L3: ["Cragmoor", "west_sea"],
  L4: ["Dunfield", "west_sea"], L5: ["Eastwold", "east_sea"], L6: ["Fernhollow", "east_sea"],
  L7: ["Greystone", "east_sea"], L8: ["Harrowmere", "east_sea"],
};
const WATERS = { west_sea: ["the Western Sea", 12], east_sea: ["the Eastern Sea", 12], mere: ["the Mere", 12] };
/** Trading board prices, bottom row first (house rules: the trading board). */
const PRICES = { preserved: [6, 5, 4, 3, 2], salt: [5, 4, 3, 2, 1], weapons: [12, 10, 8, 6, 4] };
const GOODS = [["preserved", "Preserved food"], ["salt", "Salt"], ["weapons", "Arms and armour"]];
/** Short names of the goods in the stores and on the player boards (the whole name in tooltips). */
const SHORT = { preserved: "food", salt: "salt", weapons: "arms" };
const GOOD_COLOUR = { preserved: "#e07b24", salt: "#f4f4f4", weapons: "#7b4aa8", fish: "#3f9142", meat: "#c8372d",
                      grain: "#e2b812", gold: "#d4a017" };
const SQUARE = { field: "#e8d36a", forest: "#3f7f3a", stone_head: "#9a9a9a" };
const SLAVE_PRICE = 8, MERCENARY_PRICE = 10, ROUNDS = 8;
/** Wealth at the end (house rules): money, 5 a noble, 2 a peasant, and the buildings. */
const WEALTH = { noble: 5, peasant: 2, road: 7, harbour: 12, mine: 12, manor: 18, motte: 30, castle: 45, stone_head: 8 };
const ACTIONS = { peasants: "Peasants", nobles: "Nobles", trade: "Trade" };
const WORK = { fish: "fish", hunt: "hunt", toil: "toil", mine: "mine", clear: "clear", build: "build",
               population: "population", knight: "knighting" };
const WATER_INK = "#0e2f4f";

// -- fitting text into boxes -----------------------------------------------------------------

/** A generous guess of a text's width (units) in the drawing's font (DejaVu Sans, measured in
 * Chromium: mixed text is 0.50-0.58 em a character, bold about a tenth more), so a string
 * measured so never runs past its box: wide letters, capitals and digits, narrow ones, the rest. */
function widthOf(str, size, bold) {
  let em = 0;
  for (const c of String(str ?? "")) {
    em += /[mwMW\u2026\u00d7]/.test(c) ? 0.95 : /[A-Z0-9]/.test(c) ? 0.68 : /[iljtfr .,:;'()!|]/.test(c) ? 0.34 : 0.6;
  }
  return em * size * (bold ? 1.12 : 1);
}

/** The longest start of `str` that fits `px` units, with an ellipsis if cut. */
function fitString(str, px, size, bold) {
  const s = String(str ?? "");
  if (widthOf(s, size, bold) <= px) return s;
  const chars = [...s];
  let n = chars.length;
  while (n > 1 && widthOf(chars.slice(0, n - 1).join("") + "\u2026", size, bold) > px) n--;
  return chars.slice(0, Math.max(1, n - 1)).join("") + "\u2026";
}

/** A text cut to `px` units wide; when cut, wrapped in a group whose tooltip is the whole text. */
function fitText(x, y, str, px, o = {}) {
  const s = String(str ?? "");
  const size = Math.max(o.size || 13, 11.5);
  const cut = fitString(s, px, size, o.weight === "bold");
  const t = text(x, y, cut, o);
  return cut === s && !o.tip ? t : el("g", {}, [title(o.tip || s), t]);
}

// -- the table ---------------------------------------------------------------------------------

/** The table of Resource Hog: see the header comment. */
export function render(view, ctx = {}) {
  const v = inner(view);
  const seat = ctx?.seat ?? null;
  const players = v.players || [];
  const t = {
    v, ctx, seat, players, secrets: secretsOf(v, ctx), nameOf: (s) => seatLabel(ctx, s),
    colourOf: (s) => SEAT_COLOURS[s % SEAT_COLOURS.length],
  };
  const m = 6, w = W - 2 * m;
  return svgDoc("Resource Hog", [
    header(t),
    roundTrack(t, m, 32, w, 22),
    map(t, m, 58, w, 300),
    tradingBoard(t, m, 362, 500, 200),
    orders(t, m + 506, 362, w - 506, 200),
    playerBoards(t, m, 566, w, 164),
  ], { game: "resource_hog", seat, background: "#e6e2d6" });
}

function header(t) {
  const v = t.v;
  let status = statusLine(v, t.ctx, t.nameOf);
  const outcome = outcomeOf(v, t.ctx);
  if (!outcome && v.acting) {
    const action = `${ACTIONS[v.acting[1]] || humanise(v.acting[1])} action`;
    status += toMoveOf(v, t.ctx).includes(v.acting[0]) ? ` (its ${action})` : ` (${action} of ${t.nameOf(v.acting[0])})`;
  }
  if (!outcome && v.ransom) status += ` (a ransom to pay)`;
  const round = `Round ${Math.min(v.round || 1, ROUNDS)} of ${ROUNDS}`;
  const left = 160 + widthOf(round, 13) + 24;
  return group("header", {}, [
    text(12, 22, "Resource Hog", { size: 18, weight: "bold" }),
    text(160, 22, round, { size: 13, fill: MUTED }),
    fitText(W - 12, 22, status, W - 12 - left, { size: 13, anchor: "end", weight: "bold" }),
  ]);
}

function stageName(v) {
  switch (v.stage) {
    case "orders": return "Orders: every seat orders its three action tokens in secret";
    case "actions": return `Actions: token ${(v.step ?? 0) + 1} of 3`;
    case "events": return "Events: the round's events";
    case "preserve": return "Events: owners choose how much salt preserves their fresh food";
    case "over": return "The game is over";
    default: return humanise(v.stage || "set-up");
  }
}

// -- the round track (house rules: the round; a game is 8 rounds) ------------------------------

function roundTrack(t, x, y, w, h) {
  const v = t.v;
  const round = v.round || 1;
  const over = v.stage === "over";
  const parts = [rect(x, y, w, h, { rx: 6, fill: "#fbf6ea", stroke: "#9c8b6e", "stroke-width": 1.2 }),
                 text(x + 10, y + h / 2 + 5, "Rounds", { size: 12.5, weight: "bold" })];
  const cx0 = x + 70, cw = 54;
  for (let r = 1; r <= ROUNDS; r++) {
    const rx = cx0 + (r - 1) * cw;
    const now = r === round && !over;
    parts.push(el("g", { "data-round": r }, [
      title(`Round ${r}${now ? " (this round)" : r < round || over ? " (played)" : ""}`),
      rect(rx + 2, y + 3, cw - 4, h - 6, { rx: 4, fill: now ? "#2f63b8" : r < round || over ? "#d9d2bf" : "#f8f2e2",
                                           stroke: "#9c8b6e" }),
      text(rx + cw / 2, y + h / 2 + 4.5, r, { size: 12.5, anchor: "middle", weight: "bold", fill: now ? "#fff" : INK }),
    ]));
  }
  const sx = cx0 + ROUNDS * cw + 14;
  parts.push(fitText(sx, y + h / 2 + 4.5, stageName(v), x + w - 10 - sx, { size: 12.5, weight: "bold", fill: MUTED }));
  return group("round-track", { "data-round": round }, parts);
}

// -- the map (house rules: eight land areas round the Mere, two seas) ------------------------

function map(t, x, y, w, h) {
  const v = t.v;
  const parts = [rect(x, y, w, h, { rx: 8, fill: "#d6e6c5", stroke: "#7d8f5a", "stroke-width": 1.5 })];
  const seaW = 62, gap = 6, mereW = 170;
  const landW = (w - 2 * (seaW + 5 + gap) - mereW) / 2;
  const westX = x + 5 + seaW + gap, eastX = westX + landW + mereW;
  const cardH = (h - 12 - 3 * gap) / 4;
  parts.push(water(t, "west_sea", x + 5, y + 5, seaW, h - 10));
  parts.push(water(t, "east_sea", x + w - seaW - 5, y + 5, seaW, h - 10));
  // the ring: L1-L4 down the west, L5-L8 up the east; L4-L5 and L8-L1 meet round the Mere's ends
  const mx = westX + landW + mereW / 2;
  const dash = { fill: "none", stroke: "#8c7a55", "stroke-width": 2, "stroke-dasharray": "4 3" };
  parts.push(path(`M${westX + landW},${y + 24} L${eastX},${y + 24}`, dash));
  parts.push(path(`M${westX + landW},${y + h - 24} L${eastX},${y + h - 24}`, dash));
  parts.push(text(mx, y + 18, "L8 \u2013 L1 border", { size: 11.5, anchor: "middle", fill: MUTED }));
  parts.push(text(mx, y + h - 10, "L4 \u2013 L5 border", { size: 11.5, anchor: "middle", fill: MUTED }));
  const ry = (h - 60) / 2;
  parts.push(water(t, "mere", mx, y + 30 + ry, mereW / 2 - 8, ry, true));
  const pos = {};
  ["L1", "L2", "L3", "L4"].forEach((id, i) => { pos[id] = [westX, y + 6 + i * (cardH + gap)]; });
  ["L8", "L7", "L6", "L5"].forEach((id, i) => { pos[id] = [eastX, y + 6 + i * (cardH + gap)]; });
  for (const id of Object.keys(LANDS)) {
    const [lx, ly] = pos[id];
    parts.push(land(t, id, (v.lands || {})[id], lx, ly, landW, cardH));
  }
  return group("map", {}, parts);
}

function water(t, id, x, y, w, h, lake = false) {
  const v = t.v;
  const [label, max] = WATERS[id];
  const fish = (v.fish || {})[id] ?? 0;
  const shape = lake
    ? el("ellipse", { cx: x, cy: y, rx: w, ry: h, fill: "#a9d0ef", stroke: "#4a86bf", "stroke-width": 2 })
    : rect(x, y, w, h, { rx: 10, fill: "#9cc6ea", stroke: "#4a86bf", "stroke-width": 1.5 });
  const cx = lake ? x : x + w / 2;
  const cy = lake ? y - 50 : y + h / 2;
  const words = label.replace(/^the /, "").split(" ");
  const parts = [
    title(`${label}: ${fish} fish of at most ${max}`),
    shape,
    ...words.map((s, i) => text(cx, cy - 34 + i * 14 + (words.length === 1 ? 10 : 0), s,
                                { size: 12, anchor: "middle", weight: "bold", fill: WATER_INK })),
    circle(cx - 11, cy - 1, 6, { fill: GOOD_COLOUR.fish, stroke: "#fff" }),
    text(cx + 1, cy + 4, fish, { size: 14, weight: "bold", fill: WATER_INK }),
    text(cx, cy + 21, `max ${max}`, { size: 11.5, anchor: "middle", fill: WATER_INK }),
  ];
  if (lake) parts.push(legend(cx - 38, cy + 40));
  return el("g", { "data-water": id, "data-fish": fish }, parts);
}

/** What the marks of the land cards mean, inside the Mere. */
function legend(x, y) {
  const items = [
    [rect(x, y - 10, 12, 12, { rx: 2, fill: SQUARE.field, stroke: "#00000066" }), "field"],
    [rect(x, y - 10, 12, 12, { rx: 2, fill: SQUARE.forest, stroke: "#00000066" }), "forest"],
    [rect(x, y - 10, 12, 12, { rx: 2, fill: SQUARE.stone_head, stroke: "#00000066" }), "stone head"],
    [circle(x + 6, y - 4, 3.5, { fill: GOOD_COLOUR.meat, stroke: "#fff" }), "game"],
    [circle(x + 6, y - 4, 6, { fill: "#ffffff", stroke: INK }), "peasant"],
    [circle(x + 6, y - 4, 6, { fill: "#ffffff", stroke: INK, "stroke-width": 2.5 }) + circle(x + 10.5, y - 8.5, 2.6, { fill: INK, stroke: "#fff", "stroke-width": 1.2 }),
     "noble"],
  ];
  return el("g", { "data-component": "legend" }, items.map(([mark, label], i) => {
    const dy = i * 15;
    return el("g", { transform: `translate(0,${dy})` }, [mark, text(x + 17, y, label, { size: 11.5, fill: WATER_INK })]);
  }));
}

function workText(a) {
  const work = Object.entries(a.work || {}).map(([k, n]) => {
    const [kind, arg] = k.split(":");
    return `${WORK[kind] || kind}${arg ? " " + humanise(arg).toLowerCase() : ""} ${n}`;
  });
  const fresh = Object.entries(a.fresh || {}).filter(([, n]) => n).map(([k, n]) => `${k} ${n}`);
  return [work.length ? `work: ${work.join(", ")}` : "", fresh.length ? `fresh: ${fresh.join(", ")}` : ""]
    .filter(Boolean).join("; ");
}

/** ["road", "road", "manor"] -> "Road \u00d72, Manor". */
function buildingList(list) {
  const counts = new Map();
  for (const b of list) counts.set(b, (counts.get(b) || 0) + 1);
  return [...counts].map(([b, n]) => `${humanise(b)}${n > 1 ? ` \u00d7${n}` : ""}`);
}

function land(t, id, L, x, y, w, h) {
  const [name, coast] = LANDS[id];
  const a = L || {};
  const ore = Boolean(a.ore);
  const owner = a.owner;
  const colour = owner === null || owner === undefined ? null : t.colourOf(owner);
  const store = a.store || {};
  const blds = buildingList(a.buildings || []);
  const busy = workText(a);
  const sea = coast === "west_sea" ? "the Western Sea" : "the Eastern Sea";
  const whole = [
    `${id} ${name}: on ${sea}${ore ? ", has ore" : ""}; ${colour ? t.nameOf(owner) : "no one's"}`,
    colour ? `${a.peasants ?? 0} peasant(s), ${a.nobles ?? 0} noble(s)` : null,
    `${a.fields ?? 0} field(s), ${a.forests ?? 0} forest(s), ${a.game ?? 0} game, ${a.stone_heads ?? 0} stone head(s)`,
    `buildings: ${blds.length ? blds.join(", ") : "none"}`,
    `store: ${GOODS.map(([g, label]) => `${label.toLowerCase()} ${store[g] ?? 0}`).join(", ")}`,
    busy || null,
  ].filter(Boolean).join("\n");
  const parts = [title(whole),
                 rect(x, y, w, h, { rx: 7, fill: colour ? "#fbf6e6" : "#efeadb", stroke: colour ? PIECE[colour] : "#9c8b6e",
                                    "stroke-width": colour ? 3 : 1.2 })];
  const span = w - 16;
  // line 1: the area, ore, the owner
  const head = `${id} ${name}`;
  parts.push(text(x + 8, y + 15, head, { size: 13, weight: "bold" }));
  let hx = x + 8 + widthOf(head, 13, true) + 4;
  if (ore) {
    parts.push(el("g", {}, [title("has ore: a mine can be built here"), text(hx, y + 15, "ore", { size: 11.5, fill: MUTED, italic: true })]));
    hx += widthOf("ore", 11.5) + 6;
  }
  parts.push(fitText(x + w - 8, y + 15, colour ? t.nameOf(owner) : "no one's", x + w - 8 - hx,
                     { size: 11.5, anchor: "end", weight: colour ? "bold" : null, fill: colour ? PIECE[colour] : MUTED }));
  // line 2: pieces (peasants, nobles, invaders' nobles), then the squares and the game on them
  const py = y + 27;
  let px = x + 17;
  if (colour) {
    parts.push(el("g", { "data-pieces": "peasants", "data-count": a.peasants ?? 0 }, [
      title(`${a.peasants ?? 0} peasant(s)${a.moved ? `, ${a.moved} moved this phase` : ""}`),
      piece(px, py, colour, a.peasants ?? 0, { r: 9, size: 11.5 }),
    ]));
    px += 22;
    parts.push(el("g", { "data-pieces": "nobles", "data-count": a.nobles ?? 0 }, [
      title(`${a.nobles ?? 0} noble(s)${a.attacked ? `, ${a.attacked} attacked this round` : ""}`),
      piece(px, py, colour, a.nobles ?? 0, { r: 9, size: 11.5, stroke: INK, strokeWidth: 2.5 }),
      circle(px + 7.2, py - 7.2, 2.8, { fill: INK, stroke: "#fff", "stroke-width": 1.2 }),
    ]));
    px += 22;
  }
  for (const [s, n] of Object.entries(a.invaders || {})) {
    if (!n) continue;
    parts.push(el("g", { "data-invaders": s }, [
      title(`${n} noble(s) of ${t.nameOf(Number(s))} moved in this round`),
      piece(px, py, t.colourOf(Number(s)), n, { r: 9, size: 11.5, stroke: INK, strokeWidth: 2.5 }),
      circle(px + 7.2, py - 7.2, 2.8, { fill: INK, stroke: "#fff", "stroke-width": 1.2 }),
    ]));
    px += 22;
  }
  const squares = [];
  for (let i = 0; i < (a.fields ?? 0); i++) squares.push(["field", "a field square"]);
  for (let i = 0; i < (a.forests ?? 0); i++) squares.push(["forest", i < (a.game ?? 0) ? "a forest square with game" : "a forest square", i < (a.game ?? 0)]);
  for (let i = 0; i < (a.stone_heads ?? 0); i++) squares.push(["stone_head", "a stone head"]);
  const gameLabel = `game ${a.game ?? 0}`;
  let qx = px > x + 17 ? px - 4 : x + 8;
  const room = Math.floor((x + w - 8 - widthOf(gameLabel, 11.5) - 6 - qx - 26) / 16);
  const shown = squares.length > room + 1 ? squares.slice(0, Math.max(0, room)) : squares;
  const sq = [];
  for (const [kind, label, dot] of shown) {
    sq.push(el("g", {}, [title(label), rect(qx, py - 6.5, 13, 13, { rx: 2, fill: SQUARE[kind], stroke: "#00000066" }),
                         dot ? circle(qx + 6.5, py, 3.2, { fill: GOOD_COLOUR.meat, stroke: "#fff", "stroke-width": 0.8 }) : ""]));
    qx += 16;
  }
  if (shown.length < squares.length) {
    sq.push(text(qx + 1, py + 4.5, `+${squares.length - shown.length}`, { size: 11.5, weight: "bold" }));
    qx += 26;
  }
  parts.push(el("g", { "data-squares": `${a.fields ?? 0},${a.forests ?? 0},${a.game ?? 0},${a.stone_heads ?? 0}` }, sq));
  parts.push(text(qx + 4, py + 4.5, gameLabel, { size: 11.5, fill: MUTED }));
  // line 3: buildings, and the store at the right
  const ly = y + 49;
  const goods = goodsRow(store, x + w - 8, ly, span - 60, 11.5, "in the store");
  parts.push(blds.length
    ? fitText(x + 8, ly, blds.join(", "), goods.left - x - 8 - 10, { size: 11.5, tip: `buildings: ${blds.join(", ")}` })
    : text(x + 8, ly, "no buildings", { size: 11.5, fill: MUTED }));
  parts.push(goods.svg);
  // line 4: work and fresh food this round
  if (busy) parts.push(fitText(x + 8, y + 64, busy, span, { size: 11.5, fill: MUTED }));
  return el("g", { "data-land": id, "data-owner": owner ?? "" }, parts);
}

/** The three goods of a store as cubes with counts ("food 2"), or with bare counts where the words
 * do not fit `px`; right-aligned to `right`, or from `left`. `.svg`, and `.left` where it starts. */
function goodsRow(store, right, y, px, size, where, left) {
  const items = (words) => GOODS.map(([g]) => (words ? `${SHORT[g]} ` : "") + (store[g] ?? 0));
  const widthOfAll = (strs) => strs.reduce((acc, s) => acc + 14 + widthOf(s, size), 0) + 10 * (strs.length - 1);
  let strs = items(true);
  if (widthOfAll(strs) > px) strs = items(false);
  const total = widthOfAll(strs);
  let gx = left ?? right - total;
  const start = gx;
  const svg = GOODS.map(([g, label], i) => {
    const out = el("g", { "data-good": g, "data-count": store[g] ?? 0 }, [
      title(`${label} ${where}: ${store[g] ?? 0}`),
      rect(gx, y - 9, 10, 10, { rx: 2, fill: GOOD_COLOUR[g], stroke: "#00000077" }),
      text(gx + 13, y, strs[i], { size }),
    ]);
    gx += 14 + widthOf(strs[i], size) + 10;
    return out;
  }).join("");
  return { svg, left: start };
}

// -- the trading board (house rules: the trading board) ------------------------------------------

function tradingBoard(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Trading board")];
  const cw = 116, rh = 25, bx = x + 10, by = y + 42;
  GOODS.forEach(([g, label], c) => {
    const n = (v.board || {})[g] ?? 0;
    const cx = bx + c * (cw + 6);
    const col = [title(`${label}: ${n} on the board`),
                 text(cx + cw / 2, by - 6, label, { size: 11.5, anchor: "middle", weight: "bold" })];
    for (let row = 0; row < 5; row++) {
      const ry = by + (4 - row) * rh;
      col.push(rect(cx, ry, cw, rh - 3, { rx: 3, fill: row === 4 ? "#efe6d2" : "#f8f2e2", stroke: "#9c8b6e" }));
      col.push(text(cx + 5, ry + 16, PRICES[g][row], { size: 12.5, weight: "bold", fill: "#7a5a1a" }));
      for (let k = 0; k < 2; k++) {
        const filled = row * 2 + k < n;
        col.push(rect(cx + 28 + k * 34, ry + 4, 30, rh - 11, { rx: 3, fill: filled ? GOOD_COLOUR[g] : "none",
                                                                stroke: "#00000055", "stroke-dasharray": filled ? null : "3 2" }));
      }
    }
    if (n > 10) {
      col.push(el("g", {}, [title(`+${n - 10} in the top row`),
                            text(cx + cw - 3, by + 16, `+${n - 10}`, { size: 11.5, anchor: "end", weight: "bold" })]));
    }
    parts.push(el("g", { "data-good": g, "data-count": n }, col));
  });
  parts.push(text(bx, by + 5 * rh + 14, "buy the highest filled slot; sell into the lowest free one", { size: 11.5, fill: MUTED }));
  parts.push(fitText(bx, by + 5 * rh + 29, "top row: buys any number, counted as two; balance: middle row half full", w - 20,
                     { size: 11.5, fill: MUTED,
                       tip: "The top row buys any number of goods and counts as two; the balance is the middle row half full" }));
  // slave and mercenary tracks, and this trade's moves
  const tx = bx + 3 * (cw + 6) + 6, tw = x + w - 8 - tx;
  parts.push(el("g", { "data-component": "slave-track" }, [
    text(tx, by + 4, "Slaves", { size: 12, weight: "bold" }),
    text(tx, by + 18, `on offer: ${v.slave_track ?? 0}`, { size: 11.5 }),
    text(tx, by + 32, `price ${SLAVE_PRICE}`, { size: 11.5, fill: MUTED }),
    text(tx, by + 46, `stack: ${v.slaves ?? 0} left`, { size: 11.5, fill: MUTED }),
  ]));
  parts.push(el("g", { "data-component": "mercenary-track" }, [
    text(tx, by + 66, "Mercenaries", { size: 12, weight: "bold" }),
    text(tx, by + 80, `on offer: ${v.mercenary_track ?? 0}`, { size: 11.5 }),
    text(tx, by + 94, `price ${MERCENARY_PRICE}`, { size: 11.5, fill: MUTED }),
  ]));
  const traded = (v.traded || []).map((s) => humanise(String(s).replace(":", " ")));
  if (traded.length) {
    parts.push(text(tx, by + 112, "this trade:", { size: 11.5, fill: MUTED }));
    parts.push(fitText(tx, by + 125, traded.join(", "), tw, { size: 11.5, tip: `this trade: ${traded.join(", ")}` }));
  }
  return group("trading-board", {}, parts);
}

// -- orders and the action tokens (house rules: the round) -------------------------------------

function orders(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Action tokens")];
  let ly = y + 42;
  const revealed = v.orders || {};
  const tokW = 84, tx0 = x + w - 10 - 3 * tokW - 2 * 5;
  for (const p of t.players) {
    const s = p.seat;
    const colour = t.colourOf(s);
    const row = [piece(x + 18, ly - 4, colour, s, { r: 8, size: 11.5 }),
                 fitText(x + 32, ly, t.nameOf(s), tx0 - x - 40, { size: 12, weight: "bold" })];
    const shown = revealed[String(s)];
    let extra = 0;
    if (shown) {
      shown.forEach((a, i) => row.push(token(tx0 + i * (tokW + 5), ly - 14, tokW, a, colour, i === v.step && v.stage === "actions")));
    } else if (t.secrets === s && v.my_orders) {
      const mine = [];
      v.my_orders.forEach((a, i) => mine.push(token(tx0 + i * (tokW + 5), ly - 14, tokW, a, colour, false)));
      mine.push(text(x + 32, ly + 15, "your secret order", { size: 11.5, fill: MUTED, italic: true }));
      row.push(el("g", { "data-component": "my-orders", "data-secret": s }, mine));
      extra = 14;
    } else {
      row.push(text(tx0, ly, p.ordered ? "orders given, face down" : "ordering\u2026", { size: 11.5, fill: MUTED }));
    }
    parts.push(el("g", { "data-seat": s }, row));
    ly += 23 + extra;
  }
  // the mixed queue of this step
  if ((v.queue || []).length && v.stage === "actions") {
    ly += 2;
    parts.push(text(x + 10, ly, `Token ${(v.step ?? 0) + 1}, mixed order:`, { size: 11.5, weight: "bold" }));
    ly += 6;
    const chipW = 88;
    let qx = x + 10;
    v.queue.forEach(([s, a], i) => {
      if (qx + chipW > x + w - 8) { qx = x + 10; ly += 22; }
      const done = i < (v.turn ?? 0), now = i === (v.turn ?? 0);
      const colour = t.colourOf(s);
      parts.push(el("g", { "data-queue": i }, [
        title(`${t.nameOf(s)}: ${ACTIONS[a] || humanise(a)}${done ? " (done)" : now ? " (now)" : ""}`),
        rect(qx, ly, chipW, 19, { rx: 9.5, fill: now ? PIECE[colour] : "#f8f2e2", stroke: PIECE[colour],
                                  "stroke-width": 1.5, opacity: done ? 0.5 : 1 }),
        text(qx + chipW / 2, ly + 14, fitString(`${s}: ${ACTIONS[a] || humanise(a)}`, chipW - 10, 11.5), { size: 11.5, anchor: "middle",
                                                                                      fill: now && colour !== "yellow" ? "#fff" : INK }),
      ]));
      qx += chipW + 6;
    });
    ly += 19 + 16;
  }
  const alerts = [];
  if (v.fighting !== null && v.fighting !== undefined) alerts.push(`${t.nameOf(v.fighting)} fights its battles`);
  if (v.ransom) {
    const r = v.ransom;
    alerts.push(`Ransom in ${r.area}: ${t.nameOf(r.loser)} pays ${t.nameOf(r.winner)} a margin of ${r.margin}`);
  }
  const room = Math.max(1, Math.floor((y + h - 4 - ly) / 15) + 1);
  alerts.forEach((s, i) => {
    if (i >= room) return;
    const last = i === room - 1 && alerts.length > room;
    const str = last ? alerts.slice(i).join("; ") : s;
    parts.push(fitText(x + 10, ly, str, w - 20, { size: 11.5, weight: "bold", fill: "#8a2020" }));
    ly += 15;
  });
  return group("orders", {}, parts);
}

function token(x, y, w, action, colour, now) {
  const label = ACTIONS[action] || humanise(action);
  return el("g", { "data-token": action }, [
    rect(x, y, w, 19, { rx: 9.5, fill: now ? PIECE[colour] : "#fffdf6", stroke: PIECE[colour], "stroke-width": 2 }),
    fitText(x + w / 2, y + 14, label, w - 10, { size: 11.5, anchor: "middle", weight: "bold",
                                                  fill: now && colour !== "yellow" ? "#fff" : INK }),
  ]);
}

// -- the seats: one table, a column a seat (house rules: length and winner) ---------------------

const ROWS = [["Purse", "money in the purse"], ["Lands", "the land areas the seat holds"],
              ["Pieces", "peasants and nobles on the seat's lands"],
              ["Goods", "preserved food, salt and arms and armour in the stores of the seat's lands"],
              ["Buildings", "buildings and stone heads on the seat's lands"],
              ["Wealth", "money + nobles + peasants + buildings"]];

function playerBoards(t, x, y, w, h) {
  const n = Math.max(1, t.players.length);
  const labelW = 84, cx0 = x + labelW + 4, cw = (x + w - 4 - cx0) / n;
  const rowY = (i) => y + 44 + i * 17;
  const parts = [rect(x, y, w, h, { rx: 8, fill: "#fbf6ea", stroke: "#9c8b6e", "stroke-width": 1.5 }),
                 text(x + 10, y + 20, "Players", { size: 13.5, weight: "bold" })];
  ROWS.forEach(([label, tip], i) => {
    parts.push(el("g", {}, [title(tip), text(x + 10, rowY(i), label, { size: 12, weight: "bold" })]));
    if (i) parts.push(line(x + 6, rowY(i) - 12.5, x + w - 6, rowY(i) - 12.5, { stroke: "#e2d8c2" }));
  });
  const costs = Object.entries(WEALTH).filter(([k]) => k !== "noble" && k !== "peasant")
    .map(([k, n]) => `${humanise(k).toLowerCase()} ${n}`).join(", ");
  parts.push(fitText(x + 10, y + h - 10,
    `Wealth = money + ${WEALTH.noble} a noble + ${WEALTH.peasant} a peasant + buildings (${costs})`, w - 20,
    { size: 11.5, fill: MUTED }));
  t.players.forEach((p, i) => parts.push(playerBoard(t, p, cx0 + i * cw, y, cw, h, rowY)));
  return group("player-boards", {}, parts);
}

/** A seat's wealth as the view shows it (house rule "wealth-wins", docs/house-rules.md, Resource
 * Hog): the final count once the game has one, else counted now from the view:
 * {money, nobles, peasants, buildings, total} (each in money). `v`: the game's view object. */
export function wealthOf(v, seat) {
  const final = (v.final?.breakdown || [])[seat];
  if (final) return final;
  const lands = Object.values(v.lands || {}).filter((a) => a && a.owner === seat);
  const sum = (k) => lands.reduce((acc, a) => acc + (a[k] || 0), 0);
  const built = lands.flatMap((a) => a.buildings || []).reduce((acc, b) => acc + (WEALTH[b] || 0), 0) +
    WEALTH.stone_head * sum("stone_heads");
  const player = (v.players || []).find((p) => p && p.seat === seat) || {};
  const live = { money: player.money || 0, nobles: WEALTH.noble * sum("nobles"), peasants: WEALTH.peasant * sum("peasants"),
                 buildings: built };
  live.total = live.money + live.nobles + live.peasants + live.buildings;
  return live;
}

/** The score column of the table and replay pages: each seat's wealth, the count that wins. */
export function scores(view) {
  const v = inner(view);
  return { label: "Wealth", values: (v.players || []).map((p, i) => wealthOf(v, p?.seat ?? i).total) };
}

function playerBoard(t, p, x, y, w, h, rowY) {
  const v = t.v;
  const s = p.seat;
  const colour = t.colourOf(s);
  const ink = colour === "yellow" ? INK : "#fff";
  const mine = t.seat === s;
  const lands = Object.values(v.lands || {}).filter((a) => a && a.owner === s);
  const sum = (k) => lands.reduce((acc, a) => acc + (a[k] || 0), 0);
  const peasants = sum("peasants"), nobles = sum("nobles");
  const buildings = lands.flatMap((a) => a.buildings || []);
  const stoneHeads = sum("stone_heads");
  const money = p.money || 0;
  const final = (v.final?.breakdown || [])[s];
  const score = wealthOf(v, s);
  const store = Object.fromEntries(GOODS.map(([g]) => [g, lands.reduce((acc, a) => acc + ((a.store || {})[g] || 0), 0)]));
  const toMove = toMoveOf(v, t.ctx).includes(s) && !final;
  const cellW = w - 12;
  const parts = [
    rect(x + 2, y + 4, w - 4, h - 26, { rx: 6, fill: mine ? "#fffdf4" : "none", stroke: mine ? PIECE[colour] : "none",
                                        "stroke-width": mine ? 2.5 : 0 }),
    rect(x + 2, y + 4, w - 4, 22, { rx: 6, fill: PIECE[colour] }),
    fitText(x + 8, y + 20, `${toMove ? "\u25b6 " : ""}${t.nameOf(s)} \u00b7 ${colour}`, cellW,
            { size: 12.5, weight: "bold", fill: ink, tip: `${t.nameOf(s)}, ${colour}${toMove ? ", to move" : ""}` }),
  ];
  const cell = (i, str, o = {}) => parts.push(fitText(x + 8, rowY(i), str, cellW, { size: 12, ...o }));
  cell(0, `${money} money`);
  const named = lands.map((a) => `${a.id} ${LANDS[a.id]?.[0] || ""}`.trim());
  const ids = lands.map((a) => a.id);
  const landStr = !lands.length ? "none"
    : widthOf(named.join(", "), 12) <= cellW ? named.join(", ") : ids.join(", ");
  cell(1, landStr, { tip: lands.length ? named.join(", ") : null, fill: lands.length ? INK : MUTED });
  cell(2, `${peasants} peasant(s), ${nobles} noble(s)`);
  const goods = goodsRow(store, null, rowY(3), cellW, 12, "in the stores of its lands", x + 8);
  parts.push(goods.svg);
  const blds = [...buildingList(buildings), ...(stoneHeads ? [`${stoneHeads} stone head(s)`] : [])];
  cell(4, blds.length ? blds.join(", ") : "none", { fill: blds.length ? INK : MUTED,
                                                     tip: blds.length ? `buildings: ${blds.join(", ")}` : null });
  const parts2 = `money ${score.money} + nobles ${score.nobles} + peasants ${score.peasants} + buildings ${score.buildings}`;
  const totalStr = `${score.total}${final ? " final" : ""}`;
  const tw = widthOf(totalStr, 12.5, true) + 8;
  parts.push(el("g", { "data-component": "score", "data-wealth": score.total }, [
    title(`wealth ${score.total}${final ? " (final)" : ""} = ${parts2}`),
    text(x + 8, rowY(5), totalStr, { size: 12.5, weight: "bold" }),
    fitText(x + 8 + tw, rowY(5), `= ${score.money} + ${score.nobles} + ${score.peasants} + ${score.buildings}`, cellW - tw,
            { size: 12, fill: MUTED }),
  ]));
  return el("g", { "data-component": "player-board", "data-seat": s, "data-colour": colour }, parts);
}
