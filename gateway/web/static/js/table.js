// A game's table: the board, the seat's own things, its legal moves as buttons, the log in words
// and the scores, kept live by the game's event stream.
//
// The browser's seat (if it holds one) comes from localStorage (api.js); without one the page is a
// spectator's and shows only what a spectator may see. Every stream entry refreshes the page
// (coalesced: one refresh runs at a time, and entries that come meanwhile cause one more): a seat
// holder reads the summary, its view and its legal moves in one answer at one version
// (GET /wait?timeout=0&view=true with its token), a spectator the summary and the spectator's view.
// A move asks for the seat's next decision in its own answer (?legal=true&view=true), so a seat
// that decides again gets its buttons without another request.
//
// For tests and tools the page marks its state on #moves: data-state is "ready" (buttons to
// click, for data-version), "sending", "waiting" (another seat decides, or a phase runs) or
// "over"; data-key changes at every render of the moves. window.longhouseTable.seen lists the
// stream ids as the page received them.

import { ApiError, PAGE, api, claimSeat, el, heldSeat, humanise, invitations, newMoveId } from "./api.js";
import { drawView, scoresOf } from "./board.js";
import { follow } from "./stream.js";
import { eventLine, moveCost, moveGroup, moveLabel } from "./words.js";

const gameId = PAGE.game_id;
const game = PAGE.game;
const $ = (id) => document.getElementById(id);
let held = heldSeat(gameId);
let summary = null;
let view = null;
let legal = null;
let renders = 0;
let stream = null;
let refreshing = false;
let again = false;
let failures = 0;
const logged = [];

function who(seat) {
  if (seat === null || seat === undefined || seat < 0) return "The rules";
  const p = view?.view?.players?.[seat];
  const notes = [];
  if (held && held.seat === seat) notes.push("you");
  if (p?.colour) notes.push(p.colour);
  const bot = summary?.bots?.[String(seat)];
  if (bot) notes.push(`${bot} bot`);
  return `Seat ${seat}${notes.length ? ` (${notes.join(", ")})` : ""}`;
}

function setMovesState(state) {
  const box = $("moves");
  box.dataset.state = state;
  box.dataset.key = `${legal?.version ?? view?.version ?? 0}:${++renders}`;
  box.setAttribute("aria-busy", state === "sending" ? "true" : "false");
}

function statusText() {
  if (!summary) return "Loading…";
  if (summary.status === "over") {
    const o = summary.outcome || {};
    const winners = o.winners || [];
    return `The game is over: ${humanise(o.reason || "ended")}. ` +
      (winners.length ? `Won by ${winners.map(who).join(" and ")}.` : "Nobody won.");
  }
  if (summary.status === "phase") return "The rules are running a phase between turns…";
  const to = summary.to_move || [];
  if (held && to.includes(held.seat)) return "Your decision.";
  return to.length ? `Waiting for ${to.map(who).join(", ")}.` : "Waiting…";
}

async function renderScores() {
  const players = view?.view?.players || [];
  const final = summary?.outcome?.scores;
  const body = $("scores-body");
  const own = final ? null : await scoresOf(game, view?.view); // the drawing's count, where the game has one
  const label = own?.label || { noggin: "Points", gnomes: "Gems" }[game] || "Score";
  $("score-label").textContent = final ? "Final score" : label;
  const rows = [];
  const n = final ? final.length : players.length || PAGE.players;
  for (let s = 0; s < n; s++) {
    const p = players[s] || {};
    let value = final ? final[s] : own ? own.values[s] ?? "—"
      : (p.score ?? p.money ?? (p.gems ? Object.entries(p.gems).map(([k, v]) => `${v} ${k}`).join(", ") : "—"));
    const winner = (summary?.outcome?.winners || []).includes(s);
    rows.push(el("tr", { class: winner ? "winner" : "" }, el("th", { scope: "row" }, who(s)), el("td", {}, String(value)),
      el("td", {}, winner ? "winner" : (summary?.to_move || []).includes(s) ? "to move" : "")));
  }
  body.replaceChildren(...rows);
}

function renderMine() {
  const box = $("mine");
  const v = view?.view || {};
  const mine = Object.entries(v).filter(([k, x]) => (k === "hand" || k.startsWith("my_")) && x !== null && x !== undefined);
  if (!held || !mine.length) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const list = el("dl");
  for (const [k, val] of mine) {
    const text = Array.isArray(val) ? (val.length ? val.map((x) => (typeof x === "object" ? JSON.stringify(x) : String(x).replace(/_/g, " "))).join(", ") : "none")
      : val && typeof val === "object" ? Object.entries(val).map(([a, b]) => `${a}: ${Array.isArray(b) ? b.join(", ") : b}`).join("; ")
      : String(val ?? "—").replace(/_/g, " ");
    list.append(el("dt", {}, humanise(k.replace(/^my_/, "your_"))), el("dd", {}, text));
  }
  $("mine-body").replaceChildren(list);
}

