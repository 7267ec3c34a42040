// The games in words: a sentence per event of the log, and a label (with its cost) per legal move.
//
// Every event type each game sends (public, private and the phases' alike; the sealed ones no
// client receives included) has a sentence of its own in its rulebook's words: PHRASED lists
// them per game, and sentence() says null for any other. Seats are named by who(seat) and things
// by their names: the content's names of cards, buildings, areas and quests, and, where an event
// only holds a place or a card slot, the name the log said before (the Gnomes layout, the Saga or
// Invention drawn into that slot) or the seat's view (its `places`, `saga_cards`). An event of a
// type not phrased (a newer server) is written from its type and fields.
//
// A move's label names every argument that tells it apart from the other legal moves (a Market
// Day character's target, the payment chosen, the nugget cards paying a part), so two different
// legal moves never read the same. Its cost is what the rules charge for it, in the game's terms:
// Steps on the Central Wheel (Noggin), weeks on the timing track and gems (Gnomes), money
// (Resource Hog), worked out from the move and, where it depends on the state, the seat's view;
// a cost that cannot be known from those two is left out rather than guessed.

import { humanise } from "./api.js";
import {
  NOGGIN_BUILDINGS as N_BUILDING, NOGGIN_CHARACTERS as N_CHAR, NOGGIN_COUNTING_HOUSE as N_COUNTING,
  NOGGIN_INVENTIONS as N_INVENTION, GNOMES_ITEMS as G_ITEMS, GNOMES_PRICES as G_PRICE, GNOMES_QUESTS as G_QUESTS,
  GNOMES_TRAVEL as G_TRAVEL,
} from "../boards/names.js";

// -- plain words ------------------------------------------------------------------------------

