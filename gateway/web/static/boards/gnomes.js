// The table of "A Game of Gnomes", drawn from a player view.
//
// render(view, ctx) -> SVG string (README.md in this folder gives the interface): the whole table in
// one W x H drawing (960 x 736 units, the board panel of a 1280x800 table page). What is drawn
// follows the rulebook (a-game-of-gnomes-rulebook.txt). Under a one-line header (the season, the
// variant, whose turn), three parts:
// * on the left, the board (600 x 520): the sites with their location tiles (villages with the
//   mushrooms they buy, shops, gnome houses; B), the meadow, forest and mountain paths and the
//   black routes to the Sorcerer's tower (C.1), the river and the lake, frozen in winter (G);
//   Gnome Mountain with its grass, rock and snow levels, each a ring, reached by four paths and
//   climbed with maps (C.1); the mushrooms growing, the gems each village pays (B, C.3, J) and the
//   gnomes (the frog rider marked);
// * on the right, a column (342 wide) of the calendar track of 52 weeks with its seasons and what
//   sprouts, rots and freezes when (F, G, H; 92 high), the timing track in one row with the gnome
//   timers stacked (C.1, D; 92), the three piles of dream cards (D; 88), the three shops (C.4; 100)
//   and the Sorcerer's quests on display (C.7; 124);
// * along the bottom (948 x 168), the player boards as one table, a column per seat and rows
//   Where (site and gnome timer), Basket, Gems (and golden mushrooms), Items (equipment),
//   Quest, Hand (its size; the seat's own travel and treasure cards, C.4, E, in its own view
//   alone, marked data-secret) and, once the game is over, the Final score's parts (H).
// Lists longer than their room end in "+N more" or an ellipsis; the whole text is in the
// element's <title> (its tooltip). The map itself is not printed in the rulebook: its sites and
// paths are the reconstruction of docs/house-rules.md (A Game of Gnomes, the map), read from the
// view's `routes`; where each site sits on the drawing is this module's own.

import {
  INK, MIN_TEXT, MUTED, PAPER, PIECE, W, circle, clip, el, group, humanise, inner, line, panel, path, rect,
  outcomeOf, seatLabel, secretsOf, statusLine, svgDoc, toMoveOf, text, title,
} from "./svg.js";
import {
  GNOMES_ITEMS as ITEMS, GNOMES_PRICES as COST, GNOMES_QUESTS, GNOMES_TRAVEL as TRAVEL,
} from "./names.js";

/** Where each site is drawn on the board (its middle, from the board's top left): the mountain on
 * the left, the four paths up it from s01-s04, the river along the top, the lake on the right. */
const SITE_XY = {
  s01: [188, 74], s02: [188, 188], s03: [188, 306], s04: [188, 424],
  s05: [278, 112], s06: [280, 228], s07: [282, 400],
  s08: [368, 64], s09: [370, 236], s10: [346, 464],
  s11: [412, 134], s12: [390, 348], s13: [446, 436],
  s14: [500, 86], s15: [460, 280],
  s16: [498, 192], s17: [508, 352], s18: [554, 440], s19: [550, 284],
  tower: [290, 318],
};
/** The lake's middle and radii, beside its lakeside sites s14, s16, s17, s19. */
const LAKE = [575, 176, 19, 78];
/** Gnome Mountain seen from above: the grass ring outside, rock inside, snow at the top. */
const MOUNTAIN_XY = {
  g1: [102, 100], g2: [122, 206], g3: [122, 316], g4: [102, 424],
  r1: [70, 152], r2: [86, 234], r3: [86, 294], r4: [70, 374],
  n1: [36, 234], n2: [36, 294],
};
/** Site tiles: width and height (two lines of text). */
const TILE_W = 82, TILE_H = 32;
/** Line pitch of the panels' lists (units). */
const LINE = 13.5;
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
/** Treasures' values (H); the shop prices are names.js's GNOMES_PRICES. */
const TREASURE_VALUE = {
  acorn_cup: 4, beetle_brooch: 4, dew_pearl: 5, silver_thimble: 5, moonstone: 6, golden_acorn: 6,
  crystal_toadstool: 8, crown_of_the_glade: 9,
};
const SHOPS = [["hillview_hut", "Hillview Hut"], ["forest_fete", "Forest Fete"], ["market_meadow", "Market Meadow"]];
/** The Sorcerer's quests (C.7), in short: reward, task, penalty. */
const QUESTS = Object.fromEntries(Object.entries(GNOMES_QUESTS).map(([id, [task, reward, penalty]]) =>
  [id, [reward, task.replace(/^sell an? (\w+) mushroom/, "sell $1"), penalty]]));
const PENDING = { turn: "a turn", sleep: "a gnome to sleep", discard: "discards to the hand limit" };

/** A card's name: travel cards, items, treasures and maps ("Map g1-r1"). */
function cardName(id) {
  if (TRAVEL[id]) return TRAVEL[id];
  if (ITEMS[id]) return ITEMS[id];
  const m = /^map_(.+)$/.exec(String(id));
  if (m) return `Map ${m[1].split("_").join("\u2013")}`;
  return humanise(id);
}

/** Advance widths of the printable ASCII characters (space to "~") in the drawings' font (DejaVu
 * Sans), in hundredths of the font size: regular, then bold. */
