// The lobby: games in play and finished (GET /games), tournaments (GET /tournaments), and a form
// that creates a game (POST /games with the operator key) and takes a seat for this tab.

import { PAGE, api, claimSeat, el, gameInfo, humanise, keepInvitations, operatorKey, setOperatorKey } from "./api.js";

const $ = (id) => document.getElementById(id);
const SEAT_KINDS = [
  ["me", "You, in this tab"],
  ["human", "Another person (by invitation)"],
  ...PAGE.bots.map((b) => [b, `Bot: ${b}`]),
  ["agent", "A registered agent"],
];
let supportsOpen = false;

function fillGames() {
  for (const g of PAGE.games) {
    $("game").append(el("option", { value: g.name }, `${g.title} (${g.min_players}–${g.max_players})`));
    $("filter-game").append(el("option", { value: g.name }, g.title));
  }
}

function renderOptions() {
  const g = gameInfo($("game").value);
  const players = $("players");
  players.min = String(g.min_players);
  players.max = String(g.max_players);
  const n = Math.max(g.min_players, Math.min(g.max_players, Number(players.value) || g.min_players));
  players.value = String(n);
  const box = $("options");
  box.replaceChildren(...(g.options.length ? g.options.map((o) => el("p", { class: "check" },
    el("input", { type: "checkbox", id: `option-${o}`, name: o, dataset: { option: o } }),
    el("label", { for: `option-${o}`, title: (g.option_help || {})[o] || "" }, humanise(o)))) : [el("p", { class: "help" }, "This game has no variants.")]));
  renderSeats();
}

function renderSeats() {
  const players = $("players");
  const g = gameInfo($("game").value);
  // a count outside the game's range draws no more rows than it takes (creating then says why)
  const n = Math.max(0, Math.min(Number(players.value) || 0, g.max_players || Number(players.max) || 0));
  const rows = [];
  for (let s = 0; s < n; s++) {
    const old = $(`seat-${s}-kind`);
    const value = old ? old.value : s === 0 ? "me" : PAGE.bots.includes("expert") ? "expert" : PAGE.bots[0];
    const select = el("select", { id: `seat-${s}-kind`, name: `seat-${s}` },
      ...SEAT_KINDS.map(([v, t]) => el("option", { value: v, selected: v === value }, t)));
    const agent = el("input", { id: `seat-${s}-agent`, type: "text", placeholder: "agent id", autocomplete: "off",
                                "aria-label": `Agent id for seat ${s}`, hidden: value !== "agent" });
    select.addEventListener("change", () => { agent.hidden = select.value !== "agent"; });
    rows.push(el("p", { class: "seat-row" }, el("label", { for: `seat-${s}-kind` }, `Seat ${s}`), select, agent));
  }
  $("seats").replaceChildren(...rows);
}

async function create(event) {
  event.preventDefault();
  const out = $("create-result");
  const game = $("game").value;
  const players = Number($("players").value);
  const body = { game, players, options: {}, bots: {} };
  for (const box of document.querySelectorAll("#options input[data-option]")) if (box.checked) body.options[box.dataset.option] = true;
  if ($("seed").value.trim()) body.seed = $("seed").value.trim();
  if (supportsOpen && $("open").checked) body.open = true;
  const info = gameInfo(game);
  if (!(players >= info.min_players && players <= info.max_players)) {
    out.replaceChildren(el("p", { role: "alert", class: "error" },
      `Not created: ${info.title || game} takes ${info.min_players} to ${info.max_players} seats, not ${$("players").value || "none"}.`));
    return;
  }
  let mine = null;
  const yours = Array.from({ length: players }, (_, s) => s).filter((s) => $(`seat-${s}-kind`).value === "me");
  if (yours.length > 1) {
    out.replaceChildren(el("p", { role: "alert", class: "error" }, `Not created: seats ${yours.join(" and ")} are both ` +
      "\"You, in this tab\"; one browser holds one seat of a game. Make the others \"Another person (by invitation)\"."));
    return;
  }
  for (let s = 0; s < players; s++) {
    const kind = $(`seat-${s}-kind`).value;
    if (kind === "me") mine = s;
    else if (kind === "agent") body.bots[String(s)] = { kind: "agent", agent: $(`seat-${s}-agent`).value.trim() };
    else if (kind !== "me" && kind !== "human") body.bots[String(s)] = kind;
  }
  setOperatorKey($("operator-key").value);
  $("create").disabled = true;
  out.replaceChildren(el("p", {}, "Creating…"));
  try {
    const made = await api("/games", { method: "POST", body, operator: true });
    keepInvitations(made.game_id, made.invitations);
    if (mine !== null) {
      await claimSeat(made.game_id, mine);
      window.location.assign(`/table/${made.game_id}`);
      return;
    }
    const invites = Object.entries(made.invitations || {});
    const parts = [el("p", {}, "Created game ", el("a", { href: `/table/${made.game_id}` }, made.game_id), ".")];
    if (invites.length) {
      parts.push(el("p", {}, "Give each player the invitation of their seat (this browser also lists them on the game's table page while the seats are free):"),
        el("ul", {}, ...invites.map(([s, inv]) => el("li", {}, `Seat ${s}: `, el("code", {}, inv)))));
    }
    out.replaceChildren(...parts);
    loadLists();
  } catch (err) {
    out.replaceChildren(el("p", { role: "alert", class: "error" }, `Not created: ${err.reason || err.message}` +
      (err.code === "missing_operator_key" || err.code === "wrong_operator_key" ? " — check the operator key." : "")));
  } finally {
    $("create").disabled = false;
  }
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString();
}

