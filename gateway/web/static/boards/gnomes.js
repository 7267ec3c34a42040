// The table of "A Game of Gnomes", drawn from a player view.
//
// render(view, ctx) -> SVG string (README.md in this folder gives the interface). What is
// drawn follows the rulebook (a-game-of-gnomes-rulebook.txt): the board's sites with their
// location tiles (villages, shops, gnome houses; B), the meadow, forest and mountain paths and
// the black routes to the Sorcerer's tower (C.1), the river and the lake, frozen in winter (G);
// Gnome Mountain with its grass, rock and snow levels, each a ring, reached by four paths and
// climbed with maps (C.1); the mushrooms growing and the gems each village pays (B, C.3, J); the
// timing track with the gnome timers stacked (C.1, D); the calendar track of 52 weeks with its
// seasons and what sprouts, rots and freezes when (F, G, H); the dream cards (D), the three shops
// (C.4), the Sorcerer's quests (C.7); and per seat its gnome, basket, gems, golden mushrooms,
// equipment, quest and hand size, with the seat's own hand (travel and treasure cards, C.4, E)
// in its own view alone, marked data-secret. The map itself is not printed in the rulebook: its
// sites and paths are the reconstruction of docs/house-rules.md (A Game of Gnomes, the map),
// read from the view's `routes`; where each site sits on the drawing is this module's own.

import {
  INK, MUTED, PIECE, W, circle, clip, el, grid, group, humanise, inner, line, lines, panel, path, piece, rect,
  outcomeOf, seatLabel, secretsOf, statusLine, svgDoc, toMoveOf, text, title, wrap,
} from "./svg.js";

/** Where each site is drawn: the mountain on the left, the four paths up it from s01-s04. */
const SITE_XY = {
  s01: [262, 78], s02: [262, 198], s03: [262, 318], s04: [262, 438],
  s05: [390, 120], s06: [392, 238], s07: [380, 420],
  s08: [512, 72], s09: [520, 250], s10: [480, 452],
  s11: [600, 132], s12: [545, 350], s13: [625, 452],
  s14: [742, 90], s15: [640, 300],
  s16: [690, 195], s17: [735, 392], s18: [790, 458], s19: [760, 290],
  tower: [425, 326],
};
/** The lake's middle and radii, beside its lakeside sites s14, s16, s17, s19. */
const LAKE = [814, 250, 20, 118];
/** Gnome Mountain seen from above: the grass ring outside, rock inside, snow at the top. */
const MOUNTAIN_XY = {
  g1: [150, 98], g2: [170, 206], g3: [170, 312], g4: [150, 420],
  r1: [92, 150], r2: [112, 228], r3: [112, 292], r4: [92, 368],
  n1: [52, 224], n2: [52, 296],
};
const LEVEL = { g: "grass", r: "rock", n: "snow" };
const TERRAIN = { meadow: "#e2c43a", forest: "#7a4f25", mountain: "#f2f2f2", black: "#1c1c1c" };
const MUSHROOM = { blue: "#2f63b8", yellow: "#e2b812", red: "#c8372d", king: "#8a5fbf" };
const GEM = { brown: "#8a5a2b", green: "#3f9142", white: "#f4f4f4" };
const GEM_VALUE = { brown: 1, green: 2, white: 3 };
const SEASON_BANDS = [["spring", 0, 13, "#d9ecc8"], ["summer", 13, 25, "#f6e7a8"], ["autumn", 25, 37, "#f1cfa0"],
                      ["winter", 37, 52, "#dcebf5"]];
/** What the calendar does at each boundary (F, G, H; house rules: red never rots). */
const CALENDAR_MARKS = [[13, "yellow sprouts; the frog"], [25, "red sprouts, blue rots"],
                        [37, "ice; blue sprouts, yellow rots"]];
