// A replay: a step slider over a game's log; at each version, the public view as it was then
// (GET /games/<id>/view?version=v, no token: a spectator's view, so no hidden information) and the
// log up to that entry. The log is the game's public stream read to its end (?max_events=).
//
// For tests, document.body.dataset.step is the version drawn once it is on the page.

import { PAGE, api, el, humanise, parseSse } from "./api.js";
import { drawView, scoresOf } from "./board.js";
import { eventLine } from "./words.js";

const gameId = PAGE.game_id;
const game = PAGE.game;
const $ = (id) => document.getElementById(id);
const views = new Map();
let entries = [];
let summary = null;
let timer = null;
let wanted = 1;

function who(seat) {
  if (seat === null || seat === undefined || seat < 0) return "The rules";
  const bot = summary?.bots?.[String(seat)];
  return `Seat ${seat}${bot ? ` (${bot} bot)` : ""}`;
}

async function viewAt(v) {
  if (!views.has(v)) views.set(v, api(`/games/${gameId}/view?version=${v}`).catch((err) => { views.delete(v); throw err; }));
  return views.get(v);
}

function renderLog(v, view) {
  // every line is put into words, in order (a sentence may name what an earlier one laid out),
  // and the newest 300 are shown
  const lines = [];
  for (const entry of entries) {
    if (entry.version > v) break;
    for (const ev of entry.events) lines.push([entry.version, ev, eventLine(game, ev, who, view)]);
  }
  const recent = lines.slice(-300).reverse();
  $("log").replaceChildren(...recent.map(([ver, ev, said]) => el("li", { dataset: { version: String(ver), type: ev.type },
    class: ver === v ? "current" : "" }, el("span", { class: "v" }, String(ver)), " ", said)));
}

async function renderScores(view, v) {
  const final = v === summary.version ? summary.outcome?.scores : null;
  const players = view.view?.players || [];
  const own = final ? null : await scoresOf(game, view.view); // the drawing's count, where the game has one
  const rows = (final || players).map((p, s) => el("tr", {}, el("th", { scope: "row" }, who(s)),
    el("td", {}, String(final ? final[s] : own ? own.values[s] ?? "—"
      : (p.score ?? p.money ?? (p.gems ? Object.entries(p.gems).map(([k, n]) => `${n} ${k}`).join(", ") : "—"))))));
  $("scores").replaceChildren(el("table", { class: "scores" }, el("tbody", {}, ...rows)));
}

async function show(v) {
  wanted = v;
  $("step-out").textContent = String(v);
  const entry = entries[v - 1];
  $("replay-status").textContent = entry
    ? `Version ${v}: ${entry.kind === "move" ? `a move of ${who(entry.seat)}` : humanise(entry.kind)} (${entry.events.length} public event${entry.events.length === 1 ? "" : "s"}).`
    : `Version ${v}.`;
  try {
    const view = await viewAt(v);
    if (wanted !== v) return; // the slider moved on meanwhile
    await drawView($("board"), view.view, { game, seat: null, players: PAGE.players, summary });
    await renderScores(view, v);
    renderLog(v, view.view);
    document.body.dataset.step = String(v);
  } catch (err) {
    $("replay-status").textContent = `Version ${v} could not be read: ${err.reason || err.message}`;
  }
}

function go(v) {
  const slider = $("step");
  const clamped = Math.max(1, Math.min(Number(slider.max), v));
  slider.value = String(clamped);
  clearTimeout(timer);
  show(clamped);
}

async function main() {
  summary = await api(`/games/${gameId}`);
  const resp = await fetch(`/games/${gameId}/stream?max_events=${summary.version}`, { cache: "no-store" });
  if (!resp.ok) throw new Error(`the log could not be read (HTTP ${resp.status})`);
  entries = parseSse(await resp.text()).filter((m) => m.event === "commit").map((m) => JSON.parse(m.data));
  const slider = $("step");
  slider.max = String(entries.length);
  slider.disabled = false;
  $("step-max").textContent = String(entries.length);
  document.body.dataset.steps = String(entries.length);
  slider.addEventListener("input", () => {
    clearTimeout(timer);
    $("step-out").textContent = slider.value;
    timer = setTimeout(() => show(Number(slider.value)), 120);
  });
  $("first").addEventListener("click", () => go(1));
  $("prev").addEventListener("click", () => go(Number(slider.value) - 1));
  $("next").addEventListener("click", () => go(Number(slider.value) + 1));
  $("last").addEventListener("click", () => go(entries.length));
  // the arrow keys, Home and End step anywhere on the page, not only on the focused slider
  document.addEventListener("keydown", (e) => {
    if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey || e.target.closest?.("input, select, textarea, button, a")) return;
    const to = { ArrowLeft: Number(slider.value) - 1, ArrowRight: Number(slider.value) + 1, Home: 1, End: entries.length }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  });
  if (summary.status !== "over") {
    $("replay-status").textContent = "This game is still being played: the replay goes up to now.";
  }
  await show(1);
}

main().catch((err) => { $("replay-status").textContent = `The replay could not load: ${err.reason || err.message}`; });