const ADVANCE = {
  normal: [32, 40, 46, 84, 64, 95, 78, 28, 39, 39, 50, 84, 32, 36, 30, 34, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 34, 34, 84, 84, 84, 53, 100, 68, 69, 70, 77, 63, 58, 78, 75, 30, 30, 66, 56, 86, 75, 79, 60, 79, 69, 63, 61, 73, 68, 99, 69, 61, 69, 39, 34, 39, 84, 50, 50, 61, 63, 55, 63, 62, 35, 63, 63, 28, 28, 58, 28, 97, 63, 61, 63, 63, 41, 52, 39, 63, 59, 82, 59, 59, 53, 64, 34, 64, 84],
  bold: [35, 46, 52, 84, 70, 100, 87, 31, 46, 46, 52, 84, 38, 42, 38, 37, 70, 70, 70, 70, 70, 70, 70, 70, 70, 70, 40, 40, 84, 84, 84, 58, 100, 77, 76, 73, 83, 68, 68, 82, 84, 37, 37, 77, 64, 100, 84, 85, 73, 85, 77, 72, 68, 81, 77, 110, 77, 72, 73, 46, 37, 46, 84, 50, 50, 67, 72, 59, 72, 68, 44, 72, 71, 34, 34, 67, 34, 104, 71, 69, 72, 72, 49, 60, 48, 71, 65, 92, 65, 65, 58, 71, 37, 71, 84],
};

/** Width of a string in units, a little generous (the font's widths; other characters as wide as
 * an "M" less a little), so what is fitted by it fits. */
function widthOf(str, size = 12, bold = false) {
  const table = bold ? ADVANCE.bold : ADVANCE.normal;
  let w = 0;
  for (const ch of String(str ?? "")) {
    const c = ch.codePointAt(0);
    w += c >= 32 && c < 127 ? table[c - 32] : bold ? 90 : 84;
  }
  return (w * Math.max(size, MIN_TEXT) / 100) * 1.02;
}

/** `str` cut with an ellipsis to at most `px` units wide. */
function fit(str, px, size = 12, bold = false) {
  const s = String(str ?? "");
  if (widthOf(s, size, bold) <= px) return s;
  let n = s.length;
  while (n > 1 && widthOf(s.slice(0, n - 1) + "\u2026", size, bold) > px) n--;
  return clip(s, n);
}

/** Names counted: ["Free travel", "Free travel", "Forest"] -> ["Free travel \u00d72", "Forest"]. */
function counted(names) {
  const n = new Map();
  for (const s of names) n.set(s, (n.get(s) || 0) + 1);
  return [...n].map(([s, k]) => (k > 1 ? `${s} \u00d7${k}` : s));
}

/** A list as at most `maxLines` lines of at most `px` units, items joined by commas; what does
 * not fit is counted in a last "+N more". */
function packList(items, px, maxLines, size = 12) {
  const wide = (s) => widthOf(s, size) > px;
  const names = items.map((s) => fit(s, px - widthOf(",", size), size));
  let rows = [];
  let row = [];
  for (const s of names) {
    if (row.length && wide([...row, s].join(", ") + ",")) { rows.push(row); row = [s]; } else row.push(s);
  }
  if (row.length) rows.push(row);
  if (rows.length > maxLines) {
    const kept = rows.slice(0, maxLines - 1);
    const shown = kept.reduce((a, r) => a + r.length, 0);
    const last = [];
    for (let i = shown; i < names.length; i++) {
      const more = names.length - i - 1;
      if (wide([...last, names[i], ...(more ? [`+${more} more`] : [])].join(", "))) break;
      last.push(names[i]);
    }
    last.push(`+${names.length - shown - last.length} more`);
    rows = [...kept, last];
  }
  return rows.map((r, i) => r.join(", ") + (i < rows.length - 1 ? "," : ""));
}

/** The table of A Game of Gnomes: see the header comment. */
export function render(view, ctx = {}) {
  const v = inner(view);
  const seat = ctx.seat ?? null;
  const players = v.players || [];
  const t = { v, ctx, seat, players, secrets: secretsOf(v, ctx), nameOf: (s) => seatLabel(ctx, s), colourOf: (s) => players[s]?.colour || "grey" };
  const heading = "A Game of Gnomes";
  // the header; the board on the left, a column of the tracks, cards, shops and quests on the
  // right; the player boards as one table along the bottom
  const top = 36, rx = 612, rw = W - 6 - rx;
  return svgDoc(heading, [
    header(t, heading),
    map(t, 6, top, rx - 12, 520),
    calendar(t, rx, top, rw, 92),
    timingTrack(t, rx, top + 98, rw, 92),
    dreamCards(t, rx, top + 196, rw, 88),
    shops(t, rx, top + 290, rw, 100),
    quests(t, rx, top + 396, rw, 124),
    playerBoards(t, 6, top + 526, W - 12, 168),
  ], { game: "gnomes", seat, background: "#e3e8d5" });
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
  const sub = `${humanise(v.season || "spring")} \u00b7 ${variant}`;
  const subX = 12 + widthOf(heading, 18, true) + 4;
  const room = W - 12 - (subX + widthOf(sub, 12) + 16);
  return group("header", {}, [
    text(12, 24, heading, { size: 18, weight: "bold" }),
    text(subX, 24, sub, { size: 12, fill: MUTED }),
    el("g", {}, [text(W - 12, 24, fit(status, room, 12.5, true), { size: 12.5, anchor: "end", weight: "bold" }), title(status)]),
  ]);
}

// -- the board: sites, paths, water, tower and Gnome Mountain (B, C.1, G) -------------------