function renderMoves() {
  const box = $("moves");
  if (summary?.status === "over") {
    box.replaceChildren(el("p", {}, "The game is over."),
      el("p", {}, el("a", { href: `/replay/${gameId}` }, "Replay it step by step")));
    setMovesState("over");
    return;
  }
  if (!held) {
    box.replaceChildren(el("p", {}, "You are watching. Take a free seat to play."));
    setMovesState("waiting");
    return;
  }
  const moves = legal?.moves || [];
  if (!moves.length) {
    box.replaceChildren(el("p", {}, statusText()));
    setMovesState("waiting");
    return;
  }
  const groups = new Map();
  moves.forEach((m, i) => {
    const g = moveGroup(game, m);
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push([m, i]);
  });
  const parts = [];
  for (const [name, items] of groups) {
    const fs = el("fieldset", { class: "move-group" }, el("legend", {}, `${name} (${items.length})`));
    for (const [m, i] of items) {
      const cost = moveCost(game, m, view?.view);
      const label = moveLabel(game, m, view?.view);
      fs.append(el("button", { type: "button", class: "move", dataset: { index: String(i), type: m.type },
                               title: JSON.stringify(m), onclick: () => play(m) },
        el("span", { class: "label" }, label), cost ? el("span", { class: "cost" }, cost) : null));
    }
    parts.push(fs);
  }
  box.replaceChildren(el("p", { class: "hint" }, `${moves.length} legal move${moves.length === 1 ? "" : "s"} for version ${legal.version}:`), ...parts);
  box.dataset.version = String(legal.version);
  setMovesState("ready");
}

function renderSeatForm() {
  const box = $("seat-box");
  const free = [];
  for (let s = 0; s < PAGE.players; s++) if (!(summary?.seats_taken || []).includes(s)) free.push(s);
  // drawn again only when what it offers changes: a refresh keeps a half-typed invitation and its error
  // the invitations this browser was given at creation, of seats still free: the creator hands them out
  const given = summary?.status === "over" ? [] : Object.entries(invitations(gameId)).filter(([seat]) => free.includes(Number(seat)));
  const shape = (held ? `held ${held.seat}` : `${summary?.status === "over" ? "over" : "free"} ${free.join(",")}`) +
    ` given ${given.map(([seat]) => seat).join(",")}`;
  if (box.dataset.shape === shape) return;
  box.dataset.shape = shape;
  const handOut = given.length ? [el("div", { id: "invitations", class: "invitations" },
    el("p", {}, "Give each player the invitation of their seat (only you see these):"),
    el("ul", {}, ...given.map(([seat, inv]) => el("li", {}, `Seat ${seat}: `, el("code", { dataset: { seat } }, inv)))))] : [];
  if (held) {
    box.replaceChildren(el("p", {}, `You hold seat ${held.seat} in this browser.`), ...handOut);
    return;
  }
  if (summary?.status === "over" || !free.length) {
    box.replaceChildren(el("p", {}, "You are watching as a spectator."));
    return;
  }
  const select = el("select", { id: "claim-seat", name: "seat" }, ...free.map((s) => el("option", { value: String(s) }, `Seat ${s}`)));
  const inv = el("input", { id: "claim-invitation", name: "invitation", type: "password", autocomplete: "off",
                            placeholder: "lhinv_… (not needed for an open game)" });
  const problem = el("p", { id: "claim-error", class: "error", role: "alert" });
  const form = el("form", { class: "inline", onsubmit: async (e) => {
    e.preventDefault();
    try {
      held = await claimSeat(gameId, Number(select.value), inv.value.trim() || undefined);
      await stream?.close();
      start();
    } catch (err) {
      problem.textContent = `Could not take seat ${select.value}: ${err.reason || err.message}`;
      inv.focus();
    }
  } },
  el("label", { for: "claim-seat" }, "Seat"), select,
  el("label", { for: "claim-invitation" }, "Invitation"), inv,
  el("button", { type: "submit" }, "Take the seat"));
  box.replaceChildren(el("p", {}, "You are watching as a spectator."), form, problem, ...handOut);
}