const TRAVEL = {
  meadow: "Meadow", forest: "Forest", mountain: "Mountain", double_meadow: "Double meadow",
  double_forest: "Double forest", double_mountain: "Double mountain", free: "Free travel", nugget: "Nugget",
};
const ITEMS = {
  tiny_basket: "Tiny Basket", tiny_rucksack: "Tiny Rucksack", tunnel_key: "Tunnel Key", pond_pipes: "Pond Pipes",
  canteen: "Canteen", short_axe: "Short Axe", hill_boots: "Hill Boots", compass: "Compass", leaf_boat: "Leaf Boat",
  spare_key: "Spare Key", small_rucksack: "Small Rucksack", large_rucksack: "Large Rucksack",
  small_basket: "Small Basket", large_basket: "Large Basket",
  acorn_cup: "Acorn Cup", beetle_brooch: "Beetle Brooch", dew_pearl: "Dew Pearl", silver_thimble: "Silver Thimble",
  moonstone: "Moonstone", golden_acorn: "Golden Acorn", crystal_toadstool: "Crystal Toadstool",
  crown_of_the_glade: "Crown of the Glade",
};
/** Prices in brown gems (C.4; reconstructed, docs/house-rules.md) and treasures' values (H). */
const COST = {
  canteen: 2, short_axe: 2, hill_boots: 2, compass: 3, leaf_boat: 3, spare_key: 1, small_rucksack: 2,
  large_rucksack: 4, small_basket: 1, large_basket: 2, map_g1_r1: 2, map_g2_r2: 2, map_g3_r3: 2, map_g4_r4: 2,
  map_r1_n1: 2, map_r3_n2: 2, map_g2_r2_n1: 3, map_g4_r4_n2: 3, acorn_cup: 3, beetle_brooch: 3, dew_pearl: 4,
  silver_thimble: 4, moonstone: 5, golden_acorn: 5, crystal_toadstool: 6, crown_of_the_glade: 7,
};
const TREASURE_VALUE = {
  acorn_cup: 4, beetle_brooch: 4, dew_pearl: 5, silver_thimble: 5, moonstone: 6, golden_acorn: 6,
  crystal_toadstool: 8, crown_of_the_glade: 9,
};
const SHOPS = [["hillview_hut", "Hillview Hut"], ["forest_fete", "Forest Fete"], ["market_meadow", "Market Meadow"]];
/** The Sorcerer's quests (C.7), in short: reward, task, penalty. */
const QUESTS = {
  market_meadow_item: ["an item from Market Meadow", "sell yellow in Descina or Jafnea", 5],
  forest_fete_item: ["an item from Forest Fete", "sell yellow in Calvatia or Fuligo", 5],
  cross_the_lake: ["3 brown gems", "travel over the lake", 5],
  visit_a_house: ["2 brown gems", "visit another player's gnome house", 5],
  hillview_hut_item: ["an item from Hillview Hut", "sell red in Grifola or Kolus", 5],
  red_for_gems: ["4 brown gems", "sell red in Exidea or Hydnum", 5],
  reach_the_summit: ["5 brown gems", "reach the summit of Gnome Mountain", 10],
};
const PENDING = { turn: "a turn", sleep: "a gnome to sleep", discard: "discards to the hand limit" };

/** A card's name: travel cards, items, treasures and maps ("Map g1-r1"). */
function cardName(id) {
  if (TRAVEL[id]) return TRAVEL[id];
  if (ITEMS[id]) return ITEMS[id];
  const m = /^map_(.+)$/.exec(String(id));
  if (m) return `Map ${m[1].split("_").join("\u2013")}`;
  return humanise(id);
}

/** The table of A Game of Gnomes: see the header comment. */
export function render(view, ctx = {}) {
  const v = inner(view);
  const seat = ctx.seat ?? null;
  const players = v.players || [];
  const t = { v, ctx, seat, players, secrets: secretsOf(v, ctx), nameOf: (s) => seatLabel(ctx, s), colourOf: (s) => players[s]?.colour || "grey" };
  const heading = "A Game of Gnomes";
  // the board and the calendar, the timing track and dream cards, the player boards two a row,
  // then the shops and the Sorcerer's quests
  const top = 58, half = (W - 28) / 2, right = 18 + half;
  const boards = grid(Math.max(1, players.length), 10, top + 690, W - 20, 196);
  const below = boards.bottom + 8;
  return svgDoc(heading, [
    header(t, heading),
    map(t, 10, top, W - 20, 480),
    calendar(t, 10, top + 486, W - 20, 70),
    timingTrack(t, 10, top + 562, half, 122),
    dreamCards(t, right, top + 562, half, 122),
    playerBoards(t, boards),
    shops(t, 10, below, half, 190),
    quests(t, right, below, half, 190),
  ], { game: "gnomes", seat, background: "#e3e8d5", height: below + 198 });
}

function header(t, heading) {
  const v = t.v;
  let status = statusLine(v, t.ctx, t.nameOf);
  const outcome = outcomeOf(v, t.ctx);
  if (!outcome && v.pending && PENDING[v.pending]) {
    status += ` (${PENDING[v.pending]}${v.pending === "sleep" && v.sleep_weeks !== undefined ? `: ${v.sleep_weeks} week(s) to sleep` : ""})`;
  }
  const options = v.config?.options || {};
  const variant = [options.random_layout ? "random layout" : "first-game layout", options.gem_variant ? "gem variant" : null]
    .filter(Boolean).join(", ");
  return group("header", {}, [
    text(12, 28, heading, { size: 20, weight: "bold" }),
    text(12, 50, `Round ${v.round ?? 1} \u00b7 week ${v.calendar ?? 0} of 52 \u00b7 ${humanise(v.season || "spring")} \u00b7 ${variant}`,
         { size: 13, fill: MUTED }),
    text(W - 12, 28, clip(status, 80), { size: 13, anchor: "end", weight: "bold" }),
  ]);
}