function xy(place) {
  return SITE_XY[place] || MOUNTAIN_XY[place] || null;
}

function map(t, x, y, w, h) {
  const v = t.v;
  const parts = [rect(x, y, w, h, { rx: 8, fill: "#cfe0b4", stroke: "#7d8f5a", "stroke-width": 1.5 }),
                 title("The board: the sites, their paths and routes, the river, the lake and Gnome Mountain")];
  const at = (p) => { const q = xy(p); return q ? [x + q[0], y + q[1]] : null; };
  const [mountainBase, mountainSpaces] = mountain(t, x, y, at);
  parts.push(mountainBase);
  // water: the lake and the river (C.1, G); frozen in winter
  const frozen = !!v.frozen;
  const water = frozen ? "#e6f4fb" : "#7fb3e0";
  const waterParts = [];
  waterParts.push(el("g", { "data-component": "lake", "data-frozen": frozen ? "true" : "false" }, [
    el("ellipse", { cx: x + LAKE[0], cy: y + LAKE[1], rx: LAKE[2], ry: LAKE[3], fill: water, stroke: frozen ? "#8fb8d0" : "#4a86bf",
                    "stroke-width": 2, "stroke-dasharray": frozen ? "5 3" : null }),
    text(x + LAKE[0], y + LAKE[1] + 4, frozen ? "ice" : "lake", { size: 11.5, anchor: "middle", fill: frozen ? "#4a7a99" : "#fff", italic: true }),
    title(`the lake${frozen ? ", frozen" : ""}: its lakeside sites are s14, s16, s17 and s19`),
  ]));
  for (const [a, b, kind] of (v.routes?.water || [])) {
    if (kind !== "river") continue;
    const p = at(a), q = at(b);
    if (!p || !q) continue;
    const d = `M${p[0]},${p[1]} Q${(p[0] + q[0]) / 2 + 10},${(p[1] + q[1]) / 2 - 14} ${q[0]},${q[1]}`;
    waterParts.push(el("g", { "data-water": `${a}-${b}`, "data-kind": kind }, [
      path(d, { fill: "none", stroke: water, "stroke-width": 9, "stroke-linecap": "round" }),
      frozen ? path(d, { fill: "none", stroke: "#8fb8d0", "stroke-width": 1.5, "stroke-dasharray": "5 3" }) : "",
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
      path(`M${tw[0] - 16},${tw[1] + 14} L${tw[0] - 11},${tw[1] - 14} L${tw[0]},${tw[1] - 32} L${tw[0] + 11},${tw[1] - 14} L${tw[0] + 16},${tw[1] + 14} Z`,
           { fill: frozen ? "#e8f2f8" : "#6b5a8a", stroke: "#2d2040", "stroke-width": 1.5 }),
      rect(tw[0] - 54, tw[1] + 16, 108, frozen ? 29 : 16, { rx: 4, fill: "#eef3e2", "fill-opacity": 0.92 }),
      text(tw[0], tw[1] + 28, "Sorcerer's tower", { size: 11.5, anchor: "middle", weight: "bold" }),
      frozen ? text(tw[0], tw[1] + 41, "winter: 1 week", { size: 11.5, anchor: "middle", fill: "#4a7a99" }) : "",
      tg ? rect(tw[0] - 30, tw[1] - 49, 60, 16, { rx: 4, fill: "#fffdf4", "fill-opacity": 0.9, stroke: "#7a6a9a" }) : "",
      tg ? gems(tw[0] - 27, tw[1] - 41, tg) : "",
      title(frozen ? "the Sorcerer's tower, reached in winter by the footprints for 1 week" : "the Sorcerer's tower: black routes only"),
    ]));
  }
  // sites with their tiles
  const places = v.places || {};
  for (const site of Object.keys(SITE_XY)) {
    if (site === "tower") continue;
    parts.push(siteTile(t, site, places[site], at(site)));
  }
  // gnomes (the frog rider marked): in a row under a site's tile, beside a mountain space or the tower
  const byPlace = {};
  for (const p of t.players) if (p.place) (byPlace[p.place] = byPlace[p.place] || []).push(p);
  const gnomes = [];
  for (const [place, ps] of Object.entries(byPlace)) {
    const p = at(place);
    if (!p) continue;
    const onMountain = !!MOUNTAIN_XY[place];
    ps.forEach((pl, k) => {
      const gx = onMountain ? p[0] - 6 + k * 10 : place === "tower" ? p[0] - 24 - k * 11 : p[0] - (ps.length - 1) * 6 + k * 12;
      const gy = onMountain ? p[1] + 22 : place === "tower" ? p[1] + 2 : p[1] + TILE_H / 2 + 11;
      const frog = v.frog === pl.seat;
      gnomes.push(el("g", { "data-gnome": pl.seat, "data-place": place }, [
        frog ? circle(gx, gy + 1, 11, { fill: "#7cc47c", stroke: "#2d6b2d", "stroke-width": 1.5 }) : "",
        path(`M${gx - 7},${gy + 9} L${gx},${gy - 10} L${gx + 7},${gy + 9} Z`, { fill: PIECE[pl.colour] || "#999", stroke: INK }),
        circle(gx, gy + 5, 3.2, { fill: "#f3d6b5", stroke: INK, "stroke-width": 0.6 }),
        title(`${t.nameOf(pl.seat)}'s gnome (${pl.colour})${frog ? ", riding the frog" : ""}: ${placeName(v, place)}`),
      ]));
    });
  }
  parts.push(group("gnomes", {}, gnomes));
  // legend
  let kx = x + 150;
  const ly = y + 19;
  const legend = [];
  for (const [k, label] of [["meadow", "meadow"], ["forest", "forest"], ["mountain", "mountain"], ["black", "to the tower"], ["river", "river"], ["frog", "frog rider"]]) {
    if (k === "frog") {
      legend.push(circle(kx + 8, ly - 4, 7, { fill: "#7cc47c", stroke: "#2d6b2d", "stroke-width": 1.5 }));
    } else {
      const o = k === "river" ? { stroke: water, "stroke-width": 6 } : { stroke: k === "mountain" ? "#7d7d7d" : TERRAIN[k], "stroke-width": k === "mountain" ? 6 : 4,
                                                                        "stroke-dasharray": k === "black" ? "5 3" : null };
      legend.push(line(kx, ly - 4, kx + 16, ly - 4, o));
      if (k === "mountain") legend.push(line(kx, ly - 4, kx + 16, ly - 4, { stroke: TERRAIN.mountain, "stroke-width": 4 }));
    }
    legend.push(text(kx + 20, ly, label, { size: 11.5 }));
    kx += 30 + widthOf(label, 11.5) * 0.92;
  }
  legend.push(mushroom(x + 158, y + h - 17, "king"), text(x + 168, y + h - 11, "Montane King", { size: 11.5 }));
  parts.push(el("g", { "data-component": "legend" }, legend));
  return group("map", { "data-frozen": frozen ? "true" : "false" }, parts);
}

