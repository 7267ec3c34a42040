// The table of Resource Hog, drawn from a player view.
//
// render(view, ctx) -> SVG string (README.md in this folder gives the interface). The
// specification (resource-hog-actions-and-events.txt, resource-hog-components.md) names the
// pieces drawn here: land areas with field and forest squares, game, mines, harbours, roads,
// manors, mottes and castles and stone heads; sea and lake areas with their fish pools; each
// area's store of goods; peasants and nobles in each player's colour; the trading board with
// its columns of goods and priced slots, the slave and mercenary tracks; and the three action
// tokens of each player. It prints no map, no round and no prices: the eight land areas in a
// ring round the Mere between the Western and Eastern Seas, the orders, the 8 rounds, the
// trading board's prices and the wealth that wins are the house rules of docs/house-rules.md
// (Resource Hog: the map, the round, costs, the trading board). A seat's orders before they are
// revealed are its secret, drawn in its own view alone (data-secret).

import {
  INK, MUTED, PIECE, SEAT_COLOURS, W, circle, clip, el, grid, group, humanise, inner, lines, panel, path, piece, rect,
  outcomeOf, seatLabel, secretsOf, statusLine, svgDoc, toMoveOf, text, title,
} from "./svg.js";

/** The land areas' names and coasts, and which have ore (house rules: the map). */
const LANDS = {
  L1: ["Ashby", "west_sea", false], L2: ["Brackenholm", "west_sea", true], L3: ["Cragmoor", "west_sea", true],
  L4: ["Dunfield", "west_sea", false], L5: ["Eastwold", "east_sea", false], L6: ["Fernhollow", "east_sea", true],
  L7: ["Greystone", "east_sea", true], L8: ["Harrowmere", "east_sea", false],
};
const WATERS = { west_sea: ["the Western Sea", 12], east_sea: ["the Eastern Sea", 12], mere: ["the Mere", 8] };
/** Trading board prices, bottom row first (house rules: the trading board). */
const PRICES = { preserved: [6, 5, 4, 3, 2], salt: [5, 4, 3, 2, 1], weapons: [12, 10, 8, 6, 4] };
const GOODS = [["preserved", "Preserved food"], ["salt", "Salt"], ["weapons", "Arms and armour"]];
const GOOD_COLOUR = { preserved: "#e07b24", salt: "#f4f4f4", weapons: "#7b4aa8", fish: "#3f9142", meat: "#c8372d",
                      grain: "#e2b812", gold: "#d4a017" };
const SLAVE_PRICE = 8, MERCENARY_PRICE = 10, ROUNDS = 8;
/** Wealth at the end (house rules): money, 5 a noble, 2 a peasant, and the buildings. */
const WEALTH = { noble: 5, peasant: 2, road: 1, harbour: 3, mine: 3, manor: 5, motte: 12, castle: 25, stone_head: 4 };
const ACTIONS = { peasants: "Peasants", nobles: "Nobles", trade: "Trade" };
const WORK = { fish: "fish", hunt: "hunt", toil: "toil", mine: "mine", clear: "clear", build: "build",
               population: "population", knight: "knighting" };

/** The table of Resource Hog: see the header comment. */
export function render(view, ctx = {}) {
  const v = inner(view);
  const seat = ctx.seat ?? null;
  const players = v.players || [];
  const t = {
    v, ctx, seat, players, secrets: secretsOf(v, ctx), nameOf: (s) => seatLabel(ctx, s),
    colourOf: (s) => SEAT_COLOURS[s % SEAT_COLOURS.length],
  };
  // the map, the round track, the trading board beside the action tokens, the player boards two a row
  const top = 46;
  const boards = grid(Math.max(1, players.length), 10, top + 556 + 6 + 76 + 6 + 270 + 8, W - 20, 188);
  return svgDoc("Resource Hog", [
    header(t),
    map(t, 10, top, W - 20, 556),
    roundTrack(t, 10, top + 562, W - 20, 76),
    tradingBoard(t, 10, top + 644, 480, 270),
    orders(t, 498, top + 644, W - 508, 270),
    playerBoards(t, boards),
  ], { game: "resource_hog", seat, background: "#e6e2d6", height: boards.bottom + 8 });
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
  return group("header", {}, [
    text(12, 28, "Resource Hog", { size: 20, weight: "bold" }),
    text(178, 28, `Round ${Math.min(v.round || 1, ROUNDS)} of ${ROUNDS} \u00b7 ${stageName(v)}`, { size: 13, fill: MUTED }),
    text(W - 12, 28, clip(status, 60), { size: 13, anchor: "end", weight: "bold" }),
  ]);
}