function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** "a", "a and b", "a, b and c" ("nothing" for none). */
function andList(items, none = "nothing") {
  const xs = (items || []).filter((x) => x !== "" && x !== null && x !== undefined).map(String);
  if (!xs.length) return none;
  return xs.length === 1 ? xs[0] : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`;
}

function cap(s) {
  const t = String(s);
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** A text or id from the rules as plain words: no underscores, brackets, braces or quotes. */
function plain(v) {
  return String(v ?? "").replace(/_/g, " ").replace(/[[\]{}"]/g, "").replace(/\s+/g, " ").trim();
}

/** "the Coral Necklace", but "Knut's Carriage": a name that starts with a possessive takes no "the". */
function the(name) {
  return /^[A-Z]\w*(?:'s|s') /.test(name) ? name : `the ${name}`;
}

/** The name of `id` in `table`, or the id in words. */
function nameIn(table, id) {
  return table[id] ?? humanise(id ?? "");
}

const NTH = ["first", "second", "third", "fourth", "fifth"];

/** Entries of an object whose value is not 0, null or empty. */
function present(obj) {
  return Object.entries(obj || {}).filter(([, v]) => v !== 0 && v !== null && v !== undefined &&
    !(Array.isArray(v) && !v.length) && !(typeof v === "object" && !Array.isArray(v) && !Object.keys(v).length));
}

/** A seat in a label (labels have no who()): "Seat 2 (blue)" with the view's colour. */
function seatName(view, seat) {
  const colour = view?.players?.[seat]?.colour;
  return `Seat ${seat}${colour ? ` (${colour})` : ""}`;
}

// What the log said earlier that a later event refers to by number only: the Saga and Invention
// drawn into each slot (Noggin) and the tiles laid on the sites (Gnomes). A GameCreated starts over.
const memory = { sagas: [], inventions: [], layout: null };

function remember(event) {
  const d = event.data || {};
  switch (event.type) {
    case "GameCreated":
      memory.sagas = [];
      memory.inventions = [];
      memory.layout = null;
      break;
    case "SagaDrawn":
      memory.sagas[d.slot] = d.card;
      break;
    case "InventionDrawn":
      memory.inventions[d.slot] = d.card;
      break;
    case "LayoutPlaced":
      memory.layout = { ...(d.layout || {}) };
      break;
    default:
  }
}

// -- every game ---------------------------------------------------------------------------------

const TITLES = { noggin: "Tales of the Northlands: The Sagas of Noggin the Nog", gnomes: "A Game of Gnomes",
                 resource_hog: "Resource Hog" };
const OPTIONS = {
  another_train: "Another Train", arrival: "Arrival", money_money_money: "Money Money Money", move_on: "Move On",
  friend_or_foe: "One of Us? Friend or Foe?", so_long: "So Long", sos: "S.O.S.", you_owe_me_one: "You Owe Me One",
  random_layout: "the shuffled layout of a later game", gem_variant: "the gem variant",
};
const STRIKE_WHY = { timeout: "its answer came too late", crash: "its player crashed", malformed: "its move was malformed",
                     illegal: "its move was not legal" };

/** "Final scores: Seat 0 18 (13 during play, 5 for Nogs); ..." with `parts` naming the breakdown. */
function scores(d, who, parts) {
  const rows = (d.scores || []).map((total, i) => {
    const b = (d.breakdown || [])[i] || {};
    const bits = Object.entries(parts).filter(([k]) => b[k]).map(([k, say]) => say(b[k]));
    return `${who(i)} ${total}${bits.length ? ` (${bits.join(", ")})` : ""}`;
  });
  return `Final scores: ${rows.join("; ")}`;
}

function winners(d, who, title = "") {
  if (!Array.isArray(d.winners)) return "";
  if (!d.winners.length) return " — nobody wins";
  return ` — ${title ? `${title}: ` : "won by "}${andList(d.winners.map(who))}`;
}

const COMMON = {
  GameCreated: (d) => {
    const c = d.config || {};
    const on = Object.keys(c.options || {}).filter((k) => c.options[k]);
    return `${TITLES[c.game] || humanise(c.game ?? "")} begins for ${c.players} players` +
      (on.length ? `, played with ${andList(on.map((k) => OPTIONS[k] || humanise(k)))}` : "");
  },
  GameEnded: (d) => `The game ends: ${plain(d.reason)}`,
  FinalScored: (d, who) => scores(d, who, {}) + winners(d, who),
  StrikeRecorded: (d, who) => `${who(d.seat)} gets strike ${d.strikes}: ${STRIKE_WHY[d.reason] || plain(d.reason)}, ` +
    "so the default move is played for it",
  SeatForfeited: (d, who) => `${who(d.seat)} forfeits the game after ${plural(d.strikes, "strike")}; ` +
    "every other seat shares the win",
};

// -- Noggin the Nog -----------------------------------------------------------------------------

const N_RES = { stone: "Stone", wood: "Wood", fish: "Fish", harvest: "Harvest", gold: "Gold", coin: "coin", food: "Food" };

const N_ACTION = { miner: "Miner", fisherman: "Fisherman", woodcutter: "Woodcutter", farmer: "Farmer", builder: "Builder",
                   restock: "Restock", market_day: "Market Day" };

/** The Saga cards' names (content/sagas.json). */
const N_SAGA = {
  the_monster: "The Monster", the_dragon_hunt: "The Dragon Hunt", money: "Noggin and the Money",
  the_ice_dragon: "The Ice Dragon", the_flying_machine: "The Flying Machine", the_omruds: "The Omruds",
  the_firecake: "The Firecake", the_island: "The Island", the_pie: "The Pie", the_storks: "The Storks",
  the_moon_blossom: "The Moon Blossom", the_flowers: "The Flowers", the_whale: "The Whale",
  the_evil_uncle: "The Evil Uncle", the_game: "The Game", the_blackwater: "The Blackwater",
  the_crown: "The Crown of the Northlands", the_stranger: "The Stranger", the_long_ship: "The Long Ship",
  the_ice_fields: "The Ice Fields",
};
const N_TRANSPORT = { mine_cart: "Mine cart", wood_cart: "Wood cart", boat: "Fishing boat" };
const N_SPACE = { mountains: "the Mountains space", field0: "Field 1", field1: "Field 2", orchard: "the Orchard",
                  meadow: "the Meadow", new_land: "the New Land" };
/** The quarters of Nogbad's Wheel of Infamy, clockwise from the Fish (8.0), and what each blocks. */
const N_WHEEL = ["Sabotage Fishing Nets", "Trouble at Home", "Bears in the Woods", "Bad News"];
const N_BLOCKS = ["the Fisherman action", "Saga contributions on Market Day", "the Woodcutter action",
                  "fair trading at the Nog Market (3 for 1)"];
const N_SEASON = ["Spring", "Summer", "Autumn", "Winter"];
const N_EVICT = { thor: "Thor Nogson", graculus_romf: "Graculus and Romf", romf: "Romf and the Roman Medal",
                  graculus: "Graculus and the Roman Medal" };
const N_FLIP = { h: "left to right", v: "top to bottom" };
const N_POINTS_FOR = {
  "saga condition": "a Saga condition met without a Nog", saga: "Nogs on a finished Saga",
  "counting house": "face-up Counting House cards", "counting house bonus": "the Counting House bonus",
  donation: "a donation", econogology: "the EcoNogology", "evicting nogbad": "evicting Nogbad",
  hnefetfl: "the Hnefetfl", invention: "Nogs on an Invention another player won", restock: "restocking",
  "royal dungeon": "imprisoning Nogbad in the Royal Dungeon", "seer's tower": "the Seer's Tower",
  windmill: "the Windmill", accusation: "an accusation",
};

const nAction = (id) => nameIn(N_ACTION, id);
const nBuilding = (id) => nameIn(N_BUILDING, id);
const nChar = (id) => nameIn(N_CHAR, id);
const nSaga = (id) => nameIn(N_SAGA, id);
const nInvention = (id) => nameIn(N_INVENTION, id);
/** Any card a seat may own: an artefact, an Invention or a Year 2 building. */
const nCard = (id) => N_COUNTING[id] ?? N_INVENTION[id] ?? N_BUILDING[id] ?? humanise(id ?? "");
const nNeed = (id) => N_CHAR[id] ?? N_RES[id] ?? humanise(id ?? "");

/** A resource, or `n` of it ("2 Wood", "1 coin"). */
function nRes(id, n) {
  const name = N_RES[id] ?? humanise(id ?? "");
  if (n === undefined) return name;
  return id === "coin" ? plural(n, "coin") : `${n} ${name}`;
}

/** A list of cubes counted: ["stone", "wood", "wood"] is "1 Stone and 2 Wood". */
function nCubes(list) {
  const counts = new Map();
  for (const c of list || []) counts.set(c, (counts.get(c) || 0) + 1);
  return andList([...counts].map(([c, n]) => nRes(c, n)));
}

/** {resource: n} counted: {"wood": 1} is "1 Wood". */
function nTally(obj) {
  return andList(present(obj).map(([c, n]) => nRes(c, n)));
}

/** A Mine square [row, column] (the surface above the Mine is row -1), counted from 1. */
function nSquare(sq) {
  const [r, c] = sq || [];
  return r < 0 ? `the surface above column ${c + 1}` : `row ${r + 1}, column ${c + 1}`;
}

/** A Mine tile slot [row, column] of the 2 x 3 grid. */
function nSlot(slot) {
  const [r, c] = slot || [];
  return `the ${["upper", "lower"][r] ?? `row ${r + 1}`} ${["left", "middle", "right"][c] ?? `column ${c + 1}`} slot`;
}

/** A space of the Central Wheel from an absolute Step position (the Nog Moon is space 0). */
function nSpace(pos) {
  const s = ((Number(pos) % 10) + 10) % 10;
  return s === 0 ? "the Nog Moon" : `space ${s}`;
}

/** The Saga in `slot`: as the log drew it (`fromLog`, for events) or as the view shows it now. */
function nSagaIn(slot, view, fromLog) {
  const drawn = memory.sagas[slot] ? nSaga(memory.sagas[slot]) : null;
  const shown = view?.saga_cards?.[slot]?.name ?? (view?.sagas?.[slot]?.card ? nSaga(view.sagas[slot].card) : null);
  return (fromLog ? drawn || shown : shown || drawn) || `the ${NTH[slot] ?? "other"} Saga`;
}

function nInventionIn(slot, view, fromLog) {
  const drawn = memory.inventions[slot] ? nInvention(memory.inventions[slot]) : null;
  const shown = view?.invention_cards?.[slot]?.name ??
    (view?.inventions?.[slot]?.card ? nInvention(view.inventions[slot].card) : null);
  return (fromLog ? drawn || shown : shown || drawn) || `the ${NTH[slot] ?? "other"} Invention`;
}

/** A list of tiles with their counts: "Granary (2), Long House". */
function nCounted(ids, name) {
  const counts = new Map();
  for (const id of ids || []) counts.set(id, (counts.get(id) || 0) + 1);
  return andList([...counts].map(([id, n]) => `${name(id)}${n > 1 ? ` (${n})` : ""}`));
}

function byArtefact(d) {
  return d.artefact ? ` (${nCard(d.artefact)})` : "";
}

const NOGGIN = {
  GameEnded: (d) => `The game ends: ${plain(d.reason)}` +
    (d.crown === "nogbad" ? ", so Nogbad takes the crown" : d.crown === "noggin" ? ", so Noggin keeps the crown" : ""),
  FinalScored: (d, who) => {
    const line = scores(d, who, {
      play: (n) => `${n} during play`, inventions: (n) => `${n} for Inventions`, gold: (n) => `${n} for Gold`,
      buildings: (n) => `${n} for buildings`, coins: (n) => `${n} for coins`, nogs: (n) => `${n} for Nogs`,
      resources: (n) => `${n} for resources`,
    });
    const won = d.winners || [];
    const exile = d.leader_in_exile || [];
    if (d.winning_side === "nogbad") {
      return `${line} — Nogbad takes the crown` +
        (won.length ? `, and his friends ${andList(won.map(who))} win with him` : ", so every player has lost") +
        (exile.length ? `; ${andList(exile.map(who))} ${exile.length === 1 ? "is" : "are"} Leader in Exile` : "");
    }
    return `${line} — Noggin keeps the crown` + (won.length
      ? `; ${andList(won.map(who))} ${won.length === 1 ? "is" : "are"} elected to the Council of Elders` : "");
  },
  TurnOrderDrawn: (d, who) => `Turn order drawn: ${(d.markers || []).map((m) =>
    `${m.colour} (${m.seat === null || m.seat === undefined ? "a dummy player" : who(m.seat)})`).join(", ")}`,
  BuildingRowDrawn: (d) => `A ${d.row} row of Year ${d.year || 1} buildings is drawn: ${andList((d.tiles || []).map(nBuilding))}`,
  FirstMineTilePlaced: (d) => `The first Mine tile is laid in ${nSlot(d.slot)}` +
    `, its ${plural((d.stone || []).length, "tunnel square")} filled with Stone` +
    (d.gold ? ` and a Gold cube on ${nSquare(d.gold)}` : "") +
    (d.market_stone ? `; the other ${d.market_stone} Stone go to the Nog Market` : ""),
  TurnStarted: (d, who) => `${who(d.seat)}'s turn begins`,
  RunestoneMoved: (d) => `The Runestone moves to ${nSpace(d.to)} of the Central Wheel`,
  StepsSpent: (d, who) => `${who(d.seat)}'s Step marker moves to ${nSpace(d.to)}`,
  TurnEnded: (d, who) => `${who(d.seat)} ends the turn with the Step marker on ${nSpace(d.to)}` +
    (d.clock ? ", one space back with the Cupola Clock" : ""),
  DummyMoved: (d) => `The ${d.colour} dummy player's Step marker moves to ${nSpace(d.to)}`,
  ActionStarted: (d, who) => `${who(d.seat)} places ${plural(d.nogs, "Nog")} on the ${nAction(d.action)} space ` +
    "and starts the action",
  ActionFinished: (d, who) => `${who(d.seat)} finishes the ${nAction(d.action)} action` +
    (present(d.unloaded).length ? `, storing ${nTally(d.unloaded)}` : ""),
  StoneDug: (d, who) => `${who(d.seat)} digs 1 ${nRes(d.cube)} at ${nSquare(d.square)} of the Mine`,
  MinerWalked: (d, who) => `${who(d.seat)}'s Miner walks to ${nSquare(d.square)}` +
    (d.free ? ` for no Step${byArtefact(d)}` : ""),
  MineTileDrawn: (d) => `A Mine tile ${d.tile === "start" ? "without Gold" : "with Gold"} is drawn from the pile`,
  MineTileDiscovered: (d, who) => `${who(d.seat)} discovers a new part of the Mine in ${nSlot(d.slot)}, ` +
    `${d.rotation ? `turned ${d.rotation}°` : "not turned"} and flipped ${N_FLIP[d.flip] ?? plain(d.flip)}: ` +
    `${plural((d.stone || []).length, "Stone cube")} fill its tunnels` +
    (d.gold ? ` and a Gold cube lies on ${nSquare(d.gold)}` : ""),
  FishingTokensDrawn: (d) => `Fishing tokens drawn: ${andList((d.tokens || []).map((t) =>
    (t.fish ? plural(t.fish, "fish", "fish") : "an old boot")))}`,
  FishCaught: (d, who) => {
    const more = [];
    if (d.shown !== undefined && d.shown !== d.fish) more.push(`${d.shown} shown`);
    if (d.thrown_back) more.push(`${d.thrown_back} thrown back into the fjord`);
    if (d.not_in_fjord) more.push(`${d.not_in_fjord} not in the fjord`);
    return `${who(d.seat)} catches ${nRes("fish", d.fish)}${more.length ? ` (${more.join("; ")})` : ""}`;
  },
  WoodcutterMoved: (d, who) => `${who(d.seat)}'s Woodcutter walks to clearing ${d.clearing + 1}` +
    (d.wood ? ` and cuts ${nRes("wood", d.wood)}` : " but cuts no Wood"),
  OrchardTreeCut: (d, who) => `${who(d.seat)} cuts down a tree in the Orchard for 1 Wood`,
  FieldSown: (d, who) => `${who(d.seat)} sows Field ${d.field + 1} with ${nRes("harvest", d.harvest)} from the Nog Market`,
  FieldHarvested: (d, who) => `${who(d.seat)} reaps ${nRes("harvest", d.harvest)} from Field ${d.field + 1}`,
  ApplePicked: (d, who) => `${who(d.seat)} picks the apples of Orchard tree ${d.tree + 1} for 1 Harvest`,
  BuildingBuilt: (d, who) => `${who(d.seat)} builds ${the(nBuilding(d.building))}` +
    (d.space === "beside" ? " beside the player board" : ` on ${nameIn(N_SPACE, d.space)}`) +
    (d.from === "pile" ? " from the Year 1 pile" : "") + (d.paid?.length ? `, paying ${nCubes(d.paid)}` : "") +
    (d.nogs ? `, and gains ${plural(d.nogs, "Nog")}` : ""),
  TransportUpgraded: (d, who) => `${who(d.seat)} upgrades the ${nameIn(N_TRANSPORT, d.transport)} to carry 4` +
    (d.paid?.length ? `, paying ${nCubes(d.paid)}` : ""),
  Restocked: (d, who) => (d.kind === "fish"
    ? `${who(d.seat)} restocks the fjord with ${nRes("fish", d.amount)}`
    : `${who(d.seat)} replants ${plural(d.amount, "tree")}` + (d.orchard ? `, ${d.orchard} of them in the Orchard` : "")) +
    byArtefact(d),
  PointsScored: (d, who) => `${who(d.seat)} ` +
    (d.points < 0 ? `loses ${plural(-d.points, "point")}` : `scores ${plural(d.points, "point")}`) +
    (d.for ? ` for ${N_POINTS_FOR[d.for] ?? plain(d.for)}` : ""),
  Traded: (d, who) => `${who(d.seat)} trades ${nCubes(d.give)} for ${nRes(d.take, 1)} at the Nog Market`,
  Donated: (d, who) => `${who(d.seat)} gives ${nTally(d.given)} to the Nog Market for the needy Nogs`,
  CharacterUsed: (d, who) => `${who(d.seat)} calls on ${nChar(d.character)}` +
    (d.paid?.length ? `, paying ${nCubes(d.paid)}` : ", with no Food to pay"),
  NogginSwapped: (d, who) => `${who(d.seat)} sends Noggin to take the place of ` +
    `${d.owner === d.seat ? "one of its own Nogs" : `a Nog of ${who(d.owner)}`} on the ${nAction(d.action)} space; that Nog goes home`,
  CharacterMoved: (d) => {
    if (d.by === "flying boat") return `The Flying Boat takes ${nChar(d.character)} off a card`;
    if (d.by === d.character) return `${nChar(d.character)} returns to Noggin's Castle`;
    if (N_CHAR[d.by]) return `${nChar(d.by)} brings ${nChar(d.character)} back to Noggin's Castle`;
    return `${nChar(d.character)} goes to ${d.to === "castle" ? "Noggin's Castle" : plain(d.to)}`;
  },
  CrowTurned: (d, who) => `The Infamous Crow turns to ${N_WHEEL[d.quarter] ?? `quarter ${d.quarter}`} on Nogbad's Wheel of Infamy` +
    (d.by === "thor" ? " (Thor Nogson)" : d.by === "darkness tome"
      ? ` (${d.seat !== undefined ? `${who(d.seat)}'s ` : "the "}Darkness Tome)` : d.by ? ` (${plain(d.by)})` : ""),
  NogbadMoved: (d, who) => {
    if (d.to === "active") {
      return `${d.escaped ? "Nogbad escapes from the Royal Dungeon" : "Nogbad is active"} and blocks ` +
        `${N_BLOCKS[d.quarter] ?? "an action"} (${N_WHEEL[d.quarter] ?? `quarter ${d.quarter}`})`;
    }
    if (d.to === "dungeon") return `Nogbad is locked in the Royal Dungeon, with a Nog of ${who(d.gaoler)} as his gaoler`;
    if (d.to === "castle") return "Nogbad goes back to his castle";
    return `Nogbad goes to ${plain(d.to)}`;
  },
  NogbadEvicted: (d, who) => `${who(d.seat)} evicts Nogbad from the ${nAction(d.space)} space with ` +
    `${N_EVICT[d.by] ?? plain(d.by)}` + (d.paid?.length ? `, paying ${nCubes(d.paid)}` : ""),
  TilesSwapped: (d) => `Romf swaps building tile ${d.top + 1} of the top row with tile ${d.bottom + 1} of the bottom row`,
  ReserveCardDiscarded: (d, who, v) => `${nChar(d.by ?? "nooka")} discards the Reserve card of ${nSagaIn(d.saga, v, true)}`,
  ReserveCardsPeeked: (d, who) => {
    const cards = d.cards || [];
    const scope = d.by === "telescope" ? "at the bottom" : "on top";
    return `${d.by === "telescope" ? "The Telescope" : "Knut"} shows ${who(d.seat)} ` +
      `${cards.length === 1 ? "the card" : `the ${cards.length} cards`} ${scope} of Reserve deck ${d.deck}: ` +
      cards.map((c) => `${andList((c.needs || []).map(nNeed))}${c.bonus ? " with the Counting House icon" : ""}, ` +
        `${c.nogbad ? "Nogbad's portrait" : "Nooka's knife"} on the back`).join("; ");
  },
  ReserveCardsReturned: (d, who) => `${who(d.seat)} puts the cards back on Reserve deck ${d.deck}`,
  KnutOrdered: (d, who) => `${who(d.seat)} puts Knut's cards back on deck ${d.deck} ${d.swap ? "swapped" : "in the same order"}`,
  DecisionOpened: (d, who) => (d.kind === "knut"
    ? `Knut lets ${who(d.seat)} look at the top ${d.cards === 1 ? "card" : `${d.cards} cards`} of Reserve deck ${d.deck}`
    : `${who(d.seat)} has a decision to make: ${plain(d.kind)}`),
  SagaDrawn: (d) => `The Saga ${nSaga(d.card)} is drawn; it needs ${plural(d.needed, "Reserve card")}`,
  ReserveCardDrawn: (d, who, v) => `A Reserve card from the ${d.end} of deck ${d.deck} goes on the Harbourside of ` +
    `${nSagaIn(d.saga, v, true)}, asking for ${andList((d.needs || []).map(nNeed))}` +
    (d.bonus ? ", with the Counting House icon" : "") +
    (d.recalled?.length ? `; ${andList(d.recalled.map(nChar))} ${d.recalled.length === 1 ? "goes" : "go"} back to ` +
      "the Castle to be recruited again" : ""),
  ReserveCardSealed: (d, who, v) => `The Reserve card on ${nSagaIn(d.saga, v, true)} is noted in secret: no player sees its back`,
  ReserveDeckReshuffled: (d) => `Reserve deck ${d.deck} has run out and is made again from its ` +
    `${plural(d.size, "discarded card")}, shuffled`,
  ReservePoolSealed: (d) => `The discarded cards of Reserve deck ${d.deck} are gathered face down, hidden from every player`,
  SagaConditionMet: (d, who, v) => {
    const saga = nSagaIn(d.saga, v, true);
    let what;
    if (N_CHAR[d.need]) {
      what = `recruits ${nChar(d.need)} for ${saga}` + (d.paid ? `, paying 1 ${nRes(d.paid)}` : ` with no Food to pay${byArtefact(d)}`);
    } else {
      what = `gives ${nRes(d.paid ?? d.need, 1)} to ${saga}` + (d.paid && d.paid !== d.need ? ` for its ${nNeed(d.need)}` : "");
    }
    const nog = d.bonus ? ", placing a Nog on the Counting House icon" : d.nog ? ", placing a Nog"
      : `${what.includes(",") ? "," : ""} and scores 1 point instead of placing a Nog`;
    return `${who(d.seat)} ${what}${nog}`;
  },
  ReserveCardTurned: (d, who, v) => `The Reserve card of ${nSagaIn(d.saga, v, true)} is complete and turned over: ` +
    `${d.nogbad ? "Nogbad's portrait!" : "Nooka's knife"}`,
  SagaEndStage: (d, who) => {
    if (d.seat !== undefined && d.adjust !== undefined) {
      const count = d.adjust > 0 ? "one Nog more" : d.adjust < 0 ? "one Nog fewer" : "the Nogs as they are";
      return `${who(d.seat)} uses the Seer's Tower to count ${count}`;
    }
    if (d.seat !== undefined) {
      return d.fireworks ? `${who(d.seat)} sets off the Fireworks: one more space for Noggin's popularity`
        : `${who(d.seat)} keeps the Fireworks`;
    }
    if (d.stage === "fireworks") return "A Saga is finishing; no Seer's Tower changes its count of Nogs";
    if (d.stage === "score") return "A Saga is finishing; no Fireworks are set off";
    return `A Saga is finishing: ${plain(d.stage)}`;
  },
  DragonMoved: (d) => `${nSaga(d.saga)} is finished with ${plural(d.nogs, "Nog")} on it: Noggin's Dragon moves ` +
    `${plural(d.by, "space")} toward the crown` + (d.to > 0 ? ` (${plural(d.to, "space")} left)` : " and reaches it"),
  SagaNogsHome: (d, who, v) => {
    const back = (d.nogs || []).map((n, s) => (n ? `${n} to ${who(s)}` : "")).filter(Boolean);
    return `The Nogs on ${nSagaIn(d.saga, v, true)} go home${back.length ? `: ${andList(back)}` : ""}`;
  },
  SagaCleared: (d) => `${nSaga(d.card)} is put away: its characters return to Noggin's Castle and its Reserve cards are discarded` +
    (d.coins ? `; ${plural(d.coins, "coin")} come into play at the Nog Market` : ""),
  NogsRecalled: (d, who, v) => `${who(d.seat)} takes a Nog back from Reserve card ${d.card + 1} of ${nSagaIn(d.saga, v, true)}`,
  InventionDrawn: (d) => `The Invention ${nInvention(d.card)} is drawn`,
  InventionConditionMet: (d, who, v) => {
    const inv = nInventionIn(d.invention, v, true);
    let what;
    if (N_CHAR[d.need]) {
      what = `brings ${nChar(d.need)} to the ${inv}` + (d.paid ? `, paying 1 ${nRes(d.paid)}` : ", with no Food to pay");
    } else if (!d.paid) {
      what = `meets the ${nNeed(d.need)} condition of the ${inv} with no cube (Blacksmith)`;
    } else {
      what = `gives ${nRes(d.paid, 1)} to the ${inv}` + (d.paid !== d.need ? ` for its ${nNeed(d.need)}` : "") +
        (d.olaf ? " (Olaf allows any resource)" : "");
    }
    return `${who(d.seat)} ${what}, placing a Nog`;
  },
  InventionCompleted: (d, who) => `The ${nInvention(d.card)} is invented` +
    (d.winner !== null && d.winner !== undefined ? ` and goes to ${who(d.winner)}` : "") + (d.forge ? ", with the Forge token" : ""),
  InventionDiscarded: (d) => `The Invention ${nInvention(d.card)}, with nothing on it, is discarded`,
  CountingHouseDrawn: (d) => `The Counting House card ${nCard(d.card)} is drawn`,
  CountingHouseDiscarded: (d) => `The Counting House card ${nCard(d.card)}, not sold, is discarded`,
  AuctionStarted: (d, who) => `${who(d.seat)} auctions the Counting House card ${nCard(d.card)}; the bids go round ` +
    `${(d.order || []).map(who).join(", ")}`,
  BidMade: (d, who) => (d.steps ? `${who(d.seat)} bids ${plural(d.steps, "Step")}` : `${who(d.seat)} passes`),
  AuctionWon: (d, who) => `${who(d.seat)} wins ${the(nCard(d.card))} with a bid of ${plural(d.steps, "Step")}` +
    (d.paid !== undefined && d.paid !== d.steps ? `, moving ${plural(d.paid, "Step")}${byArtefact(d)}` : "") +
    `; the Step marker goes to ${nSpace(d.to)}`,
  AuctionLost: (d) => `Nobody bids for ${the(nCard(d.card))}; it stays in the Counting House`,
  CountingHouseCardKept: (d, who) => (d.up
    ? `${who(d.seat)} keeps ${the(nCard(d.card))} face up: its artefact may be used, and it scores 2 points every season`
    : `${who(d.seat)} turns ${the(nCard(d.card))} face down for 8 points now`),
  AbilityUsed: (d, who) => {
    const s = who(d.seat);
    switch (d.card) {
      case "knuts_seat": return `${s} places a Nog on Knut's Seat`;
      case "royal_kitchens": return `${s} places a Nog in the Royal Kitchens and gains ${nTally(d.gained)}`;
      case "windmill": return `${s} puts a Nog and ${nCubes(d.paid)} on the Windmill`;
      case "nookas_kitchen_garden": case "omruds_ornamental_garden": case "royal_horse_trough":
        return `${s} locks ${nTally(d.locked)} on ${the(nBuilding(d.card))}`;
      case "war_banner": return `${s} uses the War Banner, paying ${nCubes(d.paid)}, to take a Nog back from the ` +
        `${nAction(d.action_nog)} space`;
      case "potion": return `${s} uses the Potion to take ${nTally(d.gained)} from the Nog Market`;
      case "heated_storkery": return `${s} gains ${nTally(d.gained)} from the Heated Storkery`;
      case "hnefetfl": return `${s} uses the Hnefetfl`;
      case "telescope": return `${s} looks at the bottom card of Reserve deck ${d.deck} with the Telescope`;
      case "birds_crown": return `${s}'s Woodcutter jumps over a clearing with the Bird's Crown`;
      case "honey_and_mead": return `${s} takes one more Market Day pick with Honey & Mead`;
      case "coral_necklace": return `${s} puts a Fishing token back in the bag and draws another with the Coral Necklace`;
      default: return `${s} uses ${the(nCard(d.card))}`;
    }
  },
  StepsUsed: (d, who) => `${who(d.seat)} spends Steps on the Hnefetfl; the Step marker moves to ${nSpace(d.to)}`,
  LoyaltyDealt: (d, who) => `${who(d.seat)} is dealt a Friend or Foe card showing ` +
    (d.card === "nogbad" ? "Nogbad: a foe, who wins only if Nogbad takes the crown" : "Noggin: a friend"),
  Accused: (d, who) => `${who(d.seat)} plays the Accusation card against ${who(d.accused)}, whose card shows ` +
    (d.card === "nogbad" ? "Nogbad: unmasked!" : "Noggin: a false accusation"),
  CrowAdvanced: (d) => "Nogbad's Crow moves one space toward the crown" +
    (d.to > 0 ? ` (${plural(d.to, "space")} left)` : " and reaches it"),
  SeasonAdvanced: (d) => `The season changes: ${N_SEASON[(d.season - 1) % 4] ?? plain(d.name)} of Year ${d.season > 4 ? 2 : 1} ` +
    `(season ${d.season} of 8)`,
  NogsReturned: (d, who) => {
    const back = (d.nogs || []).map((n, s) => (n ? `${n} to ${who(s)}` : "")).filter(Boolean);
    const trapped = present(d.trapped).map(([s, a]) => `${who(Number(s))}'s on the ${nAction(a)} space`);
    const spared = present(d.spared).map(([s]) => who(Number(s)));
    return `Nogs come home from the action spaces${back.length ? `: ${andList(back)}` : ": none"}` +
      (trapped.length ? `; Nogbad traps the Nogs of ${andList(trapped)}` : "") +
      (spared.length ? `; the Silver Gong saves ${andList(spared)}'s from his trap` : "");
  },
  HarvestsWilted: (d, who) => {
    const lost = (d.harvest || []).map((n, s) => (n ? `${nRes("harvest", n)} of ${who(s)}` : "")).filter(Boolean);
    return lost.length ? `Winter: the harvests left in the fields wilt, ${andList(lost)} going back to the Nog Market`
      : "Winter: no harvest was left in the fields to wilt";
  },
  BuildingRowsChanged: (d) => "The building rows move down" + (d.drawn?.length
    ? `; a new top row of Year ${d.year || 1} buildings is drawn: ${andList(d.drawn.map(nBuilding))}` : "; no new row is drawn"),
  Year1PileFormed: (d) => `Year 2 begins: the ${plural(d.total ?? (d.tiles || []).length, "Year 1 building")} left form a ` +
    `face-up pile: ${nCounted(d.tiles, nBuilding)}`,
};

// -- A Game of Gnomes ---------------------------------------------------------------------------

/** Each travel card's sand timer in weeks (content/cards.json). */
const G_CARD_WEEKS = { meadow: 1, forest: 1, mountain: 1, double_meadow: 2, double_forest: 2, double_mountain: 2,
                       free: 2, nugget: 0 };
/** Weeks an item takes to move a gnome (rulebook I; the Leaf Boat 2, house rule; a key no time). */
const G_ITEM_WEEKS = { canteen: 1, short_axe: 1, hill_boots: 1, compass: 1, leaf_boat: 2, tunnel_key: 0, spare_key: 0 };
const G_SHOPS = { market_meadow: "Market Meadow Shop", forest_fete: "Forest Fete Shop", hillview_hut: "Hillview Hut Shop" };
/** The location tiles' names (content/tiles.json). */
const G_TILES = {
  A: "Amanita", B: "Boletus", C: "Calvatia", D: "Descina", E: "Exidea", F: "Fuligo", G: "Grifola", H: "Hydnum",
  I: "Inocybe", J: "Jafnea", K: "Kolus", L: "Lactarius", ...G_SHOPS,
  house_red: "the red gnome house", house_yellow: "the yellow gnome house", house_blue: "the blue gnome house",
  house_green: "the green gnome house",
};
const G_LEVEL = { g: "grass", r: "rock", n: "snow" };

/** A card: a travel card, an item, a treasure or a map ("Map g1–r1"). */
function gCard(id) {
  if (G_TRAVEL[id]) return `${G_TRAVEL[id]} card`;
  if (G_ITEMS[id]) return G_ITEMS[id];
  const m = /^map_(.+)$/.exec(String(id));
  if (m) return `Map ${m[1].split("_").join("–")}`;
  return humanise(id ?? "");
}

function aCard(id) {
  const name = gCard(id);
  return /^[AEIOU]/.test(name) ? `an ${name}` : `a ${name}`;
}

const gShop = (id) => nameIn(G_SHOPS, id);
const gTile = (id) => nameIn(G_TILES, id);
const gWeeks = (n) => (n ? plural(n, "week") : "no time");
const gMushroom = (c) => (c === "king" ? "a Montane King mushroom" : `a ${c} mushroom`);
/** Cards listed with their counts: "Short Axe (2) and Canteen". */
const gCards = (ids) => nCounted(ids, gCard);
const gQuest = (id) => G_QUESTS[id]?.[0] ?? plain(id);
/** A price in brown gems (rulebook C.4): "1 brown gem's worth", "3 brown gems' worth". */
const gWorth = (n) => (n === 1 ? "1 brown gem's worth" : `${n} brown gems' worth`);

/** A place: a site by the tile on it (the view's `places`, else the layout the log laid), the
 * Sorcerer's tower, or a space of Gnome Mountain. */
function gPlace(p, view) {
  if (p === "tower") return "the Sorcerer's tower";
  const m = /^([grn])(\d+)$/.exec(String(p));
  if (m) return m[1] === "n" && m[2] === "1" ? "the summit of Gnome Mountain" : `Gnome Mountain (${G_LEVEL[m[1]]} ${m[2]})`;
  const named = view?.places?.[p];
  if (named?.name) return named.kind === "house" ? the(named.name) : named.name;
  const tile = memory.layout?.[p];
  if (tile) return gTile(tile);
  const site = /^s(\d+)$/.exec(String(p));
  return site ? `site ${Number(site[1])}` : plain(p);
}

/** Gems counted: {"brown": 4} is "4 brown gems". */
function gGems(gems) {
  return andList(present(gems).map(([c, n]) => plural(n, `${c} gem`)));
}

function gGained(d) {
  return (d.replaced?.length ? `, giving up the ${andList(d.replaced.map(gCard))}` : "") +
    (d.return_map ? `, handing the ${gCard(d.return_map)} to the shop` : "");
}

const GNOMES = {
  GameEnded: (d) => (d.reason === "calendar" ? `The game ends: the Calendar timer reaches week ${d.week}`
    : `The game ends: ${plain(d.reason)}`),
  FinalScored: (d, who) => scores(d, who, {
    gems: (n) => `${n} in gems`, nuggets: (n) => `${n} for nugget cards`, golden: (n) => `${n} for golden mushrooms`,
    treasure: (n) => `${n} for treasure`, quest: (n) => `${n} for an unfinished quest`,
  }) + winners(d, who, "Gnome de Plume"),
  GnomesChosen: (d, who) => "The gnomes are drawn: " +
    andList((d.colours || []).map((c, i) => `${who(i)} plays ${c}`)),
  LayoutPlaced: (d) => (d.random ? "The location tiles are shuffled onto the sites, as in a later game"
    : "The location tiles are laid out as for a first game"),
  GemsMixed: (d) => `The gem variant: mixed gems are placed on each village` +
    (d.gems && "tower" in d.gems ? " and on the Sorcerer's tower" : ""),
  StarterItemsDealt: (d) => `Each shop gets one of the starting items: ${andList(present(d.shops).map(([s, c]) =>
    `the ${gCard(c)} at ${gShop(s)}`))}`,
  ShopCardsDrawn: (d) => {
    const by = new Map();
    for (const [shop, card] of d.draws || []) by.set(shop, [...(by.get(shop) || []), card]);
    return `Shop cards drawn: ${[...by].map(([s, cs]) => (s
      ? `${gCards(cs)} for ${gShop(s)}`
      : `${gCards(cs)}, which ${cs.length === 1 ? "perishes in winter and leaves" : "perish in winter and leave"} the game`))
      .join("; ")}`;
  },
  TreasuresShuffledIn: (d) => `The ${plural((d.treasures || []).length, "treasure card")} are shuffled into the shop item deck`,
  TravelDeckReshuffled: (d) => `The travel discard pile is shuffled into a new draw deck of ${plural(d.cards, "card")}`,
  DreamPilesRefilled: (d) => `The dream cards are replenished: ${present(d.piles).map(([k, cs]) =>
    `pile ${k} ${gCards(cs)}`).join("; ") || "no card is left to deal"}`,
  QuestsDrawn: (d) => (d.quests?.length ? `Quests come to the Sorcerer's tower: to ${d.quests.map(gQuest).join("; to ")}`
    : "No quest comes to the Sorcerer's tower") +
    (d.removed?.length ? `; winter removes the quests to ${d.removed.map(gQuest).join("; to ")}` : ""),
  RoundStarted: (d, who) => `Round ${d.round} begins` + (d.order?.length ? `; turn order ${d.order.map(who).join(", ")}` : ""),
  GnomeMoved: (d, who, v) => {
    const path = d.path || [];
    const via = path.length > 1 ? ` by way of ${andList(path.slice(0, -1).map((p) => gPlace(p, v)))}` : "";
    const cards = d.cards || [];
    const how = {
      card: () => ` with ${aCard(cards[0])}`,
      three_for_free: () => ` by three for free with ${gCards(cards)}`,
      equipment: () => ` with the ${gCard(d.item)}` + (d.crossed ? ` over the ${d.crossed}` : ""),
      ice: () => ` over the frozen ${d.crossed || "water"}`,
      winter_path: () => " along the Sorcerer's footprints in the snow",
      map: () => ` climbing with the ${gCard(d.item)}`,
    }[d.by];
    return `${who(d.seat)}'s gnome goes from ${gPlace(d.from, v)}${via} to ${gPlace(path[path.length - 1], v)}` +
      `${how ? how() : ""}${d.frog ? ", riding the frog" : ""} (${gWeeks(d.weeks)})`;
  },
  PondPipesUsed: (d, who) => `${who(d.seat)} uses the Pond Pipes and rides the frog this round`,
  MushroomPicked: (d, who, v) => `${who(d.seat)} picks ${gMushroom(d.mushroom)} at ${gPlace(d.place, v)} (${gWeeks(d.weeks)})`,
  MushroomSold: (d, who) => `${who(d.seat)} sells ${gMushroom(d.mushroom)} ` +
    `${d.at === "tower" ? "to the Sorcerer" : `in ${gTile(d.at)}`} for a ${d.gem} gem` +
    (d.from ? "" : " from the supply") + (d.mushroom === "king" ? " and a golden mushroom" : ""),
  CardBought: (d, who) => `${who(d.seat)} buys the ${gCard(d.card)} at ${gShop(d.shop)} for ` +
    `${gWorth(d.cost)}` + (d.nuggets ? `, ${plural(d.nuggets, "nugget card")} paying part` : "") + gGained(d),
  ShopRestocked: (d, who) => `${who(d.seat)} waits at ${gShop(d.shop)} for new stock (${gWeeks(d.weeks)}); ` +
    "its old cards go to the bottom of the shop deck",
  Scouted: (d, who) => `${who(d.seat)} scouts for a travel card (${gWeeks(d.weeks)})`,
  TravelCardDrawn: (d, who) => `${who(d.seat)} draws ${aCard(d.card)}`,
  QuestAccepted: (d, who) => `${who(d.seat)} accepts the Sorcerer's quest to ${gQuest(d.quest)}` +
    (present(d.gems).length ? ` and takes ${gGems(d.gems)} at once` : ""),
  QuestRewardTaken: (d, who) => `${who(d.seat)} takes the ${gCard(d.card)} from ${gShop(d.shop)} as the quest's reward` + gGained(d),
  QuestCompleted: (d, who) => `${who(d.seat)} completes the quest to ${gQuest(d.quest)}`,
  TurnEnded: (d, who, v) => `${who(d.seat)} ends the turn with the gnome timer on week ${d.timer}` +
    (d.discarded?.length ? `; the cards played go to the discard pile: ${gCards(d.discarded)}` : "") +
    (d.displaced || []).map((x) => `; ${who(x.seat)}'s gnome is pushed back to ${gPlace(x.to, v)}`).join(""),
  SleepBegan: (d, who) => `Sleep: the exhausted gnomes stand on week ${d.exhausted}` +
    (d.sleepers?.length ? `; ${andList(d.sleepers.map(who))} may sleep` : "; nobody has weeks left to sleep"),
  Slept: (d, who) => `${who(d.seat)} sleeps ${plural(d.weeks, "week")}` + (d.piles?.length
    ? ` and takes dream ${d.piles.length === 1 ? "pile" : "piles"} ${andList(d.piles.map(String))}: ${gCards(d.cards)}`
    : " and takes no dream cards"),
  SleepEnded: () => "Sleep is over: every gnome timer has reached the exhausted gnomes",
  HandDiscarded: (d, who) => `${who(d.seat)} discards ${gCards(d.cards)} down to the rucksack's hand limit`,
  HandsChecked: () => "Every hand is checked against its rucksack's limit",
  CalendarMoved: (d) => `The Calendar timer moves ${plural(d.weeks, "week")} to week ${d.to} (${plain(d.season)})`,
  MushroomsSprouted: (d) => `Week ${d.week}: ${d.colour} mushrooms sprout in ${plural((d.places || []).length, "place")}`,
  MushroomsRotted: (d, who) => {
    const where = [`${(d.board || []).length} on the board`,
      ...present(d.baskets).map(([s, n]) => `${n} in ${who(Number(s))}'s basket`)];
    return `Week ${d.week}: the ${andList(d.colours || [])} mushrooms rot away: ${andList(where)}`;
  },
  WinterCame: (d, who) => {
    const shops = present(d.shops).map(([s, cs]) => `${gCards(cs)} from ${gShop(s)}`);
    const kept = present(d.equipment).map(([s, cs]) => `${gCards(cs)} from ${who(Number(s))}`);
    return "Winter comes: the river and the lake freeze and the Sorcerer's footprints lead to his tower" +
      (shops.length || kept.length ? `; the items that perish in winter go: ${[...shops, ...kept].join("; ")}` : "") +
      (d.quests?.length ? `; the ${d.quests.length === 1 ? "quest" : "quests"} to ${d.quests.map(gQuest).join(" and to ")} ` +
        `${d.quests.length === 1 ? "leaves" : "leave"} the tower` : "");
  },
  FrogReturned: (d, who) => `${who(d.seat)} gets off the frog at the end of the round`,
  MountainBonus: (d, who) => (d.seats?.length
    ? `Highest on Gnome Mountain: ${andList(d.seats.map(who))} ${d.seats.length === 1 ? "gets" : "get"} a ${d.gem} gem`
    : "Nobody is on Gnome Mountain: no mountain bonus"),
};

// -- Resource Hog -------------------------------------------------------------------------------

/** The land areas' names (content/map.json) and the waters. */
const R_LANDS = { L1: "Ashby", L2: "Brackenholm", L3: "Cragmoor", L4: "Dunfield", L5: "Eastwold", L6: "Fernhollow",
                  L7: "Greystone", L8: "Harrowmere" };
const R_RING = ["L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8"];
const R_WATERS = { west_sea: "the Western Sea", east_sea: "the Eastern Sea", mere: "the Mere" };
const R_GOODS = { preserved: ["preserved food", "preserved food"], salt: ["salt", "salt"],
                  weapons: ["arms and armour", "arms and armour"], slave: ["slave", "slaves"],
                  mercenary: ["mercenary", "mercenaries"], fish: ["fish", "fish"], meat: ["meat", "meat"],
                  grain: ["grain", "grain"], gold: ["gold", "gold"], money: ["money", "money"],
                  peasants: ["peasant", "peasants"], nobles: ["noble", "nobles"] };
const R_ACTIONS = { peasants: "Peasants", nobles: "Nobles", trade: "Trade" };
const R_BUILDINGS = { road: "road", harbour: "harbour", mine: "mine", stone_head: "stone head", manor: "manor",
                      motte: "motte", castle: "castle" };
/** What each building costs at the build event (docs/house-rules.md, Costs; content/buildings.json). */
const R_BUILD_COST = { road: [5, {}], harbour: [10, {}], mine: [10, {}], stone_head: [5, {}], manor: [10, { weapons: 1 }],
                       motte: [10, {}], castle: [10, {}] };
/** What a mine-working peasant takes (content/buildings.json, mine_yields). */
const R_MINE_YIELD = { gold: 2, salt: 2, weapons: 1 };
/** The trading board's prices, bottom row first, two slots a row (house rules: the trading board). */
const R_PRICES = { preserved: [6, 5, 4, 3, 2], salt: [5, 4, 3, 2, 1], weapons: [12, 10, 8, 6, 4] };
const R_SLOTS = 2;
const R_TRACK_PRICE = { slave: 8, mercenary: 10 };
/** What a peasant sold as a slave fetches (trading.json slave_sell_price; house rule: slaves). */
const R_SLAVE_SELL = 2;
/** What one unit of a ransom's margin is in each kind (table: fight). */
const R_RANSOM = { money: 10, salt: 2, weapons: 1, preserved: 1, peasants: 1 };

const rArea = (a) => (R_LANDS[a] ? `${a} ${R_LANDS[a]}` : R_WATERS[a] ?? plain(a));
const rBuilding = (b) => nameIn(R_BUILDINGS, b).toLowerCase();
const aBuilding = (b) => `a${/^[aeiou]/.test(rBuilding(b)) ? "n" : ""} ${rBuilding(b)}`;

/** A good, or `n` of it ("2 salt", "1 slave"). */
function rGood(g, n) {
  const [one, many] = R_GOODS[g] ?? [plain(g), plain(g)];
  return n === undefined ? one : `${n} ${n === 1 ? one : many}`;
}

function rGoods(obj) {
  return andList(present(obj).map(([g, n]) => rGood(g, n)));
}

const carrying = (goods) => (present(goods).length ? `, carrying ${rGoods(goods)}` : "");
const rOrder = (order) => (order || []).map((a) => nameIn(R_ACTIONS, a)).join(", then ");

/** Area -> {good: n} as "1 fish in L7 Greystone; 2 salt in L1 Ashby". */
function rByArea(obj, say = rGoods) {
  return present(obj).map(([a, x]) => `${say(x)} in ${rArea(a)}`).join("; ");
}

/** The work a peasant is set to (``fish:<water>``, ``mine:<good>``, ``build:<building>`` and the rest). */
function rWork(w) {
  const [kind, arg] = String(w).split(":");
  switch (kind) {
    case "fish": return `fish in ${R_WATERS[arg] ?? plain(arg)}`;
    case "hunt": return "hunt in a forest";
    case "toil": return "toil a field";
    case "mine": return `work the mine for ${rGood(arg, R_MINE_YIELD[arg] ?? 1)}`;
    case "clear": return "clear a forest square into a field";
    case "build": return `build ${aBuilding(arg)}`;
    case "population": return "grow the population";
    case "knight": return "make a noble (knighting)";
    default: return plain(w);
  }
}

/** A ransom in units of margin, as what is handed over: {"money": 1, "salt": 1} is "10 money and 2 salt". */
function rRansom(pay) {
  return andList(present(pay).map(([k, units]) => rGood(k, units * (R_RANSOM[k] ?? 1))));
}

function rWhyNotBuilt(d) {
  const why = String(d.reason ?? "");
  if (/^the store lacks/.test(why)) {
    const [, goods] = R_BUILD_COST[d.building] ?? [0, {}];
    return `the area's store lacks the ${rGoods(goods)} it needs`;
  }
  return plain(why.replace(new RegExp(d.building, "g"), rBuilding(d.building)));
}

const RESOURCE_HOG = {
  GameEnded: (d) => (d.reason === "rounds" ? `The game ends after round ${d.round}; the most wealth wins`
    : `The game ends: ${plain(d.reason)}`),
  FinalScored: (d, who) => scores(d, who, {
    money: (n) => `${n} money`, nobles: (n) => `${n} for nobles`, peasants: (n) => `${n} for peasants`,
    buildings: (n) => `${n} for buildings`,
  }) + winners(d, who),
  RoundStarted: (d) => `Round ${d.round} of 8 begins: every seat orders its action tokens in secret`,
  OrdersGiven: (d, who) => `${who(d.seat)} gives its orders`,
  OrdersChosen: (d, who) => `${who(d.seat)} orders its action tokens: ${rOrder(d.order)}`,
  OrdersRevealed: (d, who) => `Orders revealed: ${present(d.orders).map(([s, o]) => `${who(Number(s))} ${rOrder(o)}`).join("; ")}`,
  TokensMixed: (d, who) => `The ${NTH[d.step] ?? "next"} action tokens are mixed: ` +
    `${(d.queue || []).map(([s, a]) => `${who(s)} ${nameIn(R_ACTIONS, a)}`).join(", then ")}`,
  ActionDone: (d, who) => `${who(d.seat)} is done with the ${nameIn(R_ACTIONS, d.action)} action`,
  PeasantsMoved: (d, who) => `${who(d.seat)} moves ${plural(d.count, "peasant")} from ${rArea(d.from)} to ${rArea(d.to)}` +
    carrying(d.goods),
  PeasantAllocated: (d, who) => `${who(d.seat)} sets a peasant in ${rArea(d.area)} to ${rWork(d.work)}` +
    (d.harbour ? `, with ${d.harbour} more surplus fish from the harbour` : ""),
  NoblesMoved: (d, who) => `${who(d.seat)} moves ${plural(d.count, "noble")} from ${rArea(d.from)} to ${rArea(d.to)}` +
    carrying(d.goods) + (d.fee ? ` for ${d.fee} money` : "") + (d.invades ? ", invading" : ""),
  FightsBegan: (d, who) => `${who(d.seat)}'s nobles fight in ${andList((d.areas || []).map(rArea))}`,
  BattleFought: (d, who) => `Battle in ${rArea(d.area)}: ${who(d.seat)} attacks` +
    (d.defender !== null && d.defender !== undefined ? ` ${who(d.defender)}` : "") +
    (d.rolls?.length ? ` (dice: ${d.rolls.map((r) => (Array.isArray(r) ? r.join(", ") : r)).join("; ")})` : "") +
    `; ${who(d.winner)} wins by ${d.margin}`,
  RansomPaid: (d, who) => `${who(d.loser)} pays ${who(d.winner)} a ransom of ${rRansom(d.pay)}` +
    (d.full === false ? ", all it can" : "") +
    (d.left_map ? `; ${plural(d.left_map, "peasant")} the winner has no room for ${d.left_map === 1 ? "leaves" : "leave"} the map` : ""),
  BattleSettled: (d, who) => (d.takes
    ? `${who(d.attacker)} takes ${rArea(d.area)}` +
      (d.defenders_to ? `; the defending nobles withdraw to ${rArea(d.defenders_to)}` : "; the defenders have no land to go to") +
      (d.left_map ? `; ${plural(d.left_map, "peasant")} the attacker has no room for ${d.left_map === 1 ? "leaves" : "leave"} the map` : "")
    : `${who(d.attacker)}'s nobles ${d.attackers_to ? `go home to ${rArea(d.attackers_to)}` : "have no land to go home to and are lost"}`),
  GoodsBought: (d, who) => `${who(d.seat)} buys ${rGood(d.good, d.count)} into ${rArea(d.to)} for ${d.money} money`,
  GoodsSold: (d, who) => `${who(d.seat)} sells ${rGood(d.good, d.count)} from ${rArea(d.from)} for ${d.money} money`,
  GoodsShipped: (d, who) => `${who(d.seat)} ships ${rGood(d.good, d.count)} from ${rArea(d.from)} to ${rArea(d.to)}` +
    (d.fee ? ` for ${d.fee} money` : " with no fee"),
  TradingBoardAdjusted: (d) => `The trading board is adjusted (the die shows ${d.roll}) and now holds ` +
    `${Object.entries(d.board || {}).map(([g, n]) => rGood(g, n)).join(", ")}; ` +
    (d.slave ? "a slave goes to the slave track" : "a mercenary goes to the mercenary track"),
  ActionsEnded: (d) => `Round ${d.round}: every action token is resolved; the round's events follow`,
  WoodlandCleared: (d) => `Woodland is cleared into fields: ${rByArea(d.cleared, (n) => plural(n, "forest square"))}`,
  Built: (d, who) => `${who(d.seat)} builds ${aBuilding(d.building)} in ${rArea(d.area)} for ` +
    andList([`${d.money} money`, ...present(d.goods).map(([g, n]) => rGood(g, n))]),
  BuildAbandoned: (d) => `${cap(aBuilding(d.building))} in ${rArea(d.area)} is not built: ${rWhyNotBuilt(d)}`,
  MinesProduced: (d) => `The mines produce ${rByArea(d.produced)}`,
  NoblesProduced: (d) => `A noble is made from 1 arms and armour in ${andList((d.areas || []).map(rArea))}`,
  Fed: (d) => {
    const eaten = present(d.eaten).map(([a, f]) => `${rArea(a)} eats ${rGoods(f)}`);
    const bonus = present(d.bonus).map(([a, f]) => `${rGoods(f)} in ${rArea(a)}`);
    return `Feeding: ${eaten.length ? eaten.join("; ") : "nobody eats"}` +
      (bonus.length ? `; extra food for several kinds produced: ${andList(bonus)}` : "");
  },
  PopulationGrew: (d) => `The population grows by a peasant in ${andList(present(d.grew).map(([a, f]) =>
    `${rArea(a)} (from a spare ${rGood(f)})`))}`,
  Starved: (d) => `Starvation: ${present(d.lost).map(([a, l]) => `${rArea(a)} loses ${rGoods(l)}`).join("; ")}`,
  PreservingAsked: (d) => (present(d.areas).length
    ? `Salt may now preserve the fresh food left: ${present(d.areas).map(([a, n]) => `up to ${n} in ${rArea(a)}`).join("; ")}`
    : "No area has both fresh food left and salt to preserve it"),
  FoodPreserved: (d, who) => (d.salt
    ? `${who(d.seat)} spends ${d.salt} salt in ${rArea(d.area)} preserving ${rGoods(d.made)}`
    : `${who(d.seat)} keeps the salt of ${rArea(d.area)} and preserves nothing there`),
  FreshFoodSpoiled: () => "All fresh fish, meat and grain spoil",
  FishGrew: (d) => `The fish multiply: ${present(d.fish).map(([w, n]) => `${R_WATERS[w] ?? plain(w)} now holds ${n}`).join(", ")}`,
  GameGrew: (d) => "The game populations of the forests grow, to " +
    Object.entries(d.game || {}).map(([a, n]) => `${n} in ${rArea(a)}`).join(", "),
};

const GAMES = { noggin: NOGGIN, gnomes: GNOMES, resource_hog: RESOURCE_HOG };

/** The event types each game has a sentence of its own for (the shared ones included). */
export const PHRASED = Object.fromEntries(Object.entries(GAMES).map(([g, table]) =>
  [g, new Set([...Object.keys(COMMON), ...Object.keys(table)])]));

/** The sentence for one event ({type, data, to}), or null if its type has none or its fields do
 * not fit it. who(seat) names a seat; `view` (the reader's player view, optional) names what the
 * log has not (a site's tile, a Saga on display). */
export function sentence(game, event, who, view) {
  remember(event);
  const say = (GAMES[game] || {})[event.type] || COMMON[event.type];
  if (!say) return null;
  try {
    return say(event.data || {}, who, view);
  } catch {
    return null;
  }
}

function fallbackWords(v) {
  if (v === null || v === undefined) return "none";
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (Array.isArray(v)) return v.length ? v.map(fallbackWords).join(", ") : "nothing";
  if (typeof v === "object") {
    const parts = present(v);
    return parts.length ? parts.map(([k, x]) => `${fallbackWords(x)} ${plain(k)}`).join(", ") : "nothing";
  }
  return plain(v);
}

const SEAT_FIELDS = new Set(["seat", "winner", "loser", "owner", "defender", "attacker"]);

/** A line for one event ({type, data, to}): its sentence, or for a type without one a line from
 * its type and fields ("Fish caught: seat Seat 1, fish 2"). who(seat) names a seat. */
export function eventLine(game, event, who, view) {
  const said = sentence(game, event, who, view);
  if (said !== null) return said;
  const fields = Object.entries(event.data || {}).map(([k, v]) =>
    `${plain(k)} ${SEAT_FIELDS.has(k) && typeof v === "number" ? who(v) : fallbackWords(v)}`);
  return `${humanise(event.type)}${fields.length ? ": " + fields.join(", ") : ""}`;
}

// -- moves: Noggin ------------------------------------------------------------------------------

/** ", paying 2 Wood and 1 Gold": a payment is part of a move's label, since the legal moves list
 * each distinct payment once (docs/API.md). */
function paying(m) {
  if (!Array.isArray(m.pay)) return "";
  return m.pay.length ? `, paying ${nCubes(m.pay)}` : ", paying nothing";
}

function nSeatOnMove(view) {
  return view?.active_seat ?? view?.seat;
}

function hasArtefact(view, seat, card) {
  return (view?.players?.[seat]?.counting_house || []).some((c) => c.card === card && c.up);
}

function nConditionIn(kind, slot, cond, view) {
  const needs = kind === "saga" ? view?.sagas?.[slot]?.current?.needs : view?.inventions?.[slot]?.needs;
  const need = needs?.[cond];
  return `condition ${cond + 1}${need ? ` (${nNeed(need)})` : ""}`;
}

function nCharacterArgs(m, view) {
  switch (m.character) {
    case "noggin": return ` to take the place of a Nog of ${seatName(view, m.owner)} on the ${nAction(m.action)} space`;
    case "nooka": return ` to replace the Reserve card of ${nSagaIn(m.saga, view, false)} from deck ${m.deck}`;
    case "knut": return ` to look at the top of Reserve deck ${m.deck}`;
    case "graculus": return ` to bring ${nChar(m.target)} back to the Castle`;
    case "thor": {
      const to = view?.wheel !== undefined ? (((view.wheel + m.direction) % 4) + 4) % 4 : null;
      return ` to turn the Infamous Crow ${m.direction > 0 ? "forward" : "back"} a quarter` + (to !== null ? ` to ${N_WHEEL[to]}` : "");
    }
    case "romf": {
      const top = view?.rows?.top?.[m.top];
      const bottom = view?.rows?.bottom?.[m.bottom];
      return ` to swap tile ${m.top + 1} of the top row${top ? ` (${nBuilding(top)})` : ""} with tile ${m.bottom + 1} ` +
        `of the bottom row${bottom ? ` (${nBuilding(bottom)})` : ""}`;
    }
    case "olaf": return " so that any resource may meet an Invention's condition";
    default: return "";
  }
}

function nMarketDay(m, view) {
  switch (m.op ?? "trade") {
    case "trade": return `Market Day: trade ${nCubes(m.give)} for ${nRes(m.take, 1)}`;
    case "character": return `Market Day: call on ${nChar(m.character)}${nCharacterArgs(m, view)}${paying(m)}`;
    case "evict": return `Market Day: evict Nogbad with ${N_EVICT[m.by] ?? plain(m.by)}${paying(m)}`;
    case "auction": {
      const card = view?.counting_house_card?.name ?? (view?.counting_house ? nCard(view.counting_house) : null);
      return `Market Day: auction the Counting House card${card ? ` ${card}` : ""}`;
    }
    case "saga": return `Market Day: ${nSagaIn(m.saga, view, false)}, ${nConditionIn("saga", m.saga, m.condition, view)}` +
      (m.bonus ? ", a Nog on the Counting House icon" : m.nog === false ? ", 1 point instead of a Nog" : ", placing a Nog") + paying(m);
    case "invention": return `Market Day: the ${nInventionIn(m.invention, view, false)}, ` +
      `${nConditionIn("invention", m.invention, m.condition, view)}, placing a Nog${paying(m)}`;
    default: return `Market Day: ${plain(m.op)}${paying(m)}`;
  }
}

function nUse(m, view) {
  const name = nCard(m.card);
  switch (m.card) {
    case "knuts_seat": return "Knut's Seat: place a Nog on it";
    case "royal_kitchens": return "Royal Kitchens: place a Nog there for up to 2 Harvest";
    case "windmill": return `Windmill: a Nog and ${nRes("harvest", m.harvest)} for ${m.harvest === 2 ? 8 : 4} points${paying(m)}`;
    case "nookas_kitchen_garden": case "omruds_ornamental_garden": case "royal_horse_trough":
      return `${name}: lock 1 ${nRes(m.resource)} on it`;
    case "darkness_tome": return `Darkness Tome: turn the Infamous Crow ${m.direction > 0 ? "forward" : "back"} a quarter`;
    case "telescope": return `Telescope: look at the bottom card of Reserve deck ${m.deck}`;
    case "war_banner": return `War Banner: take a Nog back from the ${nAction(m.action)} space${paying(m)}`;
    case "potion": return `Potion: take 1 ${nRes(m.resource)} from the Nog Market`;
    case "heated_storkery": return "Heated Storkery: take up to 2 Harvest";
    case "hnefetfl": return `Hnefetfl: ${plural(m.steps, "Step")} for ${plural(m.steps, "point")}`;
    case "flying_boat": {
      const card = m.to === "saga" ? nSagaIn(m.slot, view, false) : `the ${nInventionIn(m.slot, view, false)}`;
      return `Flying Boat: move ${nChar(m.character)} to ${card}, ${nConditionIn(m.to, m.slot, m.condition, view)}` +
        (m.to === "saga" ? (m.nog === false ? ", 1 point instead of a Nog" : ", placing a Nog") : ", placing a Nog") + paying(m);
    }
    default: {
      const rest = Object.entries(m).filter(([k]) => !["type", "card", "pay"].includes(k))
        .map(([k, v]) => `${plain(k)} ${fallbackWords(v)}`);
      return `Use ${the(name)}${rest.length ? `: ${rest.join(", ")}` : ""}${paying(m)}`;
    }
  }
}

const NOGGIN_MOVES = {
  miner: (m, view) => {
    if (m.op === "dig") {
      const cube = view?.mine?.[`${m.square?.[0]},${m.square?.[1]}`];
      return `Miner: dig ${cube ? `the ${nRes(cube)} ` : ""}at ${nSquare(m.square)}`;
    }
    if (m.op === "walk") return `Miner: walk to ${nSquare(m.square)}`;
    return `Miner: discover a Mine tile for ${nSlot(m.slot)}, ${m.rotation ? `turned ${m.rotation}°` : "not turned"}, ` +
      `flipped ${N_FLIP[m.flip] ?? plain(m.flip)}`;
  },
  fisherman: (m) => `Fisherman: draw ${plural(m.draws, "Fishing token")}`,
  fishing_tokens: (m, view) => {
    if (m.put_back === null || m.put_back === undefined) return "Keep the Fishing tokens drawn";
    const token = view?.action?.tokens?.[m.put_back];
    const what = token ? ` (${token.fish ? plural(token.fish, "fish", "fish") : "an old boot"})` : "";
    return `Coral Necklace: put token ${m.put_back + 1}${what} back and draw another`;
  },
  woodcutter: (m, view) => {
    if (m.op === "orchard") return "Woodcutter: cut a tree in your Orchard";
    if (m.op === "jump") return "Woodcutter: jump over the next clearing (Bird's Crown)";
    const next = view?.woodcutter_next;
    return `Woodcutter: walk on to ${next ? `clearing ${next.clearing + 1} and cut ${plural(next.number, "tree")}` : "the next clearing and cut"}`;
  },
  farmer: (m) => (m.op === "apple" ? `Farmer: pick the apples of Orchard tree ${m.tree + 1}`
    : `Farmer: ${m.op === "sow" ? "sow" : "reap"} Field ${m.field + 1}`),
  builder: (m) => (m.building
    ? `Builder: build ${the(nBuilding(m.building))}${m.space === "beside" ? " beside the player board" : ` on ${nameIn(N_SPACE, m.space)}`}`
    : `Builder: upgrade the ${nameIn(N_TRANSPORT, m.transport)}`) + paying(m),
  restock: (m) => (m.kind === "fish" ? `Restock: ${nRes("fish", m.amount)} into the fjord`
    : `Restock: ${plural(m.amount, "tree")}, ${m.orchard ? `${m.orchard} in your Orchard` : "none in your Orchard"}`),
  market_day: (m, view) => nMarketDay(m, view),
  draw_reserve: (m, view) => `Draw the next Reserve card of ${nSagaIn(m.saga, view, false)} from the bottom of deck ${m.deck}`,
  bid: (m) => (m.steps ? `Bid ${plural(m.steps, "Step")}` : "Pass"),
  keep_card: (m) => (m.face === "up" ? "Keep the card face up: its artefact, 2 points every season"
    : "Turn the card face down: 8 points now"),
  knut: (m) => (m.swap ? "Knut: put the two cards back swapped" : "Knut: put the cards back in the same order"),
  seers_tower: (m) => `Seer's Tower: ${m.adjust > 0 ? "count one Nog more" : m.adjust < 0 ? "count one Nog fewer" : "leave the count as it is"}`,
  fireworks: (m) => (m.play ? "Set off the Fireworks: one more space for Noggin" : "Keep the Fireworks"),
  donate: (m) => `Donate ${andList([m.wood ? nRes("wood", m.wood) : "", m.food ? nRes(m.food, 1) : ""])} to the Nog Market`,
  use: (m, view) => nUse(m, view),
  recall: (m, view) => `Take a Nog back from Reserve card ${m.card + 1} of ${nSagaIn(m.saga, view, false)}`,
  accuse: (m, view) => `Accuse ${seatName(view, m.seat)} of being Nogbad's friend`,
  finish: (m, view) => `Finish the ${view?.action?.kind ? `${nAction(view.action.kind)} ` : ""}action`,
  end_turn: (m) => "End the turn" + (m.cupola_clock ? ", then step back one space with the Cupola Clock" : ""),
};

/** Steps a Noggin move costs on the Central Wheel (turns.step_cost, 5.1-5.6, 6.0): [steps, why]
 * for a cost of none that the rules waive; null where the view is needed and missing. */
function nogginSteps(m, view) {
  const acting = view ? view.action !== null && view.action !== undefined : null;
  switch (m.type) {
    case "miner": {
      if (m.op !== "walk") return [1];
      if (!view) return null;
      const free = hasArtefact(view, nSeatOnMove(view), "moon_stone") && !view.action?.free_walk;
      return free ? [0, "the Moon Stone's free walk"] : [1];
    }
    case "woodcutter": case "farmer": return [1];
    case "fisherman": return [m.draws];
    case "restock": return [2];
    case "builder": return acting === null ? null : acting ? [0, "the Good Genie's second build"] : [2];
    case "market_day": return acting === null ? null : acting ? [0, "the same Market Day"] : [1];
    default: return [0];
  }
}

function nogginCost(m, view) {
  if (m.type === "bid") {
    if (!m.steps || !view) return "";
    const ring = hasArtefact(view, view.seat, "ring_of_nudrug");
    const steps = Math.max(0, m.steps - (ring ? 1 : 0));
    return `${steps ? plural(steps, "Step") : "no Step"} if it wins` + (ring ? " (1 less with the Ring of Nudrug)" : "");
  }
  if (m.type === "use" && m.card === "hnefetfl") return plural(m.steps, "Step");
  const steps = nogginSteps(m, view);
  if (!steps) return "";
  const [n, why] = steps;
  if (n) return plural(n, "Step");
  return why ? `no Step: ${why}` : "";
}

// -- moves: Gnomes ------------------------------------------------------------------------------

function gPath(path, view) {
  return (path || []).map((p) => gPlace(p, view)).join(", then ");
}

const GNOMES_MOVES = {
  travel: (m, view) => `Travel with ${aCard(m.card)} to ${gPath(m.path, view)}`,
  three_for_free: (m, view) => `Three for free with ${gCards(m.cards)} to ${gPlace(m.to, view)}`,
  equipment: (m, view) => `Use the ${gCard(m.item)} to go to ${gPlace(m.to, view)}`,
  ice: (m, view) => `Walk over the ice to ${gPlace(m.to, view)}`,
  winter_path: (m, view) => `Follow the Sorcerer's footprints to ${gPlace(m.to, view)}`,
  climb: (m, view) => `Climb with the ${gCard(m.map)} to ${gPlace(m.to, view)}`,
  pond_pipes: () => "Use the Pond Pipes: ride the frog this round",
  pick: (m) => `Pick ${gMushroom(m.mushroom)}`,
  sell: (m) => `Sell ${gMushroom(m.mushroom)} for a ${m.gem} gem`,
  buy: (m) => `Buy the ${gCard(m.card)}` + (m.nuggets ? ` with ${plural(m.nuggets, "nugget card")}` : "") +
    (m.return_map ? `, handing the ${gCard(m.return_map)} to the shop` : ""),
  restock: () => "Restock the shop",
  scout: () => "Scout: draw a travel card",
  quest: (m) => `Take the quest to ${gQuest(m.quest)}` + (m.item ? `, with the ${gCard(m.item)} as its reward` : "") +
    (m.return_map ? `, handing the ${gCard(m.return_map)} to the shop` : ""),
  end_turn: () => "End the turn",
  sleep: (m) => (m.piles?.length ? `Sleep: take dream ${m.piles.length === 1 ? "pile" : "piles"} ${andList(m.piles.map(String))}`
    : "Sleep: take no dream pile"),
  discard: (m) => `Discard ${gCards(m.cards)}`,
};

/** Weeks each move takes on the timing track (rulebook C, G; docs/API.md), or null if it varies. */
const GNOMES_WEEKS = { pick: 1, restock: 2, scout: 1, ice: 2, winter_path: 1, climb: 0, sell: 0, quest: 0, pond_pipes: 0,
                       buy: 0 };

function gnomesCost(m) {
  const parts = [];
  if (m.type === "buy" && G_PRICE[m.card] !== undefined) {
    const price = G_PRICE[m.card];
    const nuggets = m.nuggets || 0;
    parts.push(gWorth(price) + (nuggets
      ? `: ${plural(nuggets, "nugget card")}${price > nuggets ? ` and ${price - nuggets} in gems` : ""}` : " in gems"));
  }
  let weeks = GNOMES_WEEKS[m.type];
  if (m.type === "travel") weeks = G_CARD_WEEKS[m.card];
  if (m.type === "three_for_free") {
    const each = (m.cards || []).map((c) => G_CARD_WEEKS[c]);
    weeks = each.every((w) => w !== undefined) ? each.reduce((a, b) => a + b, 0) : undefined;
  }
  if (m.type === "equipment") weeks = G_ITEM_WEEKS[m.item];
  if (weeks !== undefined) parts.push(gWeeks(weeks));
  if (m.type === "sleep" && m.piles?.length) parts.push(plural(m.piles.reduce((a, b) => a + b, 0), "sleep week"));
  return parts.join("; ");
}

// -- moves: Resource Hog ------------------------------------------------------------------------

const RESOURCE_HOG_MOVES = {
  orders: (m) => `Orders: ${rOrder(m.order)}`,
  move_peasants: (m) => `Move ${plural(m.count, "peasant")} from ${rArea(m.from)} to ${rArea(m.to)}${carrying(m.goods)}`,
  allocate: (m) => `Set a peasant in ${rArea(m.area)} to ${rWork(m.work)}`,
  move_nobles: (m, view) => {
    const owner = view?.lands?.[m.to]?.owner;
    const into = owner !== null && owner !== undefined && view && owner !== view.seat ? `, into ${seatName(view, owner)}'s land` : "";
    return `Move ${plural(m.count, "noble")} from ${rArea(m.from)} to ${rArea(m.to)}${carrying(m.goods)}${into}`;
  },
  ransom: (m) => `Pay the ransom: ${rRansom(m.pay)}`,
  buy: (m) => `Buy ${rGood(m.good, m.count)} into ${rArea(m.to)}`,
  sell: (m) => `Sell ${rGood(m.good, m.count)} from ${rArea(m.from)}`,
  ship: (m) => `Ship ${rGood(m.good, m.count)} from ${rArea(m.from)} to ${rArea(m.to)}`,
  preserve: (m) => (m.salt ? `Spend ${m.salt} salt in ${rArea(m.area)} preserving fresh food`
    : `Keep the salt of ${rArea(m.area)}: preserve nothing there`),
  done: (m, view) => `Done: end the ${view?.acting?.[1] ? `${nameIn(R_ACTIONS, view.acting[1])} ` : ""}action`,
};

/** Money for `n` of `good` bought one after the other from a column holding `have` (trade.py). */
function rBuyPrice(good, n, have) {
  const prices = R_PRICES[good];
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += prices[Math.floor(Math.max(0, have - 1) / R_SLOTS)];
    have = Math.max(0, have - 1);
  }
  return total;
}

