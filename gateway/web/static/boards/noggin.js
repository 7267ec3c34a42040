// The table of "Tales of the Northlands: The Sagas of Noggin the Nog", drawn from a player view.
//
// render(view, ctx) -> SVG string (README.md in this folder gives the interface). The layout
// follows the rulebook (noggin-the-nog-rulebook.txt): the Central Wheel of 3.1 (season in the
// inner circle, the Rune ring with the Runestone, the Step track of 10 spaces with the Nog Moon
// at the top and the Step markers, 4.1-4.3); Noggin's popularity track with the crown between
// Nogbad's Crow on the left and Noggin's Dragon on the right (set-up I, J; 3.5); Nogbad's Wheel
// of Infamy (8.0); the action spaces (5.0-5.6, 6.0); the Mine grid of two rows of three tiles
// with the row above it (set-up Q, R; 5.1); the forest trail of ten clearings walked
// counter-clockwise (5.3); the fjord (5.2, set-up L); the Nog Market with its exchange rate
// (6.6, 8.0); the two rows of Building tiles and the transport piles (set-up F, 5.5); Noggin's
// Castle and the characters (set-up D, 6.1); the Saga cards with their Harbourside Reserve card
// (6.4), the Invention cards (6.5), the Counting House card and its auction (6.3); and one
// player board per seat (3.8: Farm, Mountains, Fields, Orchard, Meadow, transports). Dummy
// players (set-up E) have a Step marker only. The seat's own Friend or Foe card (variants) is
// drawn in its own view alone, marked data-secret. The house rules the view follows are in
// docs/house-rules.md (Noggin the Nog).

import {
  H, INK, MUTED, PIECE, W, circle, clip, cube, el, esc, grid, group, humanise, inner, line, lines, panel, path,
  piece, rect, outcomeOf, seatLabel, secretsOf, statusLine, svgDoc, toMoveOf, text, title, wrap,
} from "./svg.js";

const SEASONS = ["Spring", "Summer", "Autumn", "Winter"];
const ACTIONS = [
  ["miner", "Miner"], ["fisherman", "Fisherman"], ["woodcutter", "Woodcutter"], ["farmer", "Farmer"],
  ["builder", "Builder"], ["restock", "Restock"], ["market_day", "Market Day"],
];
const CUBE = { stone: "#9a9a9a", wood: "#8a5a2b", fish: "#3b7dd8", harvest: "#e8c21a", gold: "#f2b705", coin: "#c0c0c0" };
const RESOURCE = { stone: "Stone", wood: "Wood", fish: "Fish", harvest: "Harvest", gold: "Gold", coin: "Coins", food: "Food" };
const CHARACTERS = {
  noggin: "Noggin", nooka: "Nooka", knut: "Knut", graculus: "Graculus", thor: "Thor Nogson", olaf: "Olaf", romf: "Romf",
};
const WHEEL = ["Sabotage Fishing Nets", "Trouble at Home", "Bears in the Woods", "Bad News"];
const BUILDINGS = {
  fish_smokery: "Fish Smokery", granary: "Granary", long_house: "Long House", lookout_tower: "Lookout Tower",
  new_land: "New Land", woodcutters_hut: "Woodcutters' Hut", blacksmith: "Blacksmith", goldsmith: "Goldsmith",
  hillside_farm: "Hillside Farm", inventors_workshop: "Inventor's Workshop", knuts_seat: "Knut's Seat",
  merchant: "Merchant", nookas_kitchen_garden: "Nooka's Kitchen Garden",
  omruds_ornamental_garden: "Omruds' Ornamental Garden", royal_dungeon: "Royal Dungeon",
  royal_horse_trough: "Royal Horse Trough", royal_kitchens: "Royal Kitchens", seers_tower: "Seer's Tower",
  town_walls: "Town Walls", windmill: "Windmill",
};
const INVENTIONS = {
  cupola_clock: "Cupola Clock", econogology: "EcoNogology", firecake: "Firecake", fire_machine: "Fire Machine",
  flying_boat: "Flying Boat", grottophoneum: "Grottophoneum", heated_storkery: "Heated Storkery",
  hnefetfl: "Hnefetfl", potion: "Potion", trouser_press: "Trouser Press", weather_balloon: "Weather Balloon",
};
const COUNTING_HOUSE = {
  birds_crown: "Bird's Crown", butterfly_net: "Butterfly Net", coral_necklace: "Coral Necklace",
  darkness_tome: "Darkness Tome", fireworks: "Fireworks", good_genie: "Good Genie", honey_and_mead: "Honey & Mead",
  knuts_carriage: "Knut's Carriage", moon_stone: "Moon Stone", nookas_knife: "Nooka's Knife",
  ring_of_nudrug: "Ring of Nudrug", roman_medal: "Roman Medal", silver_gong: "Silver Gong", telescope: "Telescope",
  war_banner: "War Banner",
};
const TRANSPORTS = [["mine_cart", "Mine cart"], ["wood_cart", "Wood cart"], ["boat", "Fishing boat"]];
const SPACES = { mountains: "Mountains", field0: "Field 1", field1: "Field 2", orchard: "Orchard", meadow: "Meadow",
                 new_land: "New Land", beside: "beside the board" };
const PENDING = {
  bid: "a bid in the Counting House auction", keep_card: "the auction's winner to place the card",
  knut: "Knut's order of the Reserve cards", seers_tower: "the Seer's Tower", fireworks: "the Fireworks",
  draw_reserve: "the choice of the next Reserve deck", fishing_tokens: "the Coral Necklace",
};