// -- the board: sites, paths, water, tower and Gnome Mountain (B, C.1, G) -------------------

function xy(place) {
  return SITE_XY[place] || MOUNTAIN_XY[place] || null;
}

function map(t, x, y, w, h) {
  const v = t.v;
  const parts = [rect(x, y, w, h, { rx: 8, fill: "#cfe0b4", stroke: "#7d8f5a", "stroke-width": 1.5 })];
  x += (w - 840) / 2; // the sites are placed for a board 840 wide: centred in a wider one
  const at = (p) => { const q = xy(p); return q ? [x + q[0], y + q[1]] : null; };
  parts.push(text(x + 250, y + 20, "The board", { size: 14, weight: "bold", fill: "#3d4a26" }));
  const [mountainBase, mountainSpaces] = mountain(t, x, y, at);
  parts.push(mountainBase);
  // water: the lake and the river (C.1, G); frozen in winter
  const frozen = !!v.frozen;
  const water = frozen ? "#e6f4fb" : "#7fb3e0";
  const waterParts = [];
  waterParts.push(el("g", { "data-component": "lake", "data-frozen": frozen ? "true" : "false" }, [
    el("ellipse", { cx: x + LAKE[0], cy: y + LAKE[1], rx: LAKE[2], ry: LAKE[3], fill: water, stroke: frozen ? "#8fb8d0" : "#4a86bf",
                    "stroke-width": 2, "stroke-dasharray": frozen ? "5 3" : null }),
    text(x + LAKE[0], y + LAKE[1] + 4, frozen ? "ice" : "lake", { size: 11, anchor: "middle", fill: frozen ? "#4a7a99" : "#fff", italic: true }),
  ]));
  for (const [a, b, kind] of (v.routes?.water || [])) {
    if (kind !== "river") continue;
    const p = at(a), q = at(b);
    if (!p || !q) continue;
    waterParts.push(el("g", { "data-water": `${a}-${b}`, "data-kind": kind }, [
      path(`M${p[0]},${p[1]} Q${(p[0] + q[0]) / 2 + 14},${(p[1] + q[1]) / 2 - 18} ${q[0]},${q[1]}`,
           { fill: "none", stroke: water, "stroke-width": 9, "stroke-linecap": "round" }),
      frozen ? path(`M${p[0]},${p[1]} Q${(p[0] + q[0]) / 2 + 14},${(p[1] + q[1]) / 2 - 18} ${q[0]},${q[1]}`,
                    { fill: "none", stroke: "#8fb8d0", "stroke-width": 1.5, "stroke-dasharray": "5 3" }) : "",
    ]));
  }
  parts.push(group("water", {}, waterParts));
  // land routes: one line per terrain crossing it (side by side when several)
  const routes = [];
  for (const [a, b, icons] of (v.routes?.land || [])) {
    const p = at(a), q = at(b);
    if (!p || !q) continue;
    if (a[0] === b[0] && (a[0] === "g" || a[0] === "r" || a[0] === "n")) continue;  // the mountain's own rings
    const dx = q[0] - p[0], dy = q[1] - p[1], len = Math.hypot(dx, dy) || 1;
    const nx = -dy / len, ny = dx / len;
    (icons || []).forEach((icon, k) => {
      const off = (k - ((icons.length - 1) / 2)) * 5;
      const o = { stroke: TERRAIN[icon] || "#999", "stroke-width": icon === "black" ? 3 : 4,
                  "stroke-dasharray": icon === "black" ? "7 4" : null, "stroke-linecap": "round" };
      routes.push(el("g", { "data-route": `${a}-${b}`, "data-terrain": icon }, [
        icon === "mountain" ? line(p[0] + nx * off, p[1] + ny * off, q[0] + nx * off, q[1] + ny * off,
                                   { stroke: "#7d7d7d", "stroke-width": 6, "stroke-linecap": "round" }) : "",
        line(p[0] + nx * off, p[1] + ny * off, q[0] + nx * off, q[1] + ny * off, o),
      ]));
    });
  }
  parts.push(group("routes", {}, routes));
  parts.push(mountainSpaces);
  // the Sorcerer's tower (C.1, C.7, G)
  const tw = at("tower");
  if (tw) {
    const tg = (v.gems || {}).tower;
    parts.push(el("g", { "data-place": "tower" }, [
      path(`M${tw[0] - 16},${tw[1] + 18} L${tw[0] - 11},${tw[1] - 12} L${tw[0]},${tw[1] - 30} L${tw[0] + 11},${tw[1] - 12} L${tw[0] + 16},${tw[1] + 18} Z`,
           { fill: frozen ? "#e8f2f8" : "#6b5a8a", stroke: "#2d2040", "stroke-width": 1.5 }),
      rect(tw[0] - 52, tw[1] + 21, 104, frozen ? 28 : 16, { rx: 4, fill: "#eef3e2", "fill-opacity": 0.9 }),
      text(tw[0], tw[1] + 33, "Sorcerer's tower", { size: 11, anchor: "middle", weight: "bold" }),
      frozen ? text(tw[0], tw[1] + 45, "winter tower: 1 week", { size: 10, anchor: "middle", fill: "#4a7a99" }) : "",
      tg ? rect(tw[0] - 25, tw[1] - 50, 50, 14, { rx: 4, fill: "#fffdf4", "fill-opacity": 0.85, stroke: "#7a6a9a" }) : "",
      tg ? gems(tw[0] - 22, tw[1] - 43, tg) : "",
      title(frozen ? "the Sorcerer's tower, reached in winter by the footprints for 1 week" : "the Sorcerer's tower: black routes only"),
    ]));
  }
  // sites with their tiles
  const places = v.places || {};
  for (const site of Object.keys(SITE_XY)) {
    if (site === "tower") continue;
    const p = at(site);
    parts.push(siteTile(t, site, places[site], p));
  }
  // gnomes (the frog rider shown as a frog)
  const byPlace = {};
  for (const p of t.players) if (p.place) (byPlace[p.place] = byPlace[p.place] || []).push(p);
  const gnomes = [];
  for (const [place, ps] of Object.entries(byPlace)) {
    const p = at(place);
    if (!p) continue;
    const onMountain = !!MOUNTAIN_XY[place];
    ps.forEach((pl, k) => {
      const gx = onMountain ? p[0] + 16 + k * 9 : place === "tower" ? p[0] + 26 + k * 13 : p[0] - 55 - k * 13;
      const gy = onMountain ? p[1] - 10 - k * 4 : place === "tower" ? p[1] + 8 : p[1] - 2;
      const frog = v.frog === pl.seat;
      gnomes.push(el("g", { "data-gnome": pl.seat, "data-place": place }, [
        path(`M${gx - 7},${gy + 9} L${gx},${gy - 10} L${gx + 7},${gy + 9} Z`, { fill: PIECE[pl.colour] || "#999", stroke: INK }),
        circle(gx, gy + 5, 3.2, { fill: "#f3d6b5", stroke: INK, "stroke-width": 0.6 }),
        frog ? text(gx, gy - 12, "frog", { size: 9, anchor: "middle", weight: "bold", fill: "#2d6b2d" }) : "",
        title(`${t.nameOf(pl.seat)}'s gnome (${pl.colour})${frog ? ", riding the frog" : ""}: ${placeName(v, place)}`),
      ]));
    });
  }
  parts.push(group("gnomes", {}, gnomes));
  // legend
  const lx = x + 340, ly = y + 20;
  let kx = lx;
  for (const [k, label] of [["meadow", "meadow"], ["forest", "forest"], ["mountain", "mountain"], ["black", "to the tower"], ["river", "river"]]) {
    const o = k === "river" ? { stroke: water, "stroke-width": 6 } : { stroke: k === "mountain" ? "#7d7d7d" : TERRAIN[k], "stroke-width": k === "mountain" ? 6 : 4,
                                                                      "stroke-dasharray": k === "black" ? "5 3" : null };
    parts.push(line(kx, ly - 4, kx + 16, ly - 4, o));
    if (k === "mountain") parts.push(line(kx, ly - 4, kx + 16, ly - 4, { stroke: TERRAIN.mountain, "stroke-width": 4 }));
    parts.push(text(kx + 20, ly, label, { size: 10.5 }));
    kx += 34 + label.length * 6.2;
  }
  return group("map", { "data-frozen": frozen ? "true" : "false" }, parts);
}