/** Money gained for `n` of `good` sold one after the other into a column holding `have`. */
function rSellPrice(good, n, have) {
  const prices = R_PRICES[good];
  const full = prices.length * R_SLOTS;
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += prices[Math.min(prices.length - 1, Math.floor(have / R_SLOTS))];
    have = Math.min(full, have + 1);
  }
  return total;
}

/** Borders crossed round the ring from `a` to `b` the short way. */
function rBorders(a, b) {
  const d = Math.abs(R_RING.indexOf(a) - R_RING.indexOf(b));
  return Math.min(d, R_RING.length - d);
}

/** Borders a noble crosses from `from` to `to`: over the seat's own land, one border beyond (nobles.py);
 * in the seat's nobles' action its own land is what it held when the action began (`view.held`). */
function rNobleBorders(view, seat, from, to) {
  const acting = view.acting?.[0] === seat && view.acting?.[1] === "nobles" && Array.isArray(view.held);
  const own = (n) => (acting ? view.held.includes(n) : view.lands?.[n]?.owner === seat);
  const dist = { [from]: 0 };
  const todo = [from];
  while (todo.length) {
    const at = todo.shift();
    const i = R_RING.indexOf(at);
    for (const n of [R_RING[(i + R_RING.length - 1) % R_RING.length], R_RING[(i + 1) % R_RING.length]]) {
      if (n in dist) continue;
      dist[n] = dist[at] + 1;
      if (own(n)) todo.push(n);
    }
  }
  return dist[to];
}