const name = (table, id) => table[id] || humanise(id);
const resName = (id) => RESOURCE[id] || CHARACTERS[id] || humanise(id);

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
  // two columns under the header (the wheels and tracks; the places of the Nogs' actions), the
  // player boards two a row, then the castle, Saga, Invention and Counting House cards
  const R = 398, RW = W - 10 - R, top = 60;
  const boards = grid(Math.max(1, players.length), 10, top + 524, W - 20, 236);
  const cards = boards.bottom + 8, half = (W - 28) / 2;
  return svgDoc(heading, [
    header(t, heading),
    centralWheel(t, 10, top, 380, 318),
    popularity(t, 10, top + 324, 380, 88),
    wheelOfInfamy(t, 10, top + 418, 380, 98),
    actionSpaces(t, R, top, RW, 122),
    mine(t, R, top + 128, 250, 196),
    forest(t, R + 256, top + 128, RW - 256, 196),
    fjord(t, R, top + 330, 140, 88),
    market(t, R + 146, top + 330, RW - 146, 88),
    buildingRows(t, R, top + 424, RW, 92),
    playerBoards(t, boards),
    castle(t, 10, cards, half, 80),
    sagas(t, 10, cards + 86, half, 220),
    inventionCards(t, 18 + half, cards, half, 150),
    countingHouse(t, 18 + half, cards + 156, half, 150),
  ], { game: "noggin", seat, height: cards + 316 });
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
    text(12, 26, heading, { size: 19, weight: "bold" }),
    text(W - 12, 26, when, { size: 13, anchor: "end", weight: "bold" }),
    text(12, 48, clip([active, status].filter(Boolean).join(" \u00b7 "), 130), { size: 12, fill: MUTED }),
  ]);
}

// -- the Central Wheel (3.1, 4.1-4.3) ---------------------------------------------------------

function centralWheel(t, x, y, w, h) {
  const v = t.v;
  const cx = x + w / 2, cy = y + 22 + (h - 22) / 2, R = Math.min(w, h - 22) / 2 - 6;
  const rStep = R, rRune = R - 40, rSeason = R - 72;
  const seasonStart = 10 * ((v.season || 1) - 1);
  const parts = [panel(x, y, w, h, "The Central Wheel")];
  parts.push(circle(cx, cy, rStep, { fill: "#d9c9a3", stroke: "#6b5a3a", "stroke-width": 2 }));
  parts.push(circle(cx, cy, rRune + 8, { fill: "#c4b28a", stroke: "#6b5a3a" }));
  parts.push(circle(cx, cy, rSeason, { fill: "#f3ead2", stroke: "#6b5a3a" }));
  const angle = (space) => -Math.PI / 2 + (space * 2 * Math.PI) / 10;
  const runeSpace = v.runestone !== undefined ? (v.runestone - seasonStart + 100) % 10 : null;
  for (let s = 0; s < 10; s++) {
    const a0 = angle(s - 0.5);
    parts.push(line(cx + (rRune + 8) * Math.cos(a0), cy + (rRune + 8) * Math.sin(a0),
                    cx + rStep * Math.cos(a0), cy + rStep * Math.sin(a0), { stroke: "#6b5a3a" }));
    const a = angle(s);
    const rx = cx + (rRune - 8) * Math.cos(a), ry = cy + (rRune - 8) * Math.sin(a);
    if (s !== runeSpace) { // the Runestone covers its space's mark
      parts.push(text(rx, ry + 4, s === 0 ? "\u263e" : s, { size: s === 0 ? 15 : 11, anchor: "middle", fill: "#5a4a2a" }));
    }
  }
  // the Nog Moon (space 0, top)
  parts.push(text(cx, cy - rStep - 4, "Nog Moon", { size: 11, anchor: "middle", fill: MUTED }));
  // Runestone on the Rune ring
  if (v.runestone !== undefined) {
    const a = angle((v.runestone - seasonStart + 100) % 10);
    const rx = cx + (rRune - 8) * Math.cos(a), ry = cy + (rRune - 8) * Math.sin(a);
    parts.push(group("runestone", { "data-space": (v.runestone - seasonStart) }, [
      rect(rx - 10, ry - 10, 20, 20, { rx: 4, fill: "#7d7d7d", stroke: INK, "stroke-width": 1.5 }),
      text(rx, ry + 4, "R", { size: 12, anchor: "middle", weight: "bold", fill: "#fff" }),
      title(`Runestone: space ${v.runestone - seasonStart} of the Rune ring`),
    ]));
  }
  // Step markers on the Step track, stacked outward-in when they share a space
  const bySpace = {};
  for (const m of v.markers || []) {
    const space = ((m.pos - seasonStart) % 10 + 10) % 10;
    (bySpace[space] = bySpace[space] || []).push(m);
  }
  const markers = [];
  for (const [space, ms] of Object.entries(bySpace)) {
    const a = angle(Number(space));
    ms.forEach((m, k) => {
      const along = (k - (ms.length - 1) / 2) * 0.17;
      const r = rStep - 20;
      const mx = cx + r * Math.cos(a + along), my = cy + r * Math.sin(a + along);
      const label = m.dummy || m.seat === null ? "D" : String(m.seat);
      const who = m.dummy || m.seat === null ? `dummy player (${m.colour})` : t.nameOf(m.seat);
      const active = v.active === m.marker;
      markers.push(el("g", { "data-marker": m.marker, "data-seat": m.seat ?? "dummy" }, [
        active ? circle(mx, my, 15, { fill: "none", stroke: INK, "stroke-width": 2.5, "stroke-dasharray": "3 2" }) : "",
        piece(mx, my, m.colour, label, { r: 11, size: 12 }),
        title(`Step marker of ${who}: space ${space}${active ? " (active player)" : ""}`),
      ]));
    });
  }
  parts.push(group("step-markers", {}, markers));
  const season = v.season || 1;
  parts.push(text(cx, cy - 12, SEASONS[(season - 1) % 4], { size: 17, anchor: "middle", weight: "bold" }));
  parts.push(text(cx, cy + 6, `Season ${season} of 8`, { size: 12, anchor: "middle" }));
  parts.push(text(cx, cy + 22, `Year ${season > 4 ? 2 : 1}`, { size: 12, anchor: "middle", fill: MUTED }));
  return group("central-wheel", {}, parts);
}