function placeName(v, place) {
  if (place === "tower") return "the Sorcerer's tower";
  if (MOUNTAIN_XY[place]) return `Gnome Mountain, ${LEVEL[place[0]]} space ${place}`;
  return (v.places || {})[place]?.name || place;
}

/** A place in short, for the player boards: "Inocybe (s06)", "Mountain g2 (grass)". */
function placeShort(v, place) {
  if (!place) return "nowhere yet";
  if (place === "tower") return "Sorcerer's tower";
  if (MOUNTAIN_XY[place]) return `Mountain ${place} (${LEVEL[place[0]]})`;
  const info = (v.places || {})[place];
  return info?.name ? `${humanise(info.name.replace(/ Shop$/, "").replace(/ gnome house$/, " house"))} (${place})` : place;
}

function siteTile(t, site, info, p) {
  const v = t.v;
  const kind = info?.kind;
  const w = TILE_W, h = TILE_H;
  let fill = "#fdf8e8", stroke = "#8c7a55", sw = 1.5;
  if (kind === "shop") fill = "#e8d4b0";
  if (kind === "house") { fill = PIECE[(info.name || "").split(" ")[0]] || "#ddd"; }
  if (kind === "village") {
    const buys = info.buys || [];
    stroke = buys.includes("blue") ? MUSHROOM.blue : MUSHROOM.red;
    sw = 3;
  }
  const ink = kind === "house" && /yellow|white/.test(info.name || "") ? INK : kind === "house" ? "#fff" : INK;
  const dim = kind === "house" ? ink : MUTED;
  const left = p[0] - w / 2, topY = p[1] - h / 2;
  // two lines: the name; what the site is (buys, house, shop) and its id
  let name = info?.name || site, second = "";
  if (kind === "house") { name = humanise((info.name || "").split(" ")[0]); second = "house"; }
  if (kind === "shop") {
    const words = String(info.name || "").replace(/ Shop$/, "");
    if (widthOf(words, 11.5, true) <= w - 6) { name = words; second = "shop"; } else {
      const cut = words.lastIndexOf(" ");
      name = cut > 0 ? words.slice(0, cut) : words;
      second = cut > 0 ? words.slice(cut + 1) : "shop";
    }
  }
  const parts = [
    rect(left, topY, w, h, { rx: 6, fill, stroke, "stroke-width": sw }),
    text(p[0], p[1] - 3, fit(name, w - 6, 11.5, true), { size: 11.5, anchor: "middle", weight: "bold", fill: ink }),
    text(left + w - 4, p[1] + 12, site, { size: 11.5, anchor: "end", fill: dim }),
  ];
  if (kind === "village") {
    parts.push(text(left + 4, p[1] + 12, "buys", { size: 11.5, fill: MUTED }));
    (info.buys || []).forEach((c, k) => parts.push(circle(left + 36 + k * 9, p[1] + 8, 3.8, { fill: MUSHROOM[c] || "#999", stroke: "#00000066" })));
  } else if (second) {
    parts.push(text(left + 4, p[1] + 12, fit(second, w - 8 - widthOf(site, 11.5), 11.5), { size: 11.5, fill: dim }));
  }
  // mushrooms growing here, on the tile's top edge from the right
  const ms = (v.mushrooms || {})[site] || [];
  ms.forEach((m, k) => parts.push(mushroom(left + w - 7 - k * 12, topY - 1, m)));
  // gems the village still pays (C.3), above the tile from the left
  const tile = info?.tile;
  const g = tile && (v.gems || {})[tile];
  // (closer together where mushrooms need the room)
  if (g) parts.push(gems(left + 1, topY - 8, g, false, gemsWidth(g, false, 5) + (ms.length ? 4 + 12 * ms.length : 0) > w - 2 ? 2 : 5));
  const gemWords = g ? `; pays ${["brown", "green", "white"].filter((c) => g[c]).map((c) => `${g[c]} ${c}`).join(", ") || "no more gems"}` : "";
  const grows = ms.length ? `; growing: ${ms.join(", ")}` : "";
  parts.push(title(`${info?.name || site} (${site})${kind === "village" ? `: buys ${(info.buys || []).join(" and ")} mushrooms` : ""}${gemWords}${grows}`));
  return el("g", { "data-place": site, "data-tile": tile || "", "data-kind": kind || "" }, parts);
}