function placeName(v, place) {
  if (place === "tower") return "the Sorcerer's tower";
  if (MOUNTAIN_XY[place]) return `Gnome Mountain, ${LEVEL[place[0]]} space ${place}`;
  return (v.places || {})[place]?.name || place;
}

function siteTile(t, site, info, p) {
  const v = t.v;
  const kind = info?.kind;
  const w = 92, h = 34;
  let fill = "#fdf8e8", stroke = "#8c7a55", sw = 1.5;
  if (kind === "shop") fill = "#e8d4b0";
  if (kind === "house") { fill = PIECE[(info.name || "").split(" ")[0]] || "#ddd"; }
  if (kind === "village") {
    const buys = info.buys || [];
    stroke = buys.includes("blue") ? MUSHROOM.blue : MUSHROOM.red;
    sw = 3;
  }
  const label = kind === "house" ? `${humanise((info.name || "").split(" ")[0])} house` : kind === "shop" ? (info.name || "").replace(/ Shop$/, "") : info?.name || site;
  const ink = kind === "house" && /yellow|white/.test(info.name || "") ? INK : kind === "house" ? "#fff" : INK;
  const parts = [
    rect(p[0] - w / 2, p[1] - h / 2, w, h, { rx: 6, fill, stroke, "stroke-width": sw }),
    text(p[0], p[1] + 1, clip(label, 15), { size: 12, anchor: "middle", weight: "bold", fill: ink }),
    text(p[0] + w / 2 - 3, p[1] + h / 2 - 3, site, { size: 8.5, anchor: "end", fill: kind === "house" ? ink : MUTED }),
  ];
  if (kind === "village") {
    parts.push(text(p[0] - w / 2 + 4, p[1] + h / 2 - 3, "buys", { size: 8.5, fill: MUTED }));
    (info.buys || []).forEach((c, k) => parts.push(circle(p[0] - w / 2 + 29 + k * 9, p[1] + h / 2 - 6, 3.5,
                                                          { fill: MUSHROOM[c] || "#999", stroke: "#00000066" })));
  } else if (kind === "shop") {
    parts.push(text(p[0] - w / 2 + 4, p[1] + h / 2 - 3, "shop", { size: 8.5, fill: MUTED }));
  }
  // mushrooms growing here
  const ms = (v.mushrooms || {})[site] || [];
  ms.forEach((m, k) => parts.push(mushroom(p[0] + w / 2 - 8 - k * 13, p[1] - h / 2 - 2, m)));
  // gems the village still pays (C.3)
  const tile = info?.tile;
  const g = tile && (v.gems || {})[tile];
  if (g) parts.push(gems(p[0] - w / 2 + 4, p[1] - h / 2 - 9, g));
  parts.push(title(`${info?.name || site} (${site})${kind === "village" ? `: buys ${(info.buys || []).join(" and ")} mushrooms` : ""}`));
  return el("g", { "data-place": site, "data-tile": tile || "", "data-kind": kind || "" }, parts);
}

