// A tournament: standings (ranked by the rating's ordinal), the rating plot the tournament code
// draws (GET /tournaments/<id>/ratings.png), and every match with a link to its replay.

import { PAGE, api, el, humanise } from "./api.js";

const tid = PAGE.tournament_id;
const $ = (id) => document.getElementById(id);

function num(v, digits = 2) {
  return typeof v === "number" ? (Number.isInteger(v) ? String(v) : v.toFixed(digits)) : v ?? "—";
}

function table(cols, rows) {
  return el("table", { class: "data" },
    el("thead", {}, el("tr", {}, ...cols.map(([, h]) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, ...rows));
}

async function main() {
  const doc = await api(`/tournaments/${tid}`);
  $("t-status").textContent = `${humanise(doc.status)}: ${doc.played} of ${doc.planned} matches played` +
    ` (${doc.spec.format.replace(/_/g, " ")}, ${doc.spec.games.join(", ")}, ${doc.spec.players} seats)` +
    (doc.error ? ` — ${doc.error}` : "");
  const cols = [["rank", "Rank"], ["name", "Participant"], ["matches", "Matches"], ["wins", "Wins"], ["win_rate", "Win rate"],
                ["average_score", "Average score"], ["mu", "Rating (mu)"], ["sigma", "Sigma"], ["ordinal", "Ordinal"],
                ["byes", "Byes"], ["strikes", "Strikes"], ["default_moves", "Default moves"], ["forfeits", "Forfeits"]];
  const rows = (doc.standings?.rows || []).map((r) => el("tr", {}, ...cols.map(([k], i) =>
    (i === 1 ? el("th", { scope: "row" }, r[k]) : el("td", {}, num(r[k]))))));
  $("standings").replaceChildren(rows.length ? table(cols, rows) : el("p", {}, "No standings yet."));
  const img = $("ratings");
  img.addEventListener("load", () => { $("ratings-figure").hidden = false; $("no-ratings").hidden = true; document.body.dataset.plot = "shown"; });
  img.addEventListener("error", () => { $("ratings-figure").hidden = true; $("no-ratings").hidden = false; document.body.dataset.plot = "none"; });
  if (doc.played > 0) img.src = `/tournaments/${tid}/ratings.png?played=${doc.played}`;
  else { $("ratings-figure").hidden = true; $("no-ratings").hidden = false; document.body.dataset.plot = "none"; }
  const mcols = [["index", "#"], ["game", "Game"], ["seats", "Seats"], ["scores", "Scores"], ["winners", "Winners"],
                 ["moves", "Moves"], ["ended_by", "Ended by"], ["replay", "Replay"]];
  const mrows = (doc.matches || []).map((m) => el("tr", {},
    el("td", {}, String(m.index)), el("td", {}, m.game), el("td", {}, (m.seats || []).join(", ")),
    el("td", {}, (m.scores || []).join(", ")),
    el("td", {}, m.ended_by === "bye" ? `${(m.seats || []).join(", ")} (a bye: counts as a win)`
      : (m.winners || []).map((s) => `${m.seats?.[s] ?? "seat"} (seat ${s})`).join(", ") || "nobody"),
    el("td", {}, num(m.moves)), el("td", {}, m.ended_by || "—"),
    el("td", {}, m.game_id ? el("a", { href: `/replay/${m.game_id}` }, `Replay ${m.game_id}`) : "—")));
  $("matches").replaceChildren(mrows.length ? table(mcols, mrows) : el("p", {}, "No match recorded yet."));
  document.body.dataset.ready = "true";
  if (doc.status === "running") setTimeout(() => main().catch(fail), 3000);
}

function fail(err) {
  $("t-status").textContent = `The tournament could not be read: ${err.reason || err.message}`;
}

main().catch(fail);