function stageName(v) {
  switch (v.stage) {
    case "orders": return "orders: every seat orders its three action tokens in secret";
    case "actions": return `actions: token ${(v.step ?? 0) + 1} of 3`;
    case "events": return "the round's events";
    case "over": return "the game is over";
    default: return humanise(v.stage || "set-up");
  }
}

// -- the map (house rules: eight land areas round the Mere, two seas) ------------------------

function map(t, x, y, w, h) {
  const v = t.v;
  const parts = [rect(x, y, w, h, { rx: 8, fill: "#d6e6c5", stroke: "#7d8f5a", "stroke-width": 1.5 })];
  const seaW = 74, landW = Math.max(234, Math.round((w - 2 * seaW - 16 - 240) / 2)), landH = (h - 40) / 4, gap = 10;
  const westX = x + seaW + 8, eastX = x + w - seaW - 8 - landW;
  const top = y + 30;
  parts.push(water(t, "west_sea", x + 6, y + 6, seaW, h - 12));
  parts.push(water(t, "east_sea", x + w - seaW - 6, y + 6, seaW, h - 12));
  const mx = (westX + landW + eastX) / 2, my = top + (h - 40) / 2;
  parts.push(water(t, "mere", mx, my, (eastX - westX - landW) / 2 - 6, (h - 40) / 2 - 30, true));
  const legend = [["#e8d36a", "field"], ["#3f7f3a", "forest"], ["#9a9a9a", "stone head"]];
  legend.forEach(([fill, label], i) => {
    parts.push(rect(mx - 34, my + 70 + i * 18, 12, 12, { rx: 2, fill, stroke: "#00000066" }));
    parts.push(text(mx - 18, my + 80 + i * 18, label, { size: 10.5, fill: "#fff" }));
  });
  parts.push(circle(mx - 28, my + 130, 3.2, { fill: GOOD_COLOUR.meat, stroke: "#fff" }));
  parts.push(text(mx - 18, my + 134, "game", { size: 10.5, fill: "#fff" }));
  // the ring: L1-L4 down the west, L5-L8 up the east; L4-L5 and L8-L1 meet round the Mere's ends
  const pos = {};
  ["L1", "L2", "L3", "L4"].forEach((id, i) => { pos[id] = [westX, top + i * landH]; });
  ["L8", "L7", "L6", "L5"].forEach((id, i) => { pos[id] = [eastX, top + i * landH]; });
  parts.push(path(`M${westX + landW - 20},${top + 6} Q${mx},${top - 16} ${eastX + 20},${top + 6}`,
                  { fill: "none", stroke: "#8c7a55", "stroke-width": 2, "stroke-dasharray": "4 3" }));
  parts.push(path(`M${westX + landW - 20},${top + 4 * landH - gap - 2} Q${mx},${top + 4 * landH + 14} ${eastX + 20},${top + 4 * landH - gap - 2}`,
                  { fill: "none", stroke: "#8c7a55", "stroke-width": 2, "stroke-dasharray": "4 3" }));
  parts.push(text(mx, top - 2, "L8 \u2013 L1 border", { size: 10, anchor: "middle", fill: MUTED }));
  parts.push(text(mx, top + 4 * landH + 4, "L4 \u2013 L5 border", { size: 10, anchor: "middle", fill: MUTED }));
  for (const id of Object.keys(LANDS)) {
    const [lx, ly] = pos[id];
    parts.push(land(t, id, (v.lands || {})[id], lx, ly, landW, landH - gap));
  }
  return group("map", {}, parts);
}

function water(t, id, x, y, w, h, lake = false) {
  const v = t.v;
  const [label, max] = WATERS[id];
  const fish = (v.fish || {})[id] ?? 0;
  const shape = lake
    ? el("ellipse", { cx: x, cy: y, rx: w, ry: h, fill: "#8fc0e8", stroke: "#4a86bf", "stroke-width": 2 })
    : rect(x, y, w, h, { rx: 10, fill: "#7fb3e0", stroke: "#4a86bf", "stroke-width": 1.5 });
  const cx = lake ? x : x + w / 2, cy = lake ? y : y + h / 2;
  const words = label.replace(/^the /, "").split(" ");
  return el("g", { "data-water": id, "data-fish": fish }, [
    shape,
    lines(cx, cy - 26, words, { size: 12, anchor: "middle", weight: "bold", fill: "#fff", gap: 14 }),
    circle(cx - 10, cy + 10, 6, { fill: GOOD_COLOUR.fish, stroke: "#fff" }),
    text(cx + 2, cy + 15, fish, { size: 15, weight: "bold", fill: "#fff" }),
    text(cx, cy + 32, `fish (max ${max})`, { size: 10, anchor: "middle", fill: "#fff" }),
    title(`${label}: ${fish} fish of at most ${max}`),
  ]);
}