// -- Noggin's popularity track (3.5, set-up I, J) -----------------------------------------------

function popularity(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Popularity track")];
  const cx = x + w / 2, ty = y + 50, step = 19;
  const span = 9;
  for (let i = 1; i <= span; i++) {
    parts.push(rect(cx - i * step - 8, ty - 8, 16, 16, { fill: "#e7d3d3", stroke: "#8a6b6b", rx: 2 }));
    parts.push(rect(cx + i * step - 8, ty - 8, 16, 16, { fill: "#d5e6d0", stroke: "#6b8a6b", rx: 2 }));
  }
  if (v.crow !== 0 && v.dragon !== 0) { // a marker on the crown covers it
    parts.push(text(cx, ty + 7, "\u265b", { size: 22, anchor: "middle", fill: "#b8860b" }));
  }
  parts.push(text(cx, ty - 15, "crown", { size: 11, anchor: "middle", fill: MUTED }));
  parts.push(text(x + 10, y + h - 8, "\u2190 Nogbad's Crow", { size: 11, fill: "#8a3a3a" }));
  parts.push(text(x + w - 10, y + h - 8, "Noggin's Dragon \u2192", { size: 11, anchor: "end", fill: "#2f6b2f" }));
  if (v.crow !== undefined) {
    const px = cx - Math.min(v.crow, span + 1) * step;
    parts.push(group("crow", { "data-distance": v.crow }, [
      circle(px, ty, 9, { fill: "#222" }), text(px, ty + 4, "C", { size: 11, anchor: "middle", fill: "#fff", weight: "bold" }),
      title(`Nogbad's Crow: ${v.crow} space(s) from the crown`),
    ]));
  }
  if (v.dragon !== undefined) {
    const px = cx + Math.min(v.dragon, span + 1) * step;
    parts.push(group("dragon", { "data-distance": v.dragon }, [
      circle(px, ty, 9, { fill: "#3f9142" }), text(px, ty + 4, "D", { size: 11, anchor: "middle", fill: "#fff", weight: "bold" }),
      title(`Noggin's Dragon: ${v.dragon} space(s) from the crown`),
    ]));
  }
  parts.push(text(x + w - 10, y + 19, `Crow ${v.crow ?? "?"} from the crown, Dragon ${v.dragon ?? "?"}`,
                  { size: 11, anchor: "end", fill: MUTED }));
  return group("popularity-track", {}, parts);
}

// -- Nogbad's Wheel of Infamy (8.0) ----------------------------------------------------------

function wheelOfInfamy(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Nogbad's Wheel of Infamy")];
  const cx = x + 50, cy = y + 60, r = 32;
  for (let q = 0; q < 4; q++) {
    const a0 = -Math.PI / 2 + (q * Math.PI) / 2, a1 = a0 + Math.PI / 2;
    const on = v.wheel === q;
    parts.push(path(`M${cx},${cy} L${cx + r * Math.cos(a0)},${cy + r * Math.sin(a0)} A${r},${r} 0 0 1 ${cx + r * Math.cos(a1)},${cy + r * Math.sin(a1)} Z`,
      { fill: on ? "#c8372d" : "#e7d3d3", stroke: "#6b3a3a" }));
    const am = (a0 + a1) / 2;
    parts.push(text(cx + r * 0.55 * Math.cos(am), cy + r * 0.55 * Math.sin(am) + 4, q + 1,
                    { size: 11, anchor: "middle", weight: "bold", fill: on ? "#fff" : INK }));
  }
  WHEEL.forEach((label, q) => {
    const on = v.wheel === q;
    parts.push(text(x + 100, y + 36 + q * 14, `${q + 1}: ${label}${on ? "  \u25c0 the Crow" : ""}`,
                    { size: 12, weight: on ? "bold" : null, fill: on ? "#8a2020" : INK }));
  });
  let where = "in his castle";
  if (v.nogbad === "active") {
    const space = ACTIONS.find(([id]) => id === v.nogbad_space);
    where = `active, blocking ${space ? space[1] : humanise(v.nogbad_space)}`;
  } else if (v.nogbad === "dungeon") {
    where = `in the Royal Dungeon${v.gaoler !== null && v.gaoler !== undefined ? `, guarded by ${t.nameOf(v.gaoler)}` : ""}`;
  }
  parts.push(text(x + 100, y + h - 7, `Nogbad: ${where}`, { size: 12, weight: "bold",
                                                             fill: v.nogbad === "active" ? "#8a2020" : INK }));
  return group("wheel-of-infamy", { "data-quarter": v.wheel, "data-nogbad": v.nogbad }, parts);
}

// -- the action spaces (5.0-5.6, 6.0) ----------------------------------------------------------