function resourceHogCost(m, view) {
  switch (m.type) {
    case "buy": {
      if (R_TRACK_PRICE[m.good]) return `${R_TRACK_PRICE[m.good] * m.count} money`;
      const have = view?.board?.[m.good];
      return R_PRICES[m.good] && typeof have === "number" ? `${rBuyPrice(m.good, m.count, have)} money` : "";
    }
    case "sell": {
      if (m.good === "slave") return `gains ${R_SLAVE_SELL * m.count} money`;
      const have = view?.board?.[m.good];
      return R_PRICES[m.good] && typeof have === "number" ? `gains ${rSellPrice(m.good, m.count, have)} money` : "";
    }
    case "ship": {
      const lands = view?.lands;
      if (!lands?.[m.from] || !lands?.[m.to]) return "";
      const roads = (lands[m.from].buildings || []).includes("road") && (lands[m.to].buildings || []).includes("road");
      const fee = roads ? 0 : rBorders(m.from, m.to);
      return fee ? `${fee} money` : "no fee: roads at both ends";
    }
    case "move_nobles": {
      if (!present(m.goods).length) return "";
      if (!view?.lands) return "";
      const borders = rNobleBorders(view, view.seat, m.from, m.to);
      return borders === undefined ? "" : `${borders} money for the goods carried`;
    }
    case "allocate": {
      const [kind, arg] = String(m.work).split(":");
      if (kind === "build" && R_BUILD_COST[arg]) {
        const [money, goods] = R_BUILD_COST[arg];
        return `${andList([`${money} money`, ...present(goods).map(([g, n]) => rGood(g, n))])} at the build event`;
      }
      if (kind === "knight") return "1 arms and armour when the noble is made";
      return "";
    }
    default:
      return "";
  }
}