function land(t, id, L, x, y, w, h) {
  const [name, coast, ore] = LANDS[id];
  const a = L || {};
  const owner = a.owner;
  const colour = owner === null || owner === undefined ? null : t.colourOf(owner);
  const parts = [rect(x, y, w, h, { rx: 8, fill: colour ? "#fbf6e6" : "#efeadb", stroke: colour ? PIECE[colour] : "#9c8b6e",
                                    "stroke-width": colour ? 3 : 1.2 })];
  parts.push(text(x + 8, y + 17, `${id} ${name}`, { size: 13, weight: "bold" }));
  parts.push(text(x + w - 8, y + 17, colour ? t.nameOf(owner) : "no one's", { size: 11, anchor: "end", weight: colour ? "bold" : null,
                                                                               fill: colour ? PIECE[colour] : MUTED }));
  // pieces: peasants and nobles of the owner, invaders' nobles
  let px = x + 14;
  const py = y + 36;
  if (colour) {
    parts.push(el("g", { "data-pieces": "peasants", "data-count": a.peasants ?? 0 }, [
      piece(px, py, colour, a.peasants ?? 0, { r: 9, size: 10 }), text(px + 13, py + 4, "peasants", { size: 11 }),
      title(`${a.peasants ?? 0} peasant(s)${a.moved ? `, ${a.moved} moved this phase` : ""}`),
    ]));
    px += 80;
    parts.push(el("g", { "data-pieces": "nobles", "data-count": a.nobles ?? 0 }, [
      piece(px, py, colour, a.nobles ?? 0, { r: 9, size: 10, stroke: INK, strokeWidth: 2.5 }),
      circle(px + 6, py - 6, 2.2, { fill: INK }),
      text(px + 13, py + 4, "nobles", { size: 11 }),
      title(`${a.nobles ?? 0} noble(s)${a.attacked ? `, ${a.attacked} attacked this round` : ""}`),
    ]));
    px += 68;
  }
  for (const [s, n] of Object.entries(a.invaders || {})) {
    if (!n) continue;
    parts.push(el("g", { "data-invaders": s }, [
      piece(px, py, t.colourOf(Number(s)), n, { r: 9, size: 10, stroke: INK, strokeWidth: 2.5 }),
      title(`${n} noble(s) of ${t.nameOf(Number(s))} moved in this round`),
    ]));
    px += 24;
  }
  // squares: fields, forests (a game token on each that still has game), stone heads
  const sq = [];
  let qx = x + 8;
  const square = (fill, label, dot) => {
    sq.push(rect(qx, y + 49, 14, 14, { rx: 2, fill, stroke: "#00000066" }));
    if (dot) sq.push(circle(qx + 7, y + 56, 3.2, { fill: GOOD_COLOUR.meat, stroke: "#fff", "stroke-width": 0.8 }));
    sq.push(title(label));
    qx += 17;
  };
  for (let i = 0; i < (a.fields ?? 0); i++) square("#e8d36a", "a field square", false);
  for (let i = 0; i < (a.forests ?? 0); i++) square("#3f7f3a", i < (a.game ?? 0) ? "a forest square with game" : "a forest square", i < (a.game ?? 0));
  for (let i = 0; i < (a.stone_heads ?? 0); i++) square("#9a9a9a", "a stone head", false);
  parts.push(el("g", { "data-squares": `${a.fields ?? 0},${a.forests ?? 0},${a.game ?? 0},${a.stone_heads ?? 0}` }, sq));
  parts.push(text(qx + 4, y + 60, `game ${a.game ?? 0}`, { size: 10.5, fill: MUTED }));
  const blds = (a.buildings || []).map(humanise);
  const where = [coast === "west_sea" ? "Western Sea coast" : "Eastern Sea coast", ore ? "ore" : null].filter(Boolean).join(", ");
  parts.push(text(x + 8, y + 75, clip(blds.length ? blds.join(", ") : `no buildings (${where})`, 38), { size: 11,
                                                                                                  fill: blds.length ? INK : MUTED }));
  // store
  const store = a.store || {};
  let sx = x + 8;
  for (const [g, label] of [["preserved", "food"], ["salt", "salt"], ["weapons", "arms"]]) {
    parts.push(el("g", { "data-good": g, "data-count": store[g] ?? 0 }, [
      rect(sx, y + 83, 10, 10, { rx: 2, fill: GOOD_COLOUR[g], stroke: "#00000077" }),
      text(sx + 13, y + 92, `${label} ${store[g] ?? 0}`, { size: 11 }),
    ]));
    sx += 68;
  }
  // work and fresh food this round
  const work = Object.entries(a.work || {}).map(([k, n]) => {
    const [kind, arg] = k.split(":");
    return `${WORK[kind] || kind}${arg ? " " + humanise(arg).toLowerCase() : ""} ${n}`;
  });
  const fresh = Object.entries(a.fresh || {}).filter(([, n]) => n).map(([k, n]) => `${k} ${n}`);
  const busy = [work.length ? `work: ${work.join(", ")}` : "", fresh.length ? `fresh: ${fresh.join(", ")}` : ""].filter(Boolean).join("; ");
  if (busy && h > 104) parts.push(text(x + 8, y + h - 8, clip(busy, 40), { size: 10, fill: MUTED }));
  parts.push(title(`${id} ${name}: ${[coast === "west_sea" ? "on the Western Sea" : "on the Eastern Sea", ore ? "has ore" : null].filter(Boolean).join(", ")}`));
  return el("g", { "data-land": id, "data-owner": owner ?? "" }, parts);
}