function actionSpaces(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Action spaces")];
  parts.push(text(x + w - 10, y + 19, "Nogs placed this season", { size: 11, anchor: "end", fill: MUTED }));
  const perRow = 4, bw = (w - 16) / perRow, bh = (h - 34) / 2;
  ACTIONS.forEach(([id, label], i) => {
    const bx = x + 8 + (i % perRow) * bw, by = y + 26 + Math.floor(i / perRow) * bh;
    const blocked = v.nogbad === "active" && v.nogbad_space === id;
    const current = v.action && v.action.kind === id;
    const cell = [rect(bx + 2, by + 2, bw - 4, bh - 4, {
      rx: 5, fill: blocked ? "#f1d0cc" : current ? "#fff4c2" : "#f3ead2",
      stroke: current ? INK : "#9c8b6e", "stroke-width": current ? 2 : 1,
    })];
    cell.push(text(bx + 9, by + 17, label, { size: 12, weight: "bold" }));
    let px = bx + 16;
    for (const p of t.players) {
      const n = p.placed?.[id] || 0;
      if (!n) continue;
      cell.push(el("g", { "data-seat": p.seat, "data-nogs": n }, [
        piece(px, by + bh - 14, p.colour, n, { r: 8, size: 10 }),
        title(`${t.nameOf(p.seat)}: ${n} Nog(s) on ${label}; used ${p.uses?.[id] || 0} time(s) this season`),
      ]));
      px += 20;
    }
    const chars = Object.entries(v.characters || {}).filter(([, where]) => where === `action:${id}`).map(([c]) => name(CHARACTERS, c));
    if (chars.length) cell.push(text(bx + bw - 8, by + bh - 10, chars.join(", "), { size: 10, anchor: "end" }));
    if (current) cell.push(title(`${label}: the action being carried out`));
    if (blocked) {
      cell.push(circle(bx + bw - 16, by + bh - 14, 9, { fill: "#555" }));
      cell.push(text(bx + bw - 16, by + bh - 10, "N", { size: 11, anchor: "middle", fill: "#fff", weight: "bold" }));
      cell.push(title(`Nogbad blocks ${label}`));
    }
    parts.push(el("g", { "data-action": id, "data-blocked": blocked ? "true" : null }, cell));
  });
  const bx = x + 8 + 3 * bw, by = y + 26 + bh;
  parts.push(lines(bx + 8, by + 14, ["Repeating an action", "takes 1 more Nog;", "Market Day just 1"], { size: 10, fill: MUTED, gap: 12 }));
  return group("action-spaces", {}, parts);
}

// -- the Mine (set-up Q-S, 5.1) ------------------------------------------------------------------

function mine(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "The Mine")];
  const m = v.mine_map;
  if (!m) {
    parts.push(text(x + 10, y + 44, "No Mine tile yet", { size: 12, fill: MUTED }));
    return group("mine", {}, parts);
  }
  const cols = m.width || 12, rows = (m.depth || 8) + 1;
  const cs = Math.min((w - 16) / cols, (h - 68) / rows);
  const gx = x + (w - cols * cs) / 2, gy = y + 28;
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
      text(px, py + 3.5, "M", { size: cs * 0.6, anchor: "middle", fill: "#fff", weight: "bold" }),
      title(`the Miner, square [${m.miner[0]}, ${m.miner[1]}]`),
    ]));
  }
  parts.push(el("g", {}, cells));
  const ly = gy + rows * cs + 14;
  const legend = [["stone", "Stone"], ["gold", "Gold"], ["empty", "gallery"], ["rock", "rock"]];
  legend.forEach(([k, label], i) => {
    parts.push(rect(x + 10 + i * 50, ly - 9, 10, 10, { fill: fill[k], stroke: "#00000055" }));
    parts.push(text(x + 23 + i * 50, ly, label, { size: 10 }));
  });
  parts.push(text(x + 10, ly + 15, `Gold cubes left: ${v.gold_supply ?? 0} \u00b7 free slots: ${(m.free_slots || []).length}`,
                  { size: 10, fill: MUTED }));
  return group("mine", {}, parts);
}

// -- the forest trail (5.3, set-up H) ----------------------------------------------------------