function gameTitle(name) {
  return gameInfo(name).title || name;
}

async function take(game, seat) {
  try {
    await claimSeat(game.game_id, seat);
    window.location.assign(`/table/${game.game_id}`);
  } catch (err) {
    $("playing").prepend(el("p", { role: "alert", class: "error" }, `Seat ${seat} of ${game.game_id}: ${err.reason || err.message}`));
  }
}

function gameRows(games, finished) {
  if (!games.length) return [el("p", {}, finished ? "No finished game yet." : "No game in play.")];
  const table = el("table", { class: "games" },
    el("thead", {}, el("tr", {}, ...["Game", "Id", "Seats", "Moves", "Created", ...(finished ? ["Result", "See"] : ["Join"])]
      .map((h) => el("th", { scope: "col" }, h)))));
  const body = el("tbody");
  for (const g of games) {
    const free = [];
    for (let s = 0; s < g.players; s++) if (!g.seats_taken.includes(s)) free.push(s);
    const bots = Object.entries(g.bots).map(([s, k]) => `${s}: ${k}`).join(", ");
    const actions = finished
      ? [el("a", { href: `/replay/${g.game_id}` }, "Replay"), " · ", el("a", { href: `/table/${g.game_id}` }, "Table")]
      : [el("a", { href: `/table/${g.game_id}` }, "Watch"),
        ...free.map((s) => (g.open === false
          ? [" · ", el("a", { href: `/table/${g.game_id}`, title: "needs the seat's invitation" }, `Seat ${s} (invitation)`)]
          : [" ", el("button", { type: "button", class: "small", onclick: () => take(g, s) }, `Take seat ${s}`)])).flat()];
    body.append(el("tr", { dataset: { gameId: g.game_id } },
      el("td", {}, gameTitle(g.game), Object.keys(g.options).length ? el("small", {}, ` (${Object.keys(g.options).filter((k) => g.options[k]).map(humanise).join(", ")})`) : null),
      el("td", {}, el("code", {}, g.game_id)),
      el("td", {}, `${g.players}${bots ? ` (bots ${bots})` : ""}${free.length ? `, free: ${free.join(", ")}` : ""}`),
      el("td", {}, String(g.moves)),
      el("td", {}, when(g.created)),
      finished ? el("td", { class: "result", dataset: { result: g.game_id } }, "…") : null,
      el("td", {}, ...actions)));
  }
  table.append(body);
  return [table];
}

/** "Seat 1 won (scores 12, 30)" from a game's outcome (GET /games/<id>): the listing carries no outcome. */
function resultText(outcome) {
  if (!outcome) return "—";
  const winners = outcome.winners || [];
  const won = winners.length ? `Seat ${winners.join(" and seat ")} won` : humanise(outcome.reason || "over");
  return Array.isArray(outcome.scores) ? `${won} (scores ${outcome.scores.join(", ")})` : won;
}

/** Fill the Result cells of finished games still showing "…", one GET /games/<id> each. */
async function fillResults(box, results) {
  await Promise.all(Array.from(box.querySelectorAll("td.result"), async (cell) => {
    const id = cell.dataset.result;
    if (!results.has(id)) {
      results.set(id, api(`/games/${encodeURIComponent(id)}`).then((g) => resultText(g.outcome), () => "—"));
    }
    cell.textContent = await results.get(id);
  }));
}

async function listInto(id, status, finished) {
  const box = $(id);
  const game = $("filter-game").value;
  let after = null;
  const shown = [];
  async function more() {
    const q = new URLSearchParams({ status, limit: "20" });
    if (game) q.set("game", game);
    if (after) q.set("after", after);
    const page = await api(`/games?${q}`);
    shown.push(...page.games);
    after = page.next;
    const parts = gameRows(shown, finished);
    if (after) parts.push(el("p", {}, el("button", { type: "button", onclick: () => more().catch(showError(box)) }, "More games")));
    box.replaceChildren(...parts);
    if (finished) await fillResults(box, results);
  }
  const results = new Map();
  await more();
}

function showError(box) {
  return (err) => box.replaceChildren(el("p", { role: "alert", class: "error" }, `Could not load: ${err.reason || err.message}`));
}

async function loadTournaments() {
  const box = $("tournaments");
  const { tournaments } = await api("/tournaments");
  if (!tournaments.length) {
    box.replaceChildren(el("p", {}, "No tournament yet."));
    return;
  }
  box.replaceChildren(el("ul", {}, ...tournaments.map((t) => el("li", {},
    el("a", { href: `/standings/${t.tournament_id}` }, t.tournament_id), ` — ${t.status || "?"}, ${t.played}/${t.planned} matches`))));
}

function loadLists() {
  listInto("playing", "in_play", false).catch(showError($("playing")));
  listInto("finished", "over", true).catch(showError($("finished")));
  loadTournaments().catch(showError($("tournaments")));
}

async function detectOpen() {
  try {
    const doc = await api("/openapi.json");
    supportsOpen = Boolean(doc?.components?.schemas?.CreateGameBody?.properties?.open);
  } catch {
    supportsOpen = false;
  }
  $("open-box").hidden = !supportsOpen;
}

fillGames();
$("operator-key").value = operatorKey();
$("operator-key").addEventListener("change", () => setOperatorKey($("operator-key").value));
$("game").addEventListener("change", renderOptions);
$("players").addEventListener("change", renderSeats);
$("create-form").addEventListener("submit", create);
$("filter-game").addEventListener("change", loadLists);
$("reload").addEventListener("click", loadLists);
renderOptions();
loadLists();
detectOpen();
document.body.dataset.ready = "true";