function mushroom(x, y, colour) {
  return el("g", { "data-mushroom": colour }, [
    rect(x - 1.8, y - 1, 3.6, 7, { fill: "#f3ead2", stroke: "#00000066", "stroke-width": 0.6 }),
    path(`M${x - 6},${y} A6,5 0 0 1 ${x + 6},${y} Z`, { fill: MUSHROOM[colour] || "#999", stroke: "#00000088", "stroke-width": 0.8 }),
    colour === "king" ? text(x, y - 6, "K", { size: 7, anchor: "middle", weight: "bold", fill: "#4a2a7a" }) : "",
    title(colour === "king" ? "a Montane King mushroom" : `a ${colour} mushroom`),
  ]);
}

/** Gem counts as small diamonds with numbers, from (x, y) rightwards. */
function gems(x, y, g) {
  const out = [];
  let px = x;
  for (const c of ["brown", "green", "white"]) {
    const n = g[c] || 0;
    if (!n) continue;
    out.push(path(`M${px + 4},${y - 5} L${px + 8},${y} L${px + 4},${y + 5} L${px},${y} Z`, { fill: GEM[c], stroke: "#333", "stroke-width": 0.8 }));
    out.push(text(px + 10, y + 4, n, { size: 10, weight: "bold" }));
    px += 22;
  }
  return el("g", { "data-gems": ["brown", "green", "white"].map((c) => g[c] || 0).join(",") }, out);
}