// -- the trading board (house rules: the trading board) ------------------------------------------

function tradingBoard(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Trading board")];
  parts.push(text(x + w - 10, y + 19, "buy the highest filled slot; sell into the lowest free one", { size: 10, anchor: "end", fill: MUTED }));
  const cw = 110, rh = 34, bx = x + 14, by = y + 40;
  GOODS.forEach(([g, label], c) => {
    const n = (v.board || {})[g] ?? 0;
    const cx = bx + c * (cw + 8);
    const col = [text(cx + cw / 2, by - 4, label, { size: 11.5, anchor: "middle", weight: "bold" })];
    for (let row = 0; row < 5; row++) {
      const ry = by + (4 - row) * rh;
      col.push(rect(cx, ry, cw, rh - 4, { rx: 3, fill: row === 4 ? "#efe6d2" : "#f8f2e2", stroke: "#9c8b6e" }));
      col.push(text(cx + 6, ry + 19, PRICES[g][row], { size: 13, weight: "bold", fill: "#7a5a1a" }));
      for (let k = 0; k < 2; k++) {
        const filled = row * 2 + k < n;
        col.push(rect(cx + 34 + k * 40, ry + 4, 34, rh - 12, { rx: 3, fill: filled ? GOOD_COLOUR[g] : "none",
                                                               stroke: "#00000055", "stroke-dasharray": filled ? null : "3 2" }));
      }
    }
    if (n > 10) col.push(text(cx + cw / 2, by - 18, `+${n - 10} in the top row`, { size: 10, anchor: "middle", fill: MUTED }));
    col.push(title(`${label}: ${n} on the board`));
    parts.push(el("g", { "data-good": g, "data-count": n }, col));
  });
  parts.push(text(bx, by + 5 * rh + 12, "top row: buys any number, counted as two; middle row half full is the balance",
                  { size: 10, fill: MUTED }));
  // slave and mercenary tracks
  const tx = bx + 3 * (cw + 8) + 4;
  parts.push(el("g", { "data-component": "slave-track" }, [
    text(tx, by + 10, "Slaves", { size: 12, weight: "bold" }),
    text(tx, by + 27, `on offer: ${v.slave_track ?? 0}`, { size: 11.5 }),
    text(tx, by + 42, `price ${SLAVE_PRICE}`, { size: 11, fill: MUTED }),
    text(tx, by + 57, `stack: ${v.slaves ?? 0} left`, { size: 11, fill: MUTED }),
  ]));
  parts.push(el("g", { "data-component": "mercenary-track" }, [
    text(tx, by + 90, "Mercenaries", { size: 12, weight: "bold" }),
    text(tx, by + 107, `on offer: ${v.mercenary_track ?? 0}`, { size: 11.5 }),
    text(tx, by + 122, `price ${MERCENARY_PRICE}`, { size: 11, fill: MUTED }),
  ]));
  if ((v.traded || []).length) {
    parts.push(text(tx, by + 150, "this trade:", { size: 10.5, fill: MUTED }));
    parts.push(lines(tx, by + 163, v.traded.map((s) => humanise(s.replace(":", " "))), { size: 10.5, gap: 12 }));
  }
  return group("trading-board", {}, parts);
}

