// One drawing alone: ?game_id=<id> (and ?version=<v>) draws that game's public view; a script can
// draw any view with window.longhouseBoard.show(game, view, ctx), e.g. to screenshot a drawing.

import { api } from "./api.js";
import { drawView } from "./board.js";

const board = document.getElementById("board");
const status = document.getElementById("board-status");

/** Draw `view` of `game` (ctx as a table page passes it); resolves to "board" or "tree". */
async function show(game, view, ctx = {}) {
  const drawn = await drawView(board, view, { game, seat: null, players: view?.config?.players ?? null, summary: null, ...ctx });
  document.body.dataset.drawn = drawn;
  return drawn;
}

window.longhouseBoard = { show };

async function main() {
  const q = new URLSearchParams(window.location.search);
  const gameId = q.get("game_id");
  if (!gameId) {
    status.textContent = "Give ?game_id= (and ?version=), or call window.longhouseBoard.show(game, view, ctx).";
    return;
  }
  const summary = await api(`/games/${encodeURIComponent(gameId)}`);
  const version = q.get("version");
  const view = await api(`/games/${encodeURIComponent(gameId)}/view${version ? `?version=${encodeURIComponent(version)}` : ""}`);
  status.textContent = `${summary.game} ${gameId}, version ${view.version}`;
  await show(summary.game, view.view, { summary, players: view.view?.config?.players ?? null });
}

main().catch((err) => { status.textContent = `Nothing to draw: ${err.reason || err.message}`; });