function forest(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Forest trail")];
  const trail = v.forest_trail || [];
  const cx = x + w / 2, cy = y + 24 + (h - 44) / 2, R = Math.min(w, h - 44) / 2 - 14; // the caption below
  const n = trail.length || 10;
  // counter-clockwise from the top: the Woodcutter's direction (5.3)
  const at = (i) => -Math.PI / 2 - (i * 2 * Math.PI) / n;
  const zones = {};
  trail.forEach((c, i) => { (zones[c.zone] = zones[c.zone] || []).push(i); });
  for (const [zone, idx] of Object.entries(zones)) {
    const a = (at(idx[0]) + at(idx[idx.length - 1])) / 2;
    const zx = cx + R * 0.52 * Math.cos(a), zy = cy + R * 0.52 * Math.sin(a);
    const trees = v.forest ? v.forest[zone] : trail[idx[0]].trees;
    parts.push(el("g", { "data-zone": zone }, [
      path(hexagon(zx, zy, 17), { fill: "#3f7f3a", stroke: "#234d20" }),
      text(zx, zy + 5, trees, { size: 14, anchor: "middle", fill: "#fff", weight: "bold" }),
      title(`forest zone ${Number(zone) + 1}: ${trees} tree(s)`),
    ]));
  }
  trail.forEach((c, i) => {
    const a = at(i), px = cx + R * Math.cos(a), py = cy + R * Math.sin(a);
    const here = v.woodcutter === i;
    const next = v.woodcutter_next && v.woodcutter_next.clearing === c.clearing;
    parts.push(el("g", { "data-clearing": c.clearing }, [
      circle(px, py, 11, { fill: here ? "#8a5a2b" : "#e8dcb8", stroke: next ? "#c8372d" : "#6b5a3a",
                           "stroke-width": next ? 2.5 : 1 }),
      text(px, py + 4, c.number, { size: 12, anchor: "middle", weight: "bold", fill: here ? "#fff" : INK }),
      title(`clearing ${c.clearing + 1}: cut ${c.number} tree(s)${here ? "; the Woodcutter is here" : ""}${next ? "; his next clearing" : ""}`),
    ]));
  });
  const start = v.woodcutter === -1 || v.woodcutter === undefined;
  parts.push(text(x + 8, y + h - 8, start ? "Woodcutter on his starting space" : `Woodcutter in clearing ${v.woodcutter + 1}`,
                  { size: 10, fill: MUTED }));
  parts.push(text(x + w - 8, y + 19, "\u21ba", { size: 15, anchor: "end", fill: MUTED }));
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
  return group("fjord", { "data-fish": v.fjord }, [
    panel(x, y, w, h, "The fjord", { fill: "#d7e8f5" }),
    path(`M${x + 8},${y + 50} q15,-10 30,0 t30,0 t30,0 t30,0`, { fill: "none", stroke: "#3b7dd8", "stroke-width": 2 }),
    cube(x + 12, y + 72, CUBE.fish, `${v.fjord ?? 0} Fish`, { textSize: 14, weight: "bold" }),
    blocked ? text(x + w - 8, y + 19, "Nogbad!", { size: 11, anchor: "end", fill: "#8a2020", weight: "bold" }) : "",
  ]);
}

function market(t, x, y, w, h) {
  const v = t.v;
  const mk = v.market || {};
  const parts = [panel(x, y, w, h, "The Nog Market")];
  const goods = ["stone", "wood", "fish", "harvest", "gold"].concat(v.coins ? ["coin"] : []);
  goods.forEach((g, i) => {
    const gx = x + 10 + (i % 3) * 88, gy = y + 44 + Math.floor(i / 3) * 20;
    parts.push(el("g", { "data-resource": g }, cube(gx, gy, CUBE[g], `${RESOURCE[g]} ${mk[g] ?? 0}`)));
  });
  const rate = v.exchange_rate || 2;
  parts.push(text(x + w - 10, y + 19, `Exchange ${rate}:1`, { size: 12, anchor: "end", weight: "bold", fill: rate > 2 ? "#8a2020" : INK }));
  parts.push(rate > 2
    ? text(x + 10, y + h - 6, "Bad News: Nogbad at the Market, exchange 3:1", { size: 10, weight: "bold", fill: "#8a2020" })
    : text(x + 10, y + h - 6, "Discover needs 9 Stone here; Restock takes 4, 8 or 12", { size: 10, fill: MUTED }));
  return group("market", { "data-rate": rate }, parts);
}

// -- Building tiles and transports (set-up F, 5.5, 7.1) -------------------------------------------

function buildingRows(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Buildings")];
  const rows = v.rows || {};
  const n = Math.max(3, (rows.top || []).length, (rows.bottom || []).length);
  const tw = Math.min(110, (w - 68 - 4 * n) / n);
  [["top", "Top row"], ["bottom", "Bottom row (to build)"]].forEach(([k, label], r) => {
    const ry = y + 28 + r * 24;
    parts.push(text(x + 10, ry + 13, r ? "Bottom" : "Top", { size: 11, weight: "bold" }));
    (rows[k] || []).forEach((b, i) => {
      const bx = x + 58 + i * (tw + 4);
      parts.push(el("g", { "data-row": k, "data-building": b || "" }, [
        rect(bx, ry, tw, 19, { rx: 3, fill: b ? (r ? "#f6e2b3" : "#efe6d2") : "none", stroke: "#9c8b6e",
                                "stroke-dasharray": b ? null : "3 2" }),
        text(bx + tw / 2, ry + 13, b ? clip(name(BUILDINGS, b), Math.floor(tw / 6)) : "taken", { size: 10.5, anchor: "middle",
                                                                                 fill: b ? INK : MUTED }),
        title(b ? name(BUILDINGS, b) : "taken this season"),
      ]));
    });
  });
  const pile = v.year1_pile || [];
  const tp = v.transport_piles || {};
  const info = [
    `Transport tiles: ${TRANSPORTS.map(([id, label]) => `${label} ${tp[id] ?? 0}`).join(", ")}`,
    pile.length ? `Year 1 pile: ${pile.length}` : `Season ${(v.season || 1) <= 4 ? "1-4: Year 1 tiles" : "5-8: Year 2 tiles"}`,
  ];
  parts.push(text(x + 10, y + h - 8, info.join(" \u00b7 "), { size: 10, fill: MUTED }));
  return group("buildings", {}, parts);
}

// -- Noggin's Castle and the characters (set-up D, 6.1) -----------------------------------------