function mushroom(x, y, colour) {
  return el("g", { "data-mushroom": colour }, [
    rect(x - 1.8, y - 1, 3.6, 7, { fill: "#f3ead2", stroke: "#00000066", "stroke-width": 0.6 }),
    path(`M${x - 6},${y} A6,5 0 0 1 ${x + 6},${y} Z`, { fill: MUSHROOM[colour] || "#999", stroke: "#00000088", "stroke-width": 0.8 }),
    colour === "king" ? circle(x, y - 2.5, 1.6, { fill: "#ffd84a" }) : "",
    title(colour === "king" ? "a Montane King mushroom" : `a ${colour} mushroom`),
  ]);
}

/** The width gems() takes for `g`. */
function gemsWidth(g, all = false, gap = 6) {
  return ["brown", "green", "white"].filter((c) => all || g[c]).reduce((a, c) => a + 9 + gap + widthOf(g[c] || 0, 11.5, true), -gap);
}

/** Gem counts as small diamonds with numbers, from (x, y) rightwards (`all`: zeros too). */
function gems(x, y, g, all = false, gap = 6) {
  const out = [];
  let px = x;
  for (const c of ["brown", "green", "white"]) {
    const n = g[c] || 0;
    if (!n && !all) continue;
    out.push(path(`M${px + 4},${y - 5} L${px + 8},${y} L${px + 4},${y + 5} L${px},${y} Z`, { fill: GEM[c], stroke: "#333", "stroke-width": 0.8 }));
    out.push(text(px + 9, y + 4, n, { size: 11.5, weight: "bold" }));
    px += 9 + widthOf(n, 11.5, true) + gap;
  }
  return el("g", { "data-gems": ["brown", "green", "white"].map((c) => g[c] || 0).join(",") },
            [...out, title(`gems: ${g.brown || 0} brown, ${g.green || 0} green, ${g.white || 0} white`)]);
}

function mountain(t, x, y, at) {
  const v = t.v;
  const cx = x + 74, cy = y + 264;
  const parts = [
    el("ellipse", { cx, cy, rx: 70, ry: 224, fill: "#a9c98a", stroke: "#5e7d45", "stroke-width": 2 }),
    el("ellipse", { cx: cx - 16, cy, rx: 48, ry: 158, fill: "#b6a58c", stroke: "#6b5a45", "stroke-width": 1.5 }),
    el("ellipse", { cx: cx - 38, cy, rx: 24, ry: 72, fill: "#f7f7f7", stroke: "#9a9a9a", "stroke-width": 1.5 }),
    text(x + 10, y + 19, "Gnome Mountain", { size: 12.5, weight: "bold", fill: "#2f3d22" }),
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
      circle(p[0], p[1], 13, { fill: level === "grass" ? "#dcefc8" : level === "rock" ? "#d8cbb4" : "#ffffff",
                               stroke: "#4d4d4d", "stroke-width": 1.2 }),
      text(p[0], p[1] + 4, id, { size: 11.5, anchor: "middle", weight: "bold" }),
      ...kings.map((m, k) => mushroom(p[0] - 5 + k * 11, p[1] - 14, m)),
      title(`Gnome Mountain, ${level} level, space ${id}${id === "n1" ? " (the summit)" : ""}${kings.length ? `: ${kings.length} Montane King mushroom(s)` : ""}`),
    ]));
  }
  parts.push(text(cx - 38, cy + 62, "snow", { size: 11.5, anchor: "middle", fill: MUTED }));
  parts.push(text(cx - 26, cy + 146, "rock", { size: 11.5, anchor: "middle", fill: "#4a3a25" }));
  parts.push(text(cx - 4, cy + 206, "grass", { size: 11.5, anchor: "middle", fill: "#2f3d22" }));
  return [el("g", {}, parts), group("mountain", {}, spaces)];
}

// -- the calendar track (F, G, H) --------------------------------------------------------------

function calendar(t, x, y, w, h) {
  const v = t.v;
  const wk = Math.max(0, Math.min(52, v.calendar ?? 0));
  const parts = [panel(x, y, w, h, "Calendar", { size: 13 }),
                 text(x + w - 10, y + 18, `week ${wk} of 52 \u00b7 round ${v.round ?? 1}`, { size: 12, anchor: "end", weight: "bold" })];
  const x0 = x + 10, x1 = x + w - 10, ty = y + 25;
  const at = (week) => x0 + ((x1 - x0) * week) / 52;
  for (const [season, a, b, fill] of SEASON_BANDS) {
    parts.push(el("g", { "data-season": season }, [
      rect(at(a), ty, at(b) - at(a), 16, { fill, stroke: "#9c8b6e", "stroke-width": v.season === season ? 2 : 0.8 }),
      text((at(a) + at(b)) / 2, ty + 12.5, humanise(season), { size: 11.5, anchor: "middle", weight: v.season === season ? "bold" : null }),
      title(`${humanise(season)}: weeks ${a}\u2013${b}${b === 52 ? "; the game ends at week 52" : ""}`),
    ]));
  }
  for (let k = 0; k <= 52; k++) {
    parts.push(line(at(k), ty + 16, at(k), ty + (k % 13 === 0 ? 22 : 19), { stroke: "#6b6257", "stroke-width": k % 13 === 0 ? 1.2 : 0.6 }));
  }
  CALENDAR_MARKS.forEach(([week, label], i) => {
    parts.push(text(x + 10, y + 62 + i * LINE, `Week ${week}: ${label}`, { size: 11.5, fill: MUTED }));
  });
  parts.push(el("g", { "data-component": "calendar-timer", "data-week": wk }, [
    path(`M${at(wk)},${ty + 16} l-6,9 h12 Z`, { fill: "#2f63b8", stroke: INK }),
    title(`the Calendar timer: week ${wk} of 52; the game ends at week 52`),
  ]));
  return group("calendar", { "data-week": wk, "data-season": v.season || "" }, parts);
}