function mountain(t, x, y, at) {
  const v = t.v;
  const cx = x + 100, cy = y + 260;
  const parts = [
    el("ellipse", { cx, cy, rx: 92, ry: 222, fill: "#a9c98a", stroke: "#5e7d45", "stroke-width": 2 }),
    el("ellipse", { cx: cx - 22, cy, rx: 64, ry: 158, fill: "#b6a58c", stroke: "#6b5a45", "stroke-width": 1.5 }),
    el("ellipse", { cx: cx - 48, cy, rx: 30, ry: 72, fill: "#f7f7f7", stroke: "#9a9a9a", "stroke-width": 1.5 }),
    text(cx - 60, y + 30, "Gnome Mountain", { size: 13, weight: "bold", fill: "#2f3d22" }),
  ];
  // the maps' routes between levels (C.1); the four paths up from the board are the view's routes
  const maps = [["g1", "r1"], ["g2", "r2"], ["g3", "r3"], ["g4", "r4"], ["r1", "n1"], ["r3", "n2"]];
  for (const [a, b] of maps) {
    const p = at(a), q = at(b);
    parts.push(line(p[0], p[1], q[0], q[1], { stroke: "#5a4a30", "stroke-width": 1.2, "stroke-dasharray": "2 3" }));
  }
  const spaces = [];
  for (const id of Object.keys(MOUNTAIN_XY)) {
    const p = at(id);
    const level = LEVEL[id[0]];
    const kings = ((v.mushrooms || {})[id] || []);
    spaces.push(el("g", { "data-place": id, "data-level": level }, [
      circle(p[0], p[1], 15, { fill: level === "grass" ? "#dcefc8" : level === "rock" ? "#d8cbb4" : "#ffffff",
                               stroke: "#4d4d4d", "stroke-width": 1.2 }),
      text(p[0], p[1] + 4, id, { size: 10, anchor: "middle", weight: "bold" }),
      ...kings.map((m, k) => mushroom(p[0] - 6 + k * 12, p[1] - 17, m)),
      title(`Gnome Mountain, ${level} level, space ${id}${id === "n1" ? " (the summit)" : ""}`),
    ]));
  }
  parts.push(text(cx - 48, cy + 92, "snow", { size: 10, anchor: "middle", fill: MUTED }));
  parts.push(text(cx - 20, cy + 172, "rock", { size: 10, anchor: "middle", fill: "#4a3a25" }));
  parts.push(text(cx + 10, cy + 206, "grass", { size: 10, anchor: "middle", fill: "#2f3d22" }));
  return [el("g", {}, parts), group("mountain", {}, spaces)];
}

// -- the calendar track (F, G, H) --------------------------------------------------------------

function calendar(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Calendar")];
  const x0 = x + 90, x1 = x + w - 16, ty = y + 28;
  const at = (week) => x0 + ((x1 - x0) * week) / 52;
  for (const [season, a, b, fill] of SEASON_BANDS) {
    parts.push(rect(at(a), ty, at(b) - at(a), 18, { fill, stroke: "#9c8b6e", "stroke-width": 0.8 }));
    parts.push(text((at(a) + at(b)) / 2, ty + 13, humanise(season), { size: 11, anchor: "middle", weight: v.season === season ? "bold" : null }));
  }
  for (let wk = 0; wk <= 52; wk++) {
    parts.push(line(at(wk), ty + 18, at(wk), ty + (wk % 13 === 0 ? 26 : 22), { stroke: "#6b6257", "stroke-width": wk % 13 === 0 ? 1.2 : 0.6 }));
  }
  for (const [wk, label] of CALENDAR_MARKS) {
    parts.push(text(at(wk) + (wk === 52 ? 0 : 3), ty + 38, `${wk}: ${label}`, { size: 10, anchor: wk === 52 ? "end" : "start", fill: MUTED }));
  }
  parts.push(text(at(0), ty + 38, "0", { size: 10, fill: MUTED }));
  parts.push(text(x + w - 16, y + 19, "the game ends at week 52", { size: 10, anchor: "end", fill: MUTED }));
  const wk = Math.max(0, Math.min(52, v.calendar ?? 0));
  parts.push(el("g", { "data-component": "calendar-timer", "data-week": wk }, [
    path(`M${at(wk)},${ty + 2} l-7,-10 h14 Z`, { fill: "#2f63b8", stroke: INK }),
    title(`the Calendar timer: week ${wk} of 52`),
  ]));
  parts.push(text(x + 10, ty + 14, `week ${wk}`, { size: 13, weight: "bold" }));
  parts.push(text(x + 10, ty + 30, `round ${v.round ?? 1}`, { size: 11, fill: MUTED }));
  return group("calendar", { "data-week": wk, "data-season": v.season || "" }, parts);
}

// -- the timing track (C.1, D) ----------------------------------------------------------------

function timingTrack(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Timing track")];
  parts.push(text(x + w - 10, y + 19, "weeks this round; top of a stack moves first", { size: 10, anchor: "end", fill: MUTED }));
  const track = v.timing_track || [];
  const sw = (w - 20) / 8;
  for (let i = 0; i < 8; i++) {
    const sx = x + 10 + i * sw, sy = y + 28;
    const stack = track[i] || [];
    const cell = [rect(sx + 1, sy, sw - 2, h - 36, { rx: 4, fill: i === 0 ? "#efe3c4" : "#f7f0de", stroke: "#9c8b6e" }),
                  text(sx + sw / 2, sy + 15, i, { size: 12, anchor: "middle", weight: "bold", fill: MUTED })];
    stack.forEach((s, k) => {  // bottom of the stack first
      const py = sy + h - 46 - k * 14;
      cell.push(el("g", { "data-seat": s }, [
        rect(sx + 8, py - 6, sw - 16, 12, { rx: 5, fill: PIECE[t.colourOf(s)] || "#999", stroke: INK, "stroke-width": 0.8 }),
        text(sx + sw / 2, py + 4, s, { size: 9.5, anchor: "middle", weight: "bold", fill: t.colourOf(s) === "yellow" ? INK : "#fff" }),
        title(`${t.nameOf(s)}'s gnome timer: ${i} week(s)${k === stack.length - 1 && stack.length > 1 ? ", top of the stack" : ""}`),
      ]));
    });
    parts.push(el("g", { "data-space": i }, cell));
  }
  return group("timing-track", {}, parts);
}