// -- moves: every game --------------------------------------------------------------------------

const MOVES = { noggin: NOGGIN_MOVES, gnomes: GNOMES_MOVES, resource_hog: RESOURCE_HOG_MOVES };

/** The cost of a move in the game's terms ("" if the rules charge none, or it cannot be known
 * from the move and `view`, the seat's player view: the "view" field of GET /view). */
export function moveCost(game, move, view) {
  try {
    if (game === "noggin") return nogginCost(move, view);
    if (game === "gnomes") return gnomesCost(move);
    if (game === "resource_hog") return resourceHogCost(move, view);
  } catch {
    // a move of a shape this page does not know: no cost rather than a wrong one
  }
  return "";
}

/** A label for a legal move in the game's terms (`view`: the seat's player view, if at hand). Two
 * different legal moves of one state never have the same label. */
export function moveLabel(game, move, view) {
  const say = (MOVES[game] || {})[move.type];
  if (say) {
    try {
      return say(move, view);
    } catch {
      // fall through to the generic label
    }
  }
  const fields = Object.entries(move).filter(([k]) => k !== "type").map(([k, v]) => `${plain(k)} ${fallbackWords(v)}`);
  return `${humanise(move.type)}${fields.length ? ": " + fields.join(", ") : ""}`;
}

/** The heading a move is grouped under (its type, in words). */
export function moveGroup(game, move) {
  if (game === "noggin" && move.type === "market_day") return "Market Day";
  return humanise(move.type);
}