// -- the timing track (C.1, D) ----------------------------------------------------------------

function timingTrack(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Timing track", { size: 13 }),
                 el("g", {}, [text(x + w - 10, y + 18, "top of a stack moves first", { size: 11.5, anchor: "end", fill: MUTED }),
                              title("the gnome timers' weeks this round (at most 7); the top of a stack moves first")])];
  const track = v.timing_track || [];
  const sw = (w - 16) / 8;
  for (let i = 0; i < 8; i++) {
    const sx = x + 8 + i * sw, sy = y + 24;
    const stack = track[i] || [];
    const cell = [rect(sx + 1, sy, sw - 2, h - 28, { rx: 4, fill: i === 0 ? "#efe3c4" : "#f7f0de", stroke: "#9c8b6e" }),
                  text(sx + sw / 2, sy + 13, i, { size: 11.5, anchor: "middle", weight: "bold", fill: MUTED })];
    stack.forEach((s, k) => {  // bottom of the stack first
      const py = sy + h - 36 - k * 12;
      cell.push(el("g", { "data-seat": s }, [
        rect(sx + 5, py - 5.5, sw - 10, 11, { rx: 5, fill: PIECE[t.colourOf(s)] || "#999", stroke: INK, "stroke-width": 0.8 }),
        text(sx + sw / 2, py + 4, s, { size: 11.5, anchor: "middle", weight: "bold", fill: t.colourOf(s) === "yellow" ? INK : "#fff" }),
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
  const parts = [panel(x, y, w, h, "Dream cards", { size: 13 }),
                 text(x + w - 10, y + 18, `travel deck ${v.travel_size ?? 0} \u00b7 discards ${(v.travel_discard || []).length}`,
                      { size: 11.5, anchor: "end", fill: MUTED })];
  const pw = (w - 10) / 3;
  ["1", "2", "3"].forEach((k, i) => {
    const cards = ((v.dream || {})[k] || []).map(cardName);
    const px = x + 5 + i * pw;
    const room = Math.floor((h - 28 - LINE - 4) / LINE);
    const shown = cards.length > room ? [...cards.slice(0, room - 1), `+${cards.length - room + 1} more`] : cards;
    parts.push(el("g", { "data-pile": k }, [
      rect(px + 1, y + 24, pw - 2, h - 28, { rx: 4, fill: "#eef0fa", stroke: "#7a7fa8" }),
      text(px + 5, y + 37, `${k} week${k === "1" ? "" : "s"}`, { size: 11.5, weight: "bold" }),
      ...(shown.length ? shown : ["(empty)"]).map((c, j) => text(px + 5, y + 37 + (j + 1) * LINE, fit(c, pw - 8, 11.5), { size: 11.5 })),
      title(`dream cards for ${k} week${k === "1" ? "" : "s"} of sleep: ${cards.join(", ") || "none"}`),
    ]));
  });
  return group("dream-cards", {}, parts);
}

function shops(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Shops", { size: 13 }),
                 text(x + w - 10, y + 18, `price in brown gems \u00b7 deck ${v.shop_size ?? 0}`, { size: 11.5, anchor: "end", fill: MUTED })];
  const sw = (w - 10) / 3;
  SHOPS.forEach(([id, label], i) => {
    const sx = x + 5 + i * sw;
    const stock = (v.shops || {})[id] || [];
    const here = Object.entries(v.places || {}).find(([, p]) => p.tile === id);
    const room = Math.floor((h - 28 - LINE - 2) / LINE);
    const shown = stock.length > room ? stock.slice(0, room - 1) : stock;
    const cell = [rect(sx + 1, y + 24, sw - 2, h - 28, { rx: 4, fill: "#f3e6cc", stroke: "#9c8b6e" }),
                  rect(sx + 1, y + 24, sw - 2, 17, { rx: 4, fill: "#e3cfa6" }),
                  text(sx + 5, y + 37, fit(label, sw - 8, 11.5), { size: 11.5 })];
    shown.forEach((c, k) => {
      const cy = y + 37 + (k + 1) * LINE;
      const treasure = TREASURE_VALUE[c] !== undefined;
      cell.push(el("g", { "data-card": c }, [
        treasure ? rect(sx + 3, cy - 11, sw - 6, 13, { rx: 2, fill: "#fff3c4" }) : "",
        text(sx + 5, cy, fit(cardName(c), sw - 12 - widthOf(COST[c] ?? "?", 11.5, true), 11.5), { size: 11.5 }),
        text(sx + sw - 5, cy, COST[c] ?? "?", { size: 11.5, anchor: "end", weight: "bold" }),
        title(`${cardName(c)}: costs ${COST[c] ?? "?"}${treasure ? `, a treasure worth ${TREASURE_VALUE[c]}` : ""}`),
      ]));
    });
    if (stock.length > shown.length) {
      const rest = stock.slice(shown.length);
      cell.push(el("g", {}, [text(sx + 5, y + 37 + (shown.length + 1) * LINE, `+${rest.length} more`, { size: 11.5, fill: MUTED }),
                             title(rest.map((c) => `${cardName(c)} (${COST[c] ?? "?"})`).join(", "))]));
    }
    if (!stock.length) cell.push(text(sx + 5, y + 37 + LINE, "(sold out)", { size: 11.5, fill: MUTED }));
    cell.push(title(`${label}${here ? ` (${here[0]})` : ""}: ${stock.map((c) => `${cardName(c)} ${COST[c] ?? "?"}`).join(", ") || "sold out"}`));
    parts.push(el("g", { "data-shop": id }, cell));
  });
  return group("shops", {}, parts);
}

function quests(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "The Sorcerer's quests", { size: 13 }),
                 text(x + w - 10, y + 18, `quest deck ${(v.quest_deck || []).length}`, { size: 11.5, anchor: "end", fill: MUTED })];
  const shown = v.quests || [];
  const room = Math.max(1, Math.floor((h - 22) / 33));
  shown.slice(0, room).forEach((q, i) => {
    const qy = y + 24 + i * 33;
    const [reward, task, penalty] = QUESTS[q] || ["?", humanise(q), "?"];
    const last = i === room - 1 && shown.length > room;
    const more = last ? shown.slice(room - 1).map((k) => (QUESTS[k] || [null, humanise(k)])[1]) : [];
    parts.push(el("g", { "data-quest": q }, [
      rect(x + 8, qy, w - 16, 31, { rx: 4, fill: "#efe9f6", stroke: "#7a6a9a" }),
      text(x + 13, qy + 13, fit(humanise(task), w - 100, 11.5), { size: 11.5 }),
      text(x + w - 13, qy + 13, `penalty \u2212${penalty}`, { size: 11.5, anchor: "end", fill: "#8a2a2a" }),
      text(x + 13, qy + 27, fit(last ? `+${more.length - 1} more quests` : `Reward: ${reward}`, w - 26, 11.5), { size: 11.5, fill: MUTED }),
      title(`Quest: ${task}. Reward now: ${reward}; penalty if unfinished: \u2212${penalty}${more.length ? `. Also on display: ${more.slice(1).join("; ")}` : ""}`),
    ]));
  });
  if (!shown.length) parts.push(text(x + 10, y + 42, "No quest on display", { size: 11.5, fill: MUTED }));
  return group("quests", {}, parts);
}

// -- the seats ---------------------------------------------------------------------------------

/** The player boards: one table, a column per seat (the seat's group), a row per part. */
function playerBoards(t, x, y, w, h) {
  const v = t.v;
  const n = Math.max(1, t.players.length);
  const lw = 58, cw = (w - lw - 6) / n;
  const final = (p) => v.final?.breakdown?.[p.seat] || (outcomeOf(v, t.ctx)?.breakdown || [])[p.seat];
  const over = t.players.some((p) => final(p));
  // rows: [label, lines]; the hand takes what is left (lines of LINE units under the seats' bands)
  const first = y + 37, total = Math.floor((h - 8 - 37) / 14) + 1;
  const rows = [["Where", 1], ["Basket", 1], ["Gems", 1], ["Items", 2], ["Quest", 1]];
  const used = rows.reduce((a, [, k]) => a + k, 0) + (over ? 1 : 0);
  rows.push(["Hand", Math.max(1, total - used)]);
  if (over) rows.push(["Final", 1]);
  const parts = [rect(x, y, w, h, { rx: 8, fill: PAPER, stroke: "#9c8b6e", "stroke-width": 1.5 })];
  const tips = { Where: "where the gnome is and its gnome timer (weeks this round)", Basket: "the mushrooms in the basket",
                 Gems: "gems (brown, green, white) and golden mushrooms", Items: "equipment: items, maps and treasures",
                 Quest: "the Sorcerer's quest the gnome has taken", Hand: "the hand of travel and treasure cards",
                 Final: "the final score's parts" };
  let ly = first;
  const at = {};
  for (const [label, k] of rows) {
    at[label] = ly;
    parts.push(el("g", {}, [text(x + 8, ly, label, { size: 12, weight: "bold" }), title(tips[label])]));
    ly += 14 * k;
  }
  if (!t.players.length) parts.push(text(x + lw + 8, y + 18, "No seats yet", { size: 12, fill: MUTED }));
  const boards = t.players.map((p, i) => playerBoard(t, p, x + lw + i * cw, y, cw, h, rows, at, final(p)));
  return group("player-boards", {}, [...parts, ...boards]);
}

function playerBoard(t, p, x, y, w, h, rows, at, final) {
  const v = t.v;
  const mine = t.seat === p.seat;
  const colour = PIECE[p.colour] || "#999";
  const ink = p.colour === "yellow" || p.colour === "white" ? INK : "#fff";
  const g = p.gems || {};
  const gemValue = Object.entries(GEM_VALUE).reduce((a, [c, val]) => a + (g[c] || 0) * val, 0);
  const lines = Object.fromEntries(rows);
  const cx = x + 6, room = w - 14;
  const score = final ? `${final.total} point${Math.abs(final.total) === 1 ? "" : "s"}` : `gems ${gemValue} pts`;
  const nameRoom = room - widthOf(score, 12, true) - 8;
  const name = [`${t.nameOf(p.seat)} \u00b7 ${p.colour}`, t.nameOf(p.seat)]
    .map((s) => `${toMoveOf(v, t.ctx).includes(p.seat) && !final ? "\u25b6 " : ""}${s}`)
    .find((s, k) => k === 1 || widthOf(s, 12.5, true) <= nameRoom);
  const parts = [
    rect(x + 2, y + 3, w - 4, h - 6, { rx: 6, fill: mine ? "#fffdf4" : "none", stroke: colour, "stroke-width": mine ? 3 : 1.5 }),
    rect(x + 2, y + 3, w - 4, 20, { rx: 6, fill: colour }),
    el("g", {}, [text(cx, y + 18, fit(name, nameRoom, 12.5, true), { size: 12.5, weight: "bold", fill: ink }),
                 title(`${t.nameOf(p.seat)}, ${p.colour}${mine ? " (this is your seat)" : ""}`)]),
    el("g", { "data-component": "score", "data-gem-value": gemValue }, [
      text(x + w - 8, y + 18, score, { size: 12, weight: "bold", anchor: "end", fill: ink }),
      title(final ? `final score: ${final.total} points` : `gems worth ${gemValue} points (brown 1, green 2, white 3)`),
    ]),
  ];
  const cell = (label, strs, o = {}) => el("g", o.attrs || {}, [
    ...strs.slice(0, lines[label]).map((s, k) => text(cx, at[label] + k * 14, s, { size: 12, fill: o.fill })),
    o.tip ? title(o.tip) : "",
  ]);
  // Where
  const timer = p.timer ?? 0;
  parts.push(cell("Where", [fit(`${placeShort(v, p.place)} \u00b7 timer ${timer}`, room)],
                  { tip: `${placeName(v, p.place)}; gnome timer: ${timer} week(s) on the timing track` }));
  // Basket
  const basket = (p.basket || []).map((m) => (m === "king" ? "Montane King" : m));
  parts.push(cell("Basket", basket.length ? packList(counted(basket), room, 1) : ["empty"],
                  { tip: `basket: ${basket.join(", ") || "empty"}` }));
  // Gems and golden mushrooms
  const gy = at.Gems;
  const gx = cx + 2;
  const golden = p.golden ? `golden mushrooms ${p.golden}` : "";
  const gw = gemsWidth(g, true) + 12;
  parts.push(el("g", {}, [
    gems(gx, gy - 4, g, true),
    golden ? text(gx + gw, gy, fit(golden, room - gw), { size: 12 }) : "",
    title(`gems: ${g.brown || 0} brown, ${g.green || 0} green, ${g.white || 0} white${p.golden ? `; golden mushrooms: ${p.golden}` : ""}`),
  ]));
  // Items
  const items = (p.equipment || []).map(cardName);
  parts.push(cell("Items", items.length ? packList(items, room, lines.Items) : ["none"], { tip: `items: ${items.join(", ") || "none"}` }));
  // Quest
  const quest = p.quest ? (QUESTS[p.quest] || [null, humanise(p.quest)])[1] : "none";
  const done = (p.quests_done || []).length;
  parts.push(cell("Quest", [fit(`${humanise(quest)}${done ? ` (${done} done)` : ""}`, room)],
                  { tip: `quest: ${quest}${p.quest && QUESTS[p.quest] ? `; reward ${QUESTS[p.quest][0]}, penalty \u2212${QUESTS[p.quest][2]}` : ""}${done ? `; ${done} done: ${p.quests_done.map((q) => (QUESTS[q] || [null, humanise(q)])[1]).join(", ")}` : ""}` }));
  // Hand: the seat's own cards in its own view, else how many
  if (t.secrets === p.seat && Array.isArray(v.hand)) {
    const cards = v.hand.map(cardName);
    const treasures = v.hand.filter((c) => TREASURE_VALUE[c] !== undefined).map((c) => `${cardName(c)} (worth ${TREASURE_VALUE[c]})`);
    parts.push(el("g", { "data-component": "hand", "data-secret": p.seat }, [
      ...(cards.length ? packList(counted(cards), room, lines.Hand) : ["no cards"])
        .map((s, k) => text(cx, at.Hand + k * 14, s, { size: 12 })),
      title(`your hand (${cards.length}): ${cards.join(", ") || "no cards"}${treasures.length ? `; treasures: ${treasures.join(", ")}` : ""}`),
    ]));
  } else {
    parts.push(el("g", { "data-component": "hand-size" }, [
      text(cx, at.Hand, `${p.hand_size ?? 0} card(s), face down`, { size: 12 }),
    ]));
  }
  if (final && at.Final) {
    const names = { gems: "gems", nuggets: "nuggets", golden: "golden", treasure: "treasure", quest: "quest", mountain: "mountain" };
    const all = Object.keys(names).filter((k) => final[k] !== undefined).map((k) => `${names[k]} ${final[k]}`);
    const some = Object.keys(names).filter((k) => final[k]).map((k) => `${names[k]} ${final[k]}`);
    parts.push(cell("Final", packList(some.length ? some : ["nothing scored"], room, 1), { tip: `final score ${final.total}: ${all.join(", ")}` }));
  }
  return el("g", { "data-component": "player-board", "data-seat": p.seat, "data-colour": p.colour }, parts);
}
