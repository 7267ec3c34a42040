// The JSON API of the gateway, as the pages use it, and what the browser keeps between pages.
//
// Seat tokens and the invitations of games this browser created are kept in localStorage (this
// browser, every tab of it, until the game is over: a closed tab does not orphan a seat); the
// operator key in sessionStorage only (this tab, gone when it closes). All are sent in headers;
// none is ever put in a URL, except the stream's ?token=, which EventSource needs because it
// cannot send headers (docs/API.md, Seat tokens).

/** The page's data the server put in <script id="page-data">. */
export const PAGE = JSON.parse(document.getElementById("page-data")?.textContent || "{}");

/** The header that carries an operator key (docs/API.md). */
export const OPERATOR_HEADER = "X-Longhouse-Operator-Key";

/** An error answer of the API: its HTTP status, its code and its reason. */
export class ApiError extends Error {
  constructor(status, code, reason, body) {
    super(reason || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
    this.reason = reason;
    this.body = body;
  }
}

/**
 * Call the API: api("/games", {method: "POST", body: {...}, token, operator: true}).
 * Returns the parsed JSON (or text for a non-JSON answer); throws ApiError for 4xx/5xx.
 */
export async function api(path, { method = "GET", body, token, operator = false, headers = {} } = {}) {
  const h = { Accept: "application/json", ...headers };
  if (body !== undefined) h["Content-Type"] = "application/json";
  if (token) h.Authorization = `Bearer ${token}`;
  if (operator && operatorKey()) h[OPERATOR_HEADER] = operatorKey();
  const resp = await fetch(path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body),
                                   cache: "no-store" });
  const type = resp.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await resp.json().catch(() => null) : await resp.text();
  if (!resp.ok) {
    const err = data && typeof data === "object" ? data : {};
    throw new ApiError(resp.status, err.error || `http_${resp.status}`, err.reason || String(data || resp.statusText), err);
  }
  return data;
}

const store = window.localStorage; // seats and invitations: this browser
const tab = window.sessionStorage; // the operator key: this tab

/** The operator key typed into the lobby ("" if none). */
export function operatorKey() {
  return tab.getItem("longhouse:operator-key") || "";
}

/** Keep (or, with "", forget) the operator key for this tab. */
export function setOperatorKey(key) {
  if (key) tab.setItem("longhouse:operator-key", key.trim());
  else tab.removeItem("longhouse:operator-key");
}

/** The seat this browser holds in a game: {seat, token}, or null (a spectator). */
export function heldSeat(gameId) {
  try {
    return JSON.parse(store.getItem(`longhouse:seat:${gameId}`) || "null");
  } catch {
    return null;
  }
}

/** Remember that this browser holds `seat` of a game with `token`. */
export function holdSeat(gameId, seat, token) {
  store.setItem(`longhouse:seat:${gameId}`, JSON.stringify({ seat, token }));
}

/** Forget this browser's seat and invitations of a game (it becomes a spectator there). */
export function leaveSeat(gameId) {
  store.removeItem(`longhouse:seat:${gameId}`);
  store.removeItem(`longhouse:invitations:${gameId}`);
}

/** Invitations of a game this browser created: {"<seat>": invitation}. */
export function invitations(gameId) {
  try {
    return JSON.parse(store.getItem(`longhouse:invitations:${gameId}`) || "{}");
  } catch {
    return {};
  }
}

/** Keep the invitations a creation answered with. */
export function keepInvitations(gameId, invites) {
  if (invites && Object.keys(invites).length) store.setItem(`longhouse:invitations:${gameId}`, JSON.stringify(invites));
}

/**
 * Claim a seat (POST /games/<id>/seats/<seat>), with its invitation when there is one, and keep
 * its token in this browser. Returns {seat, token}.
 */
export async function claimSeat(gameId, seat, invitation) {
  const inv = invitation || invitations(gameId)[String(seat)];
  const answer = await api(`/games/${gameId}/seats/${seat}`, { method: "POST", body: inv ? { invitation: inv } : undefined });
  holdSeat(gameId, answer.seat, answer.token);
  return answer;
}

/** A fresh id for a move (POST /moves needs one per move; a retry reuses it). */
export function newMoveId() {
  const bytes = new Uint8Array(9);
  crypto.getRandomValues(bytes);
  return "web-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The game's entry in the page data (name, title, players, options). */
export function gameInfo(name) {
  return (PAGE.games || []).find((g) => g.name === name) || { name, title: name, options: [] };
}

/** An element: el("button", {class: "x", onclick}, "text", child...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (v === true) node.setAttribute(k, "");
    else node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** "market_day" -> "Market day"; "FishCaught" -> "Fish caught". */
export function humanise(name) {
  const text = String(name).replace(/_/g, " ").replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A short status line for the page's live region. */
export function announce(node, text) {
  if (node) node.textContent = text;
}

/** Parse Server-Sent Events text (a whole finished stream) into its messages: [{id, event, data}]. */
export function parseSse(text) {
  const out = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const msg = { id: null, event: "message", data: "" };
    let has = false;
    for (const line of block.split(/\r?\n/)) {
      if (!line || line.startsWith(":")) continue;
      const i = line.indexOf(":");
      const field = i < 0 ? line : line.slice(0, i);
      const value = i < 0 ? "" : line.slice(i + 1).replace(/^ /, "");
      if (field === "data") { msg.data += (msg.data ? "\n" : "") + value; has = true; }
      else if (field === "id") msg.id = value;
      else if (field === "event") msg.event = value;
    }
    if (has) out.push(msg);
  }
  return out;
}