function castle(t, x, y, w, h) {
  const v = t.v;
  const where = v.characters || {};
  const parts = [panel(x, y, w, h, "Noggin's Castle")];
  const chars = Object.keys(CHARACTERS);
  const home = chars.filter((c) => where[c] === "castle").length;
  parts.push(text(x + w - 10, y + 19, `${home} of 7 characters at home`, { size: 11, anchor: "end", fill: MUTED }));
  const widths = chars.map((c) => CHARACTERS[c].length * 6.6 + 12);
  const spare = (w - 20 - widths.reduce((a, b) => a + b, 0)) / (chars.length - 1);
  let cx = x + 10;
  const away = {};
  chars.forEach((c, i) => {
    const at = where[c];
    const inside = at === "castle";
    if (at && !inside) (away[at] = away[at] || []).push(CHARACTERS[c]);
    parts.push(el("g", { "data-character": c, "data-where": at || "" }, [
      rect(cx, y + 28, widths[i], 22, { rx: 11, fill: inside ? "#f6e2b3" : "none", stroke: "#9c8b6e",
                                         "stroke-dasharray": inside ? null : "3 2" }),
      text(cx + widths[i] / 2, y + 43, CHARACTERS[c], { size: 11, anchor: "middle", fill: inside ? INK : MUTED }),
      title(`${CHARACTERS[c]}: ${inside ? "in Noggin's Castle" : whereName(v, at)}`),
    ]));
    cx += widths[i] + spare;
  });
  const awayText = Object.entries(away).map(([at, names]) => `${names.join(" and ")} on ${whereName(v, at)}`).join("; ");
  if (awayText) parts.push(text(x + 10, y + h - 10, clip(`Away: ${awayText}`, 66), { size: 11, fill: MUTED }));
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
  const parts = [panel(x, y, w, h, "Saga cards")];
  const done = (v.sagas_done || []).length;
  const rd = v.reserve || {};
  const deckText = ["A", "B", "C"].map((d) => `${d} ${deckLeft(rd[d])}`).join(", ");
  parts.push(text(x + w - 10, y + 19, `Sagas completed: ${done} \u00b7 Reserve decks: ${deckText}`,
                  { size: 11, anchor: "end", fill: MUTED }));
  const cw = (w - 24) / 2;
  (v.sagas || [null, null]).slice(0, 2).forEach((s, i) => {
    parts.push(sagaCard(t, s, (v.saga_cards || [])[i], i, x + 8 + i * (cw + 8), y + 28, cw, h - 36));
  });
  return group("sagas", {}, parts);
}

function deckLeft(d) {
  if (!d) return "?";
  return Math.max(0, (d.size ?? 0) - (d.top ?? 0) - (d.bottom ?? 0) - (d.discard ?? 0));
}

function sagaCard(t, s, card, slot, x, y, w, h) {
  const v = t.v;
  if (!s) {
    return el("g", { "data-saga": slot }, [rect(x, y, w, h, { rx: 6, fill: "none", stroke: "#9c8b6e", "stroke-dasharray": "4 3" }),
                                           text(x + w / 2, y + h / 2, "no Saga card", { size: 12, anchor: "middle", fill: MUTED })]);
  }
  const parts = [rect(x, y, w, h, { rx: 6, fill: "#f7eed8", stroke: "#7a6a4a", "stroke-width": 1.5 })];
  const nameText = card?.name || humanise(s.card);
  parts.push(circle(x + 14, y + 14, 10, { fill: "#e8c21a", stroke: "#7a6a4a" }));
  parts.push(text(x + 14, y + 18, s.needed, { size: 12, anchor: "middle", weight: "bold" }));
  parts.push(text(x + 30, y + 18, clip(nameText, 26), { size: 13, weight: "bold" }));
  parts.push(title(`${nameText}: ${s.needed} Reserve card(s) to complete${card?.money ? " (the Money Saga)" : ""}`));
  let ly = y + 38;
  parts.push(text(x + 8, ly, `Reserve cards done: ${(s.done || []).length} of ${s.needed}`, { size: 11 }));
  ly += 6;
  (s.done || []).forEach((d, k) => {
    const by = ly + k * 18;
    parts.push(rect(x + 8, by, w - 16, 16, { rx: 3, fill: "#e9dfc6", stroke: "#b5a47f" }));
    parts.push(text(x + 13, by + 12, `${d.deck}${d.nogbad ? " \u2620 Nogbad" : ""}`, { size: 10, weight: "bold",
                                                                                     fill: d.nogbad ? "#8a2020" : INK }));
    parts.push(nogRow(t, d.nogs || [], x + w - 12, by + 8));
  });
  ly += (s.done || []).length * 18 + 6;
  const cur = s.current;
  if (cur) {
    const ch = Math.max(56, h - (ly - y) - 28);
    parts.push(el("g", { "data-component": "harbourside", "data-deck": cur.deck }, [
      rect(x + 8, ly, w - 16, ch, { rx: 4, fill: "#fffaf0", stroke: "#7a6a4a" }),
      text(x + 14, ly + 14, cur.bonus ? `Harbourside: card ${cur.deck} (bonus)` : `Harbourside: Reserve card ${cur.deck}`, { size: 11, weight: "bold" }),
      ...(cur.needs || []).map((need, k) => {
        const met = (cur.met || [])[k];
        const nx = x + 14 + (k % 2) * ((w - 28) / 2), ny = ly + 32 + Math.floor(k / 2) * 17;
        const who = met && met.seat !== undefined ? t.colourOf(met.seat) : null;
        return need_(nx, ny, need, met, who);
      }),
    ]));
    ly += ch + 4;
  }
  const chars = (card?.characters || []).map((c) => name(CHARACTERS, c));
  parts.push(text(x + 8, y + h - 8, `Nogs on the card: ${card?.nogs ?? 0}${chars.length ? ` \u00b7 ${chars.length} character(s)` : ""}`,
                  { size: 10, fill: MUTED }));
  if (chars.length) {
    parts.push(el("g", { "data-component": "saga-characters" }, [
      text(x + 8, y + h - 21, clip(`On the card: ${chars.join(", ")}`, 34), { size: 10 }),
      title(`Characters on the card: ${chars.join(", ")}`),
    ]));
  }
  return el("g", { "data-saga": slot, "data-card": s.card }, parts);
}