// -- rounds, orders and the action tokens (house rules: the round) ---------------------------

function roundTrack(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Rounds")];
  const round = v.round || 1;
  const cw = (w - 100) / ROUNDS;
  for (let r = 1; r <= ROUNDS; r++) {
    const rx = x + 90 + (r - 1) * cw;
    const now = r === round && v.stage !== "over";
    parts.push(el("g", { "data-round": r }, [
      rect(rx + 2, y + 12, cw - 4, h - 22, { rx: 4, fill: now ? "#2f63b8" : r < round || v.stage === "over" ? "#d9d2bf" : "#f8f2e2",
                                             stroke: "#9c8b6e" }),
      text(rx + cw / 2, y + h / 2 + 6, r, { size: 14, anchor: "middle", weight: "bold", fill: now ? "#fff" : INK }),
    ]));
  }
  parts.push(text(x + 10, y + h - 12, v.stage === "over" ? "over" : `stage: ${v.stage || "-"}`, { size: 11, fill: MUTED }));
  return group("round-track", { "data-round": round }, parts);
}

function orders(t, x, y, w, h) {
  const v = t.v;
  const parts = [panel(x, y, w, h, "Action tokens")];
  let ly = y + 42;
  const revealed = v.orders || {};
  for (const p of t.players) {
    const s = p.seat;
    const colour = t.colourOf(s);
    const row = [piece(x + 18, ly - 4, colour, s, { r: 8, size: 10 }), text(x + 32, ly, clip(t.nameOf(s), 18), { size: 12, weight: "bold" })];
    const shown = revealed[String(s)];
    if (shown) {
      shown.forEach((a, i) => row.push(token(x + w - 278 + i * 92, ly - 14, a, colour, i === v.step && v.stage === "actions")));
    } else if (t.secrets === s && v.my_orders) {
      const mine = [];
      v.my_orders.forEach((a, i) => mine.push(token(x + w - 278 + i * 92, ly - 14, a, colour, false)));
      mine.push(text(x + 32, ly + 12, "your secret order", { size: 10, fill: MUTED }));
      row.push(el("g", { "data-component": "my-orders", "data-secret": s }, mine));
    } else {
      row.push(text(x + w - 278, ly, p.ordered ? "orders given, face down" : "ordering\u2026", { size: 11.5, fill: MUTED }));
    }
    parts.push(el("g", { "data-seat": s }, row));
    ly += 28;
  }
  // the mixed queue of this step
  if ((v.queue || []).length && v.stage === "actions") {
    ly += 4;
    parts.push(text(x + 10, ly, `Token ${(v.step ?? 0) + 1}, mixed order:`, { size: 11.5, weight: "bold" }));
    let qx = x + 160;
    v.queue.forEach(([s, a], i) => {
      const done = i < (v.turn ?? 0), now = i === (v.turn ?? 0);
      parts.push(el("g", { "data-queue": i }, [
        rect(qx, ly - 13, 96, 18, { rx: 9, fill: now ? PIECE[t.colourOf(s)] : "#f8f2e2", stroke: PIECE[t.colourOf(s)],
                                    "stroke-width": 1.5, opacity: done ? 0.5 : 1 }),
        text(qx + 48, ly, `${s}: ${ACTIONS[a] || humanise(a)}`, { size: 10.5, anchor: "middle",
                                                                fill: now && t.colourOf(s) !== "yellow" ? "#fff" : INK }),
      ]));
      qx += 100;
      if (qx + 96 > x + w) { qx = x + 160; ly += 22; }
    });
    ly += 24;
  }
  if (v.fighting !== null && v.fighting !== undefined) {
    parts.push(text(x + 10, ly, `${t.nameOf(v.fighting)} fights its battles`, { size: 11.5, weight: "bold", fill: "#8a2020" }));
    ly += 16;
  }
  if (v.ransom) {
    const r = v.ransom;
    parts.push(text(x + 10, ly, `Ransom in ${r.area}: ${t.nameOf(r.loser)} pays ${t.nameOf(r.winner)} a margin of ${r.margin}`,
                    { size: 11.5, weight: "bold", fill: "#8a2020" }));
  }
  return group("orders", {}, parts);
}