// -- dream cards (D), shops (C.4, C.5), quests (C.7) ------------------------------------------

function dreamCards(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Dream cards")];
  parts.push(text(x + w - 10, y + 19, `travel deck ${v.travel_size ?? 0} \u00b7 discards ${(v.travel_discard || []).length}`,
                  { size: 11, anchor: "end", fill: MUTED }));
  const pw = (w - 20) / 3;
  ["1", "2", "3"].forEach((k, i) => {
    const cards = (v.dream || {})[k] || [];
    const px = x + 10 + i * pw;
    parts.push(el("g", { "data-pile": k }, [
      rect(px + 2, y + 26, pw - 4, h - 32, { rx: 4, fill: "#eef0fa", stroke: "#7a7fa8" }),
      text(px + 8, y + 40, `${k} week${k === "1" ? "" : "s"} of sleep`, { size: 10, weight: "bold" }),
      lines(px + 8, y + 54, cards.length ? cards.map(cardName) : ["(empty)"], { size: 10.5, gap: 12.5 }),
      title(cards.map(cardName).join(", ")),
    ]));
  });
  return group("dream-cards", {}, parts);
}

function shops(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Shops")];
  parts.push(text(x + w - 10, y + 19, `price in brown gems \u00b7 shop deck ${v.shop_size ?? 0}`, { size: 10, anchor: "end", fill: MUTED }));
  const sw = (w - 20) / 3;
  SHOPS.forEach(([id, label], i) => {
    const sx = x + 10 + i * sw;
    const stock = (v.shops || {})[id] || [];
    const here = Object.entries(v.places || {}).find(([, p]) => p.tile === id);
    const cell = [rect(sx + 2, y + 26, sw - 4, h - 32, { rx: 4, fill: "#f3e6cc", stroke: "#9c8b6e" }),
                  text(sx + 8, y + 41, label, { size: 11.5, weight: "bold" }),
                  here ? text(sx + sw - 8, y + 41, here[0], { size: 9, anchor: "end", fill: MUTED }) : ""];
    stock.forEach((c, k) => {
      const cy = y + 50 + k * 24;
      const treasure = TREASURE_VALUE[c] !== undefined;
      cell.push(el("g", { "data-card": c }, [
        rect(sx + 6, cy, sw - 12, 21, { rx: 3, fill: treasure ? "#fff3c4" : "#fffdf6", stroke: "#b5a47f" }),
        text(sx + 11, cy + 15, clip(cardName(c), 15), { size: 11 }),
        text(sx + sw - 10, cy + 15, COST[c] ?? "?", { size: 11, anchor: "end", weight: "bold" }),
        title(`${cardName(c)}: costs ${COST[c] ?? "?"}${treasure ? `, a treasure worth ${TREASURE_VALUE[c]}` : ""}`),
      ]));
    });
    if (!stock.length) cell.push(text(sx + 8, y + 64, "(sold out)", { size: 10.5, fill: MUTED }));
    parts.push(el("g", { "data-shop": id }, cell));
  });
  return group("shops", {}, parts);
}

function quests(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "The Sorcerer's quests")];
  parts.push(text(x + w - 10, y + 19, `quest deck ${(v.quest_deck || []).length}`, { size: 11, anchor: "end", fill: MUTED }));
  const shown = v.quests || [];
  shown.forEach((q, i) => {
    const qy = y + 28 + i * 40;
    const [reward, task, penalty] = QUESTS[q] || ["?", humanise(q), "?"];
    parts.push(el("g", { "data-quest": q }, [
      rect(x + 10, qy, w - 20, 36, { rx: 4, fill: "#efe9f6", stroke: "#7a6a9a" }),
      text(x + 16, qy + 15, clip(`Quest: ${task}`, 58), { size: 11.5, weight: "bold" }),
      text(x + 16, qy + 30, `Reward now: ${reward} \u00b7 penalty if unfinished: \u2212${penalty}`, { size: 10.5 }),
    ]));
  });
  if (!shown.length) parts.push(text(x + 10, y + 44, "No quest on display", { size: 11, fill: MUTED }));
  return group("quests", {}, parts);
}

// -- the seats ---------------------------------------------------------------------------------