/** One condition of a Reserve or Invention card: its cube (filled once met, with the colour of
 * the seat that met it on the left) and its name. */
function need_(nx, ny, need, met, who) {
  return el("g", { "data-need": need, "data-met": met ? "true" : "false" }, [
    who ? piece(nx + 5, ny - 4, who, null, { r: 5 }) : "",
    rect(nx + 13, ny - 10, 12, 12, { rx: 2, fill: met ? (CUBE[met.paid] || "#bbb") : (CUBE[need] || "#fff"),
                                     stroke: INK, "stroke-opacity": met ? 1 : 0.5, "fill-opacity": met ? 1 : 0.35 }),
    text(nx + 29, ny, resName(need), { size: 10.5 }),
  ]);
}

/** Per-seat Nog counts as small coloured discs, right-aligned at (right, y). */
function nogRow(t, nogs, right, y) {
  const out = [];
  let px = right;
  for (let seat = nogs.length - 1; seat >= 0; seat--) {
    if (!nogs[seat]) continue;
    out.push(piece(px - 7, y, t.colourOf(seat), nogs[seat], { r: 7, size: 9 }));
    px -= 17;
  }
  return out.join("");
}

// -- Invention cards (6.5) and the Counting House (6.3) --------------------------------------------

function inventionCards(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Invention cards")];
  const cw = (w - 24) / 2;
  (v.inventions || [null, null]).slice(0, 2).forEach((inv, i) => {
    const cx = x + 8 + i * (cw + 8), cy = y + 28, ch = h - 36;
    const card = (v.invention_cards || [])[i];
    if (!inv) {
      parts.push(el("g", { "data-invention": i }, [rect(cx, cy, cw, ch, { rx: 6, fill: "none", stroke: "#9c8b6e", "stroke-dasharray": "4 3" }),
                                                   text(cx + cw / 2, cy + ch / 2, "no Invention card", { size: 12, anchor: "middle", fill: MUTED })]));
      return;
    }
    const nm = card?.name || name(INVENTIONS, inv.card);
    const cell = [rect(cx, cy, cw, ch, { rx: 6, fill: "#eef2f7", stroke: "#5a6a7a", "stroke-width": 1.5 }),
                  text(cx + 8, cy + 17, clip(nm, 24), { size: 13, weight: "bold" }),
                  text(cx + 8, cy + 30, card?.ability ? (card.once ? "special ability, once a season" : "special ability") : "no special ability",
                       { size: 10, fill: MUTED })];
    (inv.needs || []).forEach((need, k) => {
      const met = (inv.met || [])[k];
      const nx = cx + 8 + (k % 2) * ((cw - 16) / 2), ny = cy + 46 + Math.floor(k / 2) * 15;
      cell.push(need_(nx, ny, need, met, met && met.seat !== undefined ? t.colourOf(met.seat) : null));
    });
    if (inv.first !== null && inv.first !== undefined) {
      cell.push(text(cx + 8, cy + ch - 8, `First Nog: ${t.nameOf(inv.first)}`, { size: 10, fill: MUTED }));
    }
    cell.push(title(nm));
    parts.push(el("g", { "data-invention": i, "data-card": inv.card }, cell));
  });
  return group("inventions", {}, parts);
}

function countingHouse(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "The Counting House")];
  const card = v.counting_house_card;
  parts.push(el("g", { "data-card": card?.card || "" }, [
    rect(x + 10, y + 28, 150, 30, { rx: 5, fill: card ? "#f3e3b8" : "none", stroke: "#9c8b6e", "stroke-dasharray": card ? null : "4 3" }),
    text(x + 85, y + 48, card ? card.name : "no card this season", { size: 12, anchor: "middle", weight: card ? "bold" : null,
                                                                      fill: card ? INK : MUTED }),
  ]));
  const au = v.auction;
  const info = [];
  if (au) {
    const next = Array.isArray(au.order) && au.next < au.order.length ? au.order[au.next] : null;
    info.push(`Auction: highest bid ${au.bid ?? 0} Step(s)${au.leader !== null && au.leader !== undefined ? ` by ${t.nameOf(au.leader)}` : ""}`);
    if (next !== null) info.push(`Next to bid: ${t.nameOf(next)}`);
  } else if (v.decision && v.decision.kind === "keep_card") {
    info.push(`${t.nameOf(v.decision.seat)} won the auction and places the card`);
  }
  info.push(`Cards left in the deck: ${Math.max(0, 15 - (v.ch_drawn ?? 0))}`);
  parts.push(lines(x + 172, y + 40, info, { size: 11, gap: 14 }));
  return group("counting-house", {}, parts);
}

// -- the player boards (3.8) ---------------------------------------------------------------------

function playerBoards(t, boxes) {
  return group("player-boards", {}, t.players.map((p, i) => playerBoard(t, p, ...boxes[i])));
}