async function play(move) {
  if (!legal) return;
  for (const b of document.querySelectorAll("#moves button")) b.disabled = true;
  setMovesState("sending");
  $("status").textContent = `Playing: ${moveLabel(game, move)}…`;
  try {
    const answer = await api(`/games/${gameId}/moves?legal=true&view=true`, { method: "POST", token: held.token,
      body: { move_id: newMoveId(), expected_version: legal.version, move } });
    const next = answer.next;
    if (next && (next.legal_moves || []).length && next.version > (view?.version ?? 0)) {
      // the seat decides again: its choices and view came with the answer
      view = { ...view, version: next.version, status: next.status, to_move: next.to_move, view: next.view };
      legal = { version: next.version, seat: next.seat, moves: next.legal_moves };
      await drawView($("board"), view.view, { game, seat: held.seat, players: PAGE.players, summary });
      renderMine();
      renderMoves();
      refresh(); // the summary and the scores; its answer is the same decision
      return;
    }
  } catch (err) {
    if (!(err instanceof ApiError)) { // no answer at all: the request may not have left (offline)
      $("status").textContent = `The move could not be sent (${err.message}); check the connection and try again.`;
    } else if (!["stale_version", "not_your_turn"].includes(err.code)) {
      $("status").textContent = `The move was refused: ${err.reason || err.message}`;
    }
  }
  legal = null;
  refresh();
}

async function load() {
  let s;
  let v;
  legal = null;
  if (held) {
    // one answer at one version: the summary, the seat's view and its legal moves (empty unless it decides)
    s = await api(`/games/${gameId}/wait?after=0&timeout=0&view=true`, { token: held.token });
    v = { version: s.version, seat: s.seat, status: s.status, to_move: s.to_move, outcome: s.outcome, view: s.view };
    if (s.status !== "over" && (s.legal_moves || []).length) {
      legal = { version: s.version, seat: s.seat, moves: s.legal_moves };
    }
  } else {
    [s, v] = await Promise.all([api(`/games/${gameId}`), api(`/games/${gameId}/view`)]);
  }
  summary = s;
  view = v;
  document.body.dataset.version = String(v.version);
  document.body.dataset.status = s.status;
  $("status").textContent = statusText();
  $("version").textContent = `version ${v.version} · ${s.moves} moves`;
  await drawView($("board"), v.view, { game, seat: held ? held.seat : null, players: PAGE.players, summary: s });
  await renderScores();
  renderMine();
  renderSeatForm();
  if (!again) renderMoves();
  if (s.status === "over" && stream && stream.last >= s.version) stream.close();
}

/** Refresh the page from the API (one at a time; a request meanwhile runs one more). */
async function refresh() {
  if (refreshing) {
    again = true;
    return;
  }
  refreshing = true;
  try {
    do {
      again = false;
      try {
        await load();
        failures = 0;
      } catch (err) {
        if (err instanceof ApiError && [401, 403].includes(err.status) && held) {
          $("status").textContent = "This tab's seat token is no longer accepted; watching as a spectator.";
          held = null;
          again = true;
        } else if (++failures < 20) {
          await new Promise((r) => setTimeout(r, Math.min(200 * failures, 2000)));
          again = true;
        } else {
          $("status").textContent = `The gateway does not answer: ${err.reason || err.message}`;
        }
      }
    } while (again);
  } finally {
    refreshing = false;
  }
}

function onEntry(entry) {
  const log = $("log");
  const items = [];
  for (const ev of entry.events) {
    items.push(el("li", { dataset: { version: String(entry.version), seat: String(entry.seat), kind: entry.kind, type: ev.type },
                          class: ev.to !== null && ev.to !== undefined ? "private" : "" },
      el("span", { class: "v" }, String(entry.version)), " ", eventLine(game, ev, who, view?.view),
      ev.to !== null && ev.to !== undefined ? el("span", { class: "tag" }, " (only you see this)") : null));
  }
  logged.push(entry.version);
  if (items.length) log.prepend(...items.reverse());
  refresh();
}

function start() {
  held = heldSeat(gameId);
  logged.length = 0;
  $("log").replaceChildren();
  document.body.dataset.seat = held ? String(held.seat) : "spectator";
  stream = follow(gameId, {
    token: held?.token,
    onEntry,
    onState: (state) => { $("connection").textContent = { live: "Live", reconnecting: "Reconnecting…", closed: "closed" }[state] || state; $("connection").dataset.state = state; },
  });
  window.longhouseTable = { get seen() { return stream.seen; }, logged, get last() { return stream.last; }, refresh };
  refresh();
}

start();