function playerBoards(t, boxes) {
  return group("player-boards", {}, t.players.map((p, i) => playerBoard(t, p, ...boxes[i])));
}

function playerBoard(t, p, x, y, w, h) {
  const v = t.v;
  const mine = t.seat === p.seat;
  const colour = PIECE[p.colour] || "#999";
  const ink = p.colour === "yellow" ? INK : "#fff";
  const g = p.gems || {};
  const gemValue = Object.entries(GEM_VALUE).reduce((a, [c, val]) => a + (g[c] || 0) * val, 0);
  const final = v.final?.breakdown?.[p.seat] || (outcomeOf(v, t.ctx)?.breakdown || [])[p.seat];
  const parts = [
    rect(x, y, w, h, { rx: 8, fill: mine ? "#fffdf4" : "#f8f6ee", stroke: colour, "stroke-width": mine ? 3.5 : 2 }),
    rect(x, y, w, 26, { rx: 8, fill: colour }), rect(x, y + 14, w, 12, { fill: colour }),
    text(x + 10, y + 18, `${toMoveOf(v, t.ctx).includes(p.seat) && !final ? "\u25b6 " : ""}${t.nameOf(p.seat)} \u00b7 ${p.colour}`,
         { size: 13, weight: "bold", fill: ink }),
    el("g", { "data-component": "score", "data-gem-value": gemValue },
       text(x + w - 10, y + 18, final ? `${final.total} points` : `gems: ${gemValue} pts`, { size: 12.5, weight: "bold", anchor: "end", fill: ink })),
  ];
  const cx = x + 10;
  let ly = y + 42;
  const row = (label, value, o = {}) => {
    const body = wrap(value, Math.floor((w - 88) / 6.8)).slice(0, o.max || 1);
    parts.push(el("g", o.attrs || {}, [
      text(cx, ly, label, { size: 12.5, weight: "bold" }),
      lines(cx + 70, ly, body, { size: 12.5, gap: 15 }),
    ]));
    ly += 15 * Math.max(1, body.length) + 3;
  };
  row("Where", `${placeName(v, p.place)} \u00b7 timer ${p.timer ?? 0} week(s)`, { max: 2 });
  const basket = (p.basket || []).map((m) => (m === "king" ? "Montane King" : m));
  row("Basket", basket.length ? basket.join(", ") : "empty");
  row("Gems", `${g.brown || 0} brown, ${g.green || 0} green, ${g.white || 0} white${p.golden ? ` \u00b7 golden mushroom ${p.golden}` : ""}`);
  row("Items", (p.equipment || []).map(cardName).join(", ") || "none", { max: 2 });
  const quest = p.quest ? (QUESTS[p.quest] || [null, humanise(p.quest)])[1] : "none";
  row("Quest", `${quest}${(p.quests_done || []).length ? ` (${p.quests_done.length} done)` : ""}`);
  if (t.secrets === p.seat && Array.isArray(v.hand)) {
    const cards = v.hand;
    parts.push(text(cx, ly, "Hand", { size: 12.5, weight: "bold" }));
    const hand = [];
    let hx = cx + 70, hy = ly - 12;
    cards.forEach((c) => {
      const label = cardName(c);
      const cw = label.length * 6.4 + 10;
      if (hx + cw > x + w - 6) { hx = cx + 70; hy += 19; }
      hand.push(el("g", { "data-card": c }, [
        rect(hx, hy, cw, 17, { rx: 3, fill: TREASURE_VALUE[c] !== undefined ? "#fff3c4" : "#eef0fa", stroke: "#7a7fa8" }),
        text(hx + cw / 2, hy + 12.5, label, { size: 11, anchor: "middle" }),
        TREASURE_VALUE[c] !== undefined ? title(`${label}: a treasure worth ${TREASURE_VALUE[c]}`) : "",
      ]));
      hx += cw + 4;
    });
    if (!cards.length) hand.push(text(cx + 70, ly, "no cards", { size: 11.5, fill: MUTED }));
    parts.push(el("g", { "data-component": "hand", "data-secret": p.seat }, hand));
    ly = hy + 30;
  } else {
    parts.push(el("g", { "data-component": "hand-size" }, [
      text(cx, ly, "Hand", { size: 12.5, weight: "bold" }),
      text(cx + 70, ly, `${p.hand_size ?? 0} card(s), face down`, { size: 12.5 }),
    ]));
    ly += 16;
  }
  if (final) {
    parts.push(text(cx, y + h - 8, `Final: gems ${final.gems}, nuggets ${final.nuggets}, golden ${final.golden}, treasure ${final.treasure}, quest ${final.quest}`,
                    { size: 10, fill: MUTED }));
  }
  return el("g", { "data-component": "player-board", "data-seat": p.seat, "data-colour": p.colour }, parts);
}