function playerBoard(t, p, x, y, w, h) {
  const v = t.v;
  const mine = t.seat === p.seat;
  const toMove = toMoveOf(v, t.ctx).includes(p.seat);
  const colour = PIECE[p.colour] || "#999";
  const parts = [
    rect(x, y, w, h, { rx: 8, fill: mine ? "#fffaf0" : "#fbf6ea", stroke: colour, "stroke-width": mine ? 3.5 : 2 }),
    rect(x, y, w, 26, { rx: 8, fill: colour }),
    rect(x, y + 14, w, 12, { fill: colour }),
    text(x + 10, y + 18, `${t.nameOf(p.seat)} \u00b7 ${p.colour}`, { size: 13, weight: "bold", fill: p.colour === "yellow" ? INK : "#fff" }),
    el("g", { "data-component": "score", "data-score": (v.final?.breakdown || [])[p.seat]?.total ?? p.score },
       text(x + w - 10, y + 18, `${(v.final?.breakdown || [])[p.seat]?.total ?? p.score} PP`, { size: 14, weight: "bold", anchor: "end", fill: p.colour === "yellow" ? INK : "#fff" })),
  ];
  if (toMove) parts.push(text(x + w - 70, y + 18, "\u25b6 to move", { size: 11, anchor: "end", fill: p.colour === "yellow" ? INK : "#fff" }));
  const cx = x + 10;
  let ly = y + 44;
  // Farm: stock (3.7: Gold and coins take no room)
  const stock = p.stock || {};
  const farm = ["stone", "wood", "fish", "harvest", "gold"].concat(v.coins || stock.coin ? ["coin"] : []);
  parts.push(text(cx, ly, "Farm", { size: 12, weight: "bold" }));
  farm.forEach((g, i) => {
    const gx = cx + 40 + (i % 3) * Math.min(90, (w - 56) / 3), gy = ly + Math.floor(i / 3) * 17;
    parts.push(el("g", { "data-resource": g }, cube(gx, gy, CUBE[g], `${RESOURCE[g]} ${stock[g] ?? 0}`, { size: 11, textSize: 12 })));
  });
  ly += 17 * Math.ceil(farm.length / 3) + 1;
  const room = p.storage?.room;
  if (room) {
    parts.push(text(cx, ly, `Room left: ${["stone", "wood", "fish", "harvest"].map((g) => `${RESOURCE[g]} ${room[g]}`).join(", ")}`,
                    { size: 11, fill: MUTED }));
    ly += 17;
  }
  const row = (label, value, o = {}) => {
    const body = wrap(value, Math.floor((w - 96) / 6.6)).slice(0, o.max || 1);
    parts.push(el("g", o.attrs || {}, [
      text(cx, ly, label, { size: 12, weight: "bold" }),
      lines(cx + 78, ly, body, { size: 12, gap: 15 }),
    ]));
    ly += 15 * Math.max(1, body.length) + 2;
  };
  row("Mountains", `${p.mountains} Nog(s); ${p.reserve} in reserve`);
  row("Fields", `${(p.fields || []).map((n) => `${n} Harvest`).join(", ")}; Orchard ${p.orchard} tree(s)`);
  const tc = p.transport_capacity || {};
  row("Transport", TRANSPORTS.map(([id, label]) => `${label.split(" ").pop()} ${tc[id] ?? 2}${(p.transports || []).includes(id) ? "\u2191" : ""}`).join(", "));
  const blds = Object.entries(p.buildings || {}).map(([b, space]) => `${name(BUILDINGS, b)} (${SPACES[space] || humanise(space)})`);
  row("Buildings", blds.length ? blds.join(", ") : "none", { max: 2 });
  const cards = [
    ...(p.counting_house || []).map((c) => `${name(COUNTING_HOUSE, c.card)}${c.up ? "" : " (face down)"}`),
    ...(p.inventions || []).map((c) => name(INVENTIONS, c)),
  ];
  row("Cards", cards.length ? cards.join(", ") : "none", { max: 2, attrs: { "data-component": "cards" } });
  const onActions = ACTIONS.filter(([id]) => p.placed?.[id]).map(([id, label]) => `${label} ${p.placed[id]}`);
  row("On actions", onActions.length ? onActions.join(", ") : "none");
  if (t.secrets === p.seat && v.my_loyalty) {
    const foe = v.my_loyalty === "nogbad";
    row("Your card", foe ? "Nogbad: you secretly help Nogbad" : "Noggin: you help Noggin",
        { attrs: { "data-component": "my-loyalty", "data-secret": p.seat } });
  }
  const notes = [];
  if (p.forge) notes.push("Forge token");
  if (p.accused) notes.push("Accusation card played");
  if (p.shown) notes.push(`accused, showed ${p.shown === "nogbad" ? "Nogbad" : "Noggin"}`);
  if (p.unmasked) notes.push("unmasked: plays as a friend");
  const final = (v.final?.breakdown || [])[p.seat];
  if (final) {
    const partsOf = Object.entries(final).filter(([k, n]) => k !== "total" && n).map(([k, n]) => `${k} ${n}`);
    notes.unshift(`Final ${final.total}${partsOf.length ? ": " + partsOf.join(", ") : ""}`);
  }
  const noteLines = wrap(notes.join(" \u00b7 "), Math.floor((w - 20) / 5.9));
  const fits = Math.max(0, Math.floor((y + h - 4 - ly) / 13) + 1);
  if (notes.length) {
    parts.push(el("g", {}, [lines(cx, ly, noteLines.slice(0, fits), { size: 10.5, fill: MUTED, gap: 13 }), title(notes.join("; "))]));
  }
  return el("g", { "data-component": "player-board", "data-seat": p.seat, "data-colour": p.colour }, parts);
}

export const size = { width: W, height: H };