function token(x, y, action, colour, now) {
  return el("g", { "data-token": action }, [
    rect(x, y, 86, 20, { rx: 10, fill: now ? PIECE[colour] : "#fffdf6", stroke: PIECE[colour], "stroke-width": 2 }),
    text(x + 43, y + 14, ACTIONS[action] || humanise(action), { size: 11.5, anchor: "middle", weight: "bold",
                                                               fill: now && colour !== "yellow" ? "#fff" : INK }),
  ]);
}

// -- the seats ----------------------------------------------------------------------------------

function playerBoards(t, boxes) {
  return group("player-boards", {}, t.players.map((p, i) => playerBoard(t, p, ...boxes[i])));
}

function playerBoard(t, p, x, y, w, h) {
  const v = t.v;
  const s = p.seat;
  const colour = t.colourOf(s);
  const ink = colour === "yellow" ? INK : "#fff";
  const mine = t.seat === s;
  const lands = Object.values(v.lands || {}).filter((a) => a.owner === s);
  const sum = (k) => lands.reduce((acc, a) => acc + (a[k] || 0), 0);
  const peasants = sum("peasants"), nobles = sum("nobles");
  const buildings = lands.flatMap((a) => a.buildings || []);
  const stoneHeads = sum("stone_heads");
  const wealth = (p.money || 0) + WEALTH.noble * nobles + WEALTH.peasant * peasants +
    buildings.reduce((acc, b) => acc + (WEALTH[b] || 0), 0) + WEALTH.stone_head * stoneHeads;
  const final = (v.final?.breakdown || [])[s];
  const store = { preserved: sum2(lands, "preserved"), salt: sum2(lands, "salt"), weapons: sum2(lands, "weapons") };
  const toMove = toMoveOf(v, t.ctx).includes(s) && !final;
  const parts = [
    rect(x, y, w, h, { rx: 8, fill: mine ? "#fffdf4" : "#f8f6ee", stroke: PIECE[colour], "stroke-width": mine ? 3.5 : 2 }),
    rect(x, y, w, 26, { rx: 8, fill: PIECE[colour] }), rect(x, y + 14, w, 12, { fill: PIECE[colour] }),
    text(x + 10, y + 18, `${toMove ? "\u25b6 " : ""}${t.nameOf(s)} \u00b7 ${colour}`, { size: 13, weight: "bold", fill: ink }),
    el("g", { "data-component": "score", "data-wealth": final ? final.total : wealth },
       text(x + w - 10, y + 18, final ? `wealth ${final.total}` : `wealth ${wealth}`, { size: 13, weight: "bold", anchor: "end", fill: ink })),
  ];
  const cx = x + 10;
  let ly = y + 44;
  const row = (label, value) => {
    parts.push(text(cx, ly, label, { size: 12.5, weight: "bold" }));
    parts.push(text(cx + 84, ly, clip(value, Math.floor((w - 100) / 6.8)), { size: 12.5 }));
    ly += 18;
  };
  row("Purse", `${p.money ?? 0} money`);
  row("Lands", lands.length ? lands.map((a) => `${a.id} ${LANDS[a.id]?.[0] || ""}`.trim()).join(", ") : "none");
  row("Pieces", `${peasants} peasant(s), ${nobles} noble(s)`);
  row("Goods", `food ${store.preserved}, salt ${store.salt}, arms ${store.weapons}`);
  row("Buildings", buildings.length || stoneHeads ? [...buildings.map(humanise), ...(stoneHeads ? [`${stoneHeads} stone head(s)`] : [])].join(", ") : "none");
  if (final) {
    row("Final", `money ${final.money}, nobles ${final.nobles}, peasants ${final.peasants}, buildings ${final.buildings}`);
  } else {
    parts.push(text(cx, y + h - 10, "wealth: money + 5 a noble + 2 a peasant + buildings", { size: 10, fill: MUTED }));
  }
  return el("g", { "data-component": "player-board", "data-seat": s, "data-colour": colour }, parts);
}

function sum2(lands, good) {
  return lands.reduce((acc, a) => acc + ((a.store || {})[good] || 0), 0);
}
