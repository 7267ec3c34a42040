// The games in words: a line per event of the log, and a label (with its cost) per legal move.
//
// Each game's common events have a sentence of their own; any other event is written from its
// type and fields ("Fish caught: seat Red, fish 2"), so a new event never shows as raw JSON.

import { humanise } from "./api.js";

const SEASONS = { 1: "spring", 2: "summer", 3: "autumn", 4: "winter" };

function list(v) {
  if (Array.isArray(v)) return v.length ? v.map(words).join(", ") : "nothing";
  return words(v);
}

function words(v) {
  if (v === null || v === undefined) return "none";
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (typeof v === "string") return v.replace(/_/g, " ");
  if (Array.isArray(v)) return v.every((x) => typeof x !== "object") ? `[${v.join(", ")}]` : `${v.length} items`;
  if (typeof v === "object") {
    const parts = Object.entries(v).filter(([, x]) => x !== 0 && x !== null && !(Array.isArray(x) && !x.length));
    return parts.length ? parts.map(([k, x]) => `${words(x)} ${k.replace(/_/g, " ")}`).join(", ") : "nothing";
  }
  return String(v);
}

function goods(g) {
  return g && Object.keys(g).length ? ` with ${words(g)}` : "";
}

function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

// Sentences: (data, who) => text, where who(seat) names a seat.
const COMMON = {
  GameCreated: (d) => `A game of ${words(d.config?.game)} for ${d.config?.players} players begins` +
    (d.config?.options && Object.keys(d.config.options).length ? ` (options: ${Object.keys(d.config.options).filter((k) => d.config.options[k]).map(words).join(", ") || "none"})` : ""),
  GameEnded: (d) => `The game ends: ${words(d.reason)}`,
  FinalScored: (d, who) => `Final scores: ${(d.scores || []).map((s, i) => `${who(i)} ${s}`).join(", ")}` +
    (d.winners ? ` — ${d.winners.length ? `won by ${d.winners.map(who).join(" and ")}` : "nobody wins"}` : ""),
  StrikeRecorded: (d, who) => `${who(d.seat)} gets a strike (${words(d.reason || d.kind)})`,
  SeatForfeited: (d, who) => `${who(d.seat)} forfeits the game`,
  RoundStarted: (d) => `Round ${d.round} begins`,
  TurnEnded: (d, who) => `${who(d.seat)} ends the turn`,
};

const NOGGIN = {
  TurnStarted: (d, who) => `${who(d.seat)} starts a turn`,
  ActionStarted: (d, who) => `${who(d.seat)} takes the ${words(d.action)} action` + (d.nogs ? ` with ${plural(d.nogs, "Nog")}` : ""),
  ActionFinished: (d, who) => `${who(d.seat)} finishes the ${words(d.action)} action`,
  StepsSpent: (d, who) => `${who(d.seat)}'s Step marker moves to ${d.to}`,
  TurnEnded: (d, who) => `${who(d.seat)} ends the turn (Step marker at ${d.to})`,
  FishCaught: (d, who) => `${who(d.seat)} catches ${plural(d.fish, "fish", "fish")}` + (d.thrown_back ? ` and throws ${d.thrown_back} back` : ""),
  StoneDug: (d, who) => `${who(d.seat)} digs a ${words(d.cube)} cube in the Mine`,
  MinerWalked: (d, who) => `${who(d.seat)}'s Miner walks to ${list(d.square)}`,
  WoodcutterMoved: (d, who) => `${who(d.seat)}'s Woodcutter reaches clearing ${d.clearing}` + (d.wood ? ` and cuts ${d.wood} wood` : ""),
  FieldSown: (d, who) => `${who(d.seat)} sows field ${d.field}`,
  FieldHarvested: (d, who) => `${who(d.seat)} reaps ${d.harvest} harvest from field ${d.field}`,
  ApplePicked: (d, who) => `${who(d.seat)} picks apples from tree ${d.tree}`,
  BuildingBuilt: (d, who) => `${who(d.seat)} builds the ${words(d.building)}` + (d.paid ? ` paying ${list(d.paid)}` : ""),
  TransportUpgraded: (d, who) => `${who(d.seat)} gets a ${words(d.transport)}` + (d.paid ? ` paying ${list(d.paid)}` : ""),
  Traded: (d, who) => `${who(d.seat)} trades ${list(d.give)} for ${words(d.take)} at the Nog Market`,
  CharacterUsed: (d, who) => `${who(d.seat)} calls on ${words(d.character)}` + (d.paid?.length ? ` paying ${list(d.paid)}` : ""),
  SagaConditionMet: (d, who) => `${who(d.seat)} meets a condition of Saga ${d.saga} (${words(d.need)})`,
  InventionConditionMet: (d, who) => `${who(d.seat)} meets a condition of Invention ${d.invention} (${words(d.need)})`,
  InventionCompleted: (d, who) => `The ${words(d.card)} Invention is completed` + (d.winner !== null && d.winner !== undefined ? `, won by ${who(d.winner)}` : ""),
  AuctionStarted: (d, who) => `${who(d.seat)} auctions the Counting House card ${words(d.card)}`,
  BidMade: (d, who) => (d.steps ? `${who(d.seat)} bids ${plural(d.steps, "Step")}` : `${who(d.seat)} passes`),
  AuctionWon: (d, who) => `${who(d.seat)} wins the ${words(d.card)} for ${plural(d.paid, "Step")}`,
  PointsScored: (d, who) => `${who(d.seat)} scores ${plural(d.points, "point")}` + (d.for ? ` for ${words(d.for)}` : ""),
  SeasonAdvanced: (d) => `The season turns to ${words(d.name || SEASONS[d.season] || d.season)}`,
  CrowAdvanced: (d) => `Nogbad's Crow moves to ${d.to}`,
  DragonMoved: (d) => `Noggin's Dragon moves to ${d.to}`,
  RunestoneMoved: (d) => `The Runestone moves to ${d.to}`,
  NogbadMoved: (d) => `Nogbad moves to ${words(d.to)}`,
  SagaDrawn: (d) => `The Saga ${words(d.card)} is drawn`,
  SagaCleared: (d) => `The Saga ${words(d.card)} is complete`,
  Donated: (d, who) => `${who(d.seat)} donates ${words(d.given)}`,
  Restocked: (d, who) => `${who(d.seat)} restocks ${d.amount} ${words(d.kind)}`,
  DummyMoved: (d) => `The ${words(d.colour)} dummy marker moves to ${d.to}`,
};

const GNOMES = {
  RoundStarted: (d, who) => `Round ${d.round} begins` + (d.order ? `; turn order ${d.order.map(who).join(", ")}` : ""),
  GnomeMoved: (d, who) => `${who(d.seat)}'s gnome goes from ${words(d.from)} to ${list(d.path)} by ${words(d.by)}` + (d.weeks ? ` (${plural(d.weeks, "week")})` : ""),
  MushroomPicked: (d, who) => `${who(d.seat)} picks a ${words(d.mushroom)} mushroom at ${d.place}` + (d.weeks ? ` (${plural(d.weeks, "week")})` : ""),
  MushroomSold: (d, who) => `${who(d.seat)} sells a ${words(d.mushroom)} mushroom for a ${words(d.gem)} gem`,
  Scouted: (d, who) => `${who(d.seat)} scouts (${plural(d.weeks, "week")})`,
  TravelCardDrawn: (d, who) => `${who(d.seat)} draws the travel card ${words(d.card)}`,
  CardBought: (d, who) => `${who(d.seat)} buys ${words(d.card)} at ${words(d.shop)}` + (d.nuggets ? ` (${plural(d.nuggets, "nugget card")})` : ""),
  ShopRestocked: (d, who) => `${who(d.seat)} restocks ${words(d.shop)} (${plural(d.weeks, "week")})`,
  QuestAccepted: (d, who) => `${who(d.seat)} takes the quest ${words(d.quest)}`,
  TurnEnded: (d, who) => `${who(d.seat)} ends the turn`,
  Slept: (d, who) => `${who(d.seat)} sleeps and dreams of ${list(d.cards)}` + (d.weeks ? ` (${plural(d.weeks, "week")})` : ""),
  SleepBegan: (d, who) => `Sleep: ${(d.sleepers || []).map(who).join(", ") || "nobody"} ${d.sleepers?.length === 1 ? "sleeps" : "sleep"}`,
  HandDiscarded: (d, who) => `${who(d.seat)} discards ${list(d.cards)}`,
  CalendarMoved: (d) => `The calendar moves ${plural(d.weeks, "week")} to week ${d.to} (${words(d.season)})`,
  MushroomsSprouted: (d) => `${humanise(d.colour)} mushrooms sprout in week ${d.week}`,
  MushroomsRotted: (d) => `${list(d.colours)} mushrooms rot in week ${d.week}`,
  WinterCame: () => "Winter comes",
  MountainBonus: (d, who) => (d.seats?.length ? `${d.seats.map(who).join(" and ")} get the ${words(d.gem)} gem of the mountain` : "Nobody gets the mountain bonus"),
  PondPipesUsed: (d, who) => `${who(d.seat)} rides the frog`,
};

const RESOURCE_HOG = {
  OrdersGiven: (d, who) => `${who(d.seat)} gives orders`,
  OrdersChosen: (d, who) => `${who(d.seat)} orders ${list(d.order)}`,
  OrdersRevealed: (d, who) => `Orders revealed: ${Object.entries(d.orders || {}).map(([s, o]) => `${who(Number(s))} ${list(o)}`).join("; ")}`,
  TokensMixed: (d, who) => `Action tokens mixed: ${(d.queue || []).map(([s, a]) => `${who(s)} ${words(a)}`).join(", ")}`,
  ActionDone: (d, who) => `${who(d.seat)} is done with ${words(d.action)}`,
  PeasantsMoved: (d, who) => `${who(d.seat)} moves ${plural(d.count, "peasant")} from ${d.from} to ${d.to}${goods(d.goods)}`,
  NoblesMoved: (d, who) => `${who(d.seat)} moves ${plural(d.count, "noble")} from ${d.from} to ${d.to}${goods(d.goods)}` + (d.invades ? " and invades" : ""),
  PeasantAllocated: (d, who) => `${who(d.seat)} sets a peasant in ${d.area} to ${words(String(d.work).replace(":", " "))}`,
  GoodsBought: (d, who) => `${who(d.seat)} buys ${d.count} ${words(d.good)} into ${d.to} for ${d.money} money`,
  GoodsSold: (d, who) => `${who(d.seat)} sells ${d.count} ${words(d.good)} from ${d.from} for ${d.money} money`,
  GoodsShipped: (d, who) => `${who(d.seat)} ships ${d.count} ${words(d.good)} from ${d.from} to ${d.to}` + (d.fee ? ` (fee ${d.fee})` : ""),
  Built: (d, who) => `${who(d.seat)} builds a ${words(d.building)} in ${d.area}`,
  BattleFought: (d, who) => `Battle in ${d.area}: ${who(d.winner)} beats ${who(d.loser)} by ${d.margin}`,
  RansomPaid: (d, who) => `${who(d.loser)} pays ${who(d.winner)} a ransom of ${words(d.pay)}`,
  ActionsEnded: (d) => `Round ${d.round}: every action is done`,
  Starved: () => "Hunger: some people starve",
  FishGrew: () => "The fish stocks grow",
  GameGrew: () => "The game in the woods grows",
};

const GAMES = { noggin: NOGGIN, gnomes: GNOMES, resource_hog: RESOURCE_HOG };

const SEAT_FIELDS = new Set(["seat", "winner", "loser", "owner", "defender", "attacker"]);

/** A line for one event ({type, data, to}); who(seat) names a seat. */
export function eventLine(game, event, who) {
  const say = (GAMES[game] || {})[event.type] || COMMON[event.type];
  if (say) {
    try {
      return say(event.data || {}, who);
    } catch {
      // a field missing in this event: fall back to the generic line below
    }
  }
  const fields = Object.entries(event.data || {}).map(([k, v]) =>
    `${k.replace(/_/g, " ")} ${SEAT_FIELDS.has(k) && typeof v === "number" ? who(v) : words(v)}`);
  return `${humanise(event.type)}${fields.length ? ": " + fields.join(", ") : ""}`;
}

// -- moves ------------------------------------------------------------------------------------

/** Time each Gnomes move takes on the timing track (docs/API.md; a travel card's timer varies). */
const GNOMES_WEEKS = { pick: "1 week", restock: "2 weeks", scout: "1 week", ice: "2 weeks", winter_path: "1 week",
                       climb: "no time", sell: "no time", quest: "no time", pond_pipes: "no time", buy: "no time",
                       travel: "the card's timer", three_for_free: "the cards' timers" };

function square(sq) {
  return Array.isArray(sq) ? `(${sq.join(", ")})` : words(sq);
}

const NOGGIN_MOVES = {
  miner: (m) => `Miner: ${m.op}${m.square ? " at " + square(m.square) : ""}${m.slot ? " tile at " + square(m.slot) : ""}` +
    (m.rotation !== undefined ? `, turned ${m.rotation}°` : "") + (m.flip ? `, flipped ${m.flip}` : ""),
  fisherman: (m) => `Fisherman: draw ${plural(m.draws, "fishing token")}`,
  fishing_tokens: (m) => (m.put_back ? `Put ${m.put_back} fishing token${m.put_back === 1 ? "" : "s"} back` : "Keep the fishing tokens"),
  woodcutter: (m) => `Woodcutter: ${words(m.op)}`,
  farmer: (m) => `Farmer: ${words(m.op)}${m.field !== undefined ? ` field ${m.field}` : ""}${m.tree !== undefined ? ` tree ${m.tree}` : ""}`,
  builder: (m) => `Builder: ${m.building ? `build the ${words(m.building)}${m.space ? " on the " + words(m.space) : ""}` : `a ${words(m.transport)}`}`,
  restock: (m) => `Restock ${m.amount} ${words(m.kind)}` + (m.orchard ? `, ${m.orchard} in the Orchard` : ""),
  market_day: (m) => {
    switch (m.op) {
      case "trade": return `Market Day: trade ${list(m.give)} for ${words(m.take)}`;
      case "character": return `Market Day: call on ${words(m.character)}` + (m.deck ? ` (deck ${m.deck})` : "") +
        (m.action ? ` for ${words(m.action)}` : "") + (m.owner !== undefined ? ` of seat ${m.owner}` : "");
      case "evict": return `Market Day: evict Nogbad with ${words(m.by)}`;
      case "auction": return "Market Day: auction the Counting House card";
      case "saga": return `Market Day: Saga ${m.saga}, condition ${m.condition}` + (m.nog ? " with a Nog" : "");
      case "invention": return `Market Day: Invention ${m.invention}, condition ${m.condition}`;
      default: return `Market Day: ${words(m.op)}`;
    }
  },
  draw_reserve: (m) => `Draw the next Reserve card of Saga ${m.saga} from deck ${m.deck}`,
  bid: (m) => (m.steps ? `Bid ${plural(m.steps, "Step")}` : "Pass (bid 0)"),
  keep_card: (m) => `Place the card face ${m.face}`,
  knut: (m) => (m.swap ? "Knut: swap the cards" : "Knut: keep the order"),
  seers_tower: (m) => `Seer's Tower: adjust by ${m.adjust}`,
  fireworks: (m) => (m.play ? "Set off the Fireworks" : "Keep the Fireworks"),
  donate: (m) => `Donate ${m.wood ? plural(m.wood, "wood", "wood") : ""}${m.wood && m.food ? " and " : ""}${m.food ? words(m.food) : ""}` || "Donate nothing",
  use: (m) => `Use the ${words(m.card)}` + (m.harvest ? ` for ${m.harvest} harvest` : "") + (m.deck ? ` on deck ${m.deck}` : ""),
  recall: (m) => `Take a Nog back from Saga ${m.saga}, card ${m.card}`,
  accuse: (m) => `Accuse seat ${m.seat}`,
  finish: () => "Finish the action",
  end_turn: (m) => "End the turn" + (m.cupola_clock ? " (the Cupola Clock steps back)" : ""),
};

const GNOMES_MOVES = {
  travel: (m) => `Travel with ${words(m.card)} card to ${list(m.path)}`,
  three_for_free: (m) => `Three for free (${list(m.cards)}) to ${m.to}`,
  equipment: (m) => `Use the ${words(m.item)} to go to ${m.to}`,
  ice: (m) => `Walk on the ice to ${m.to}`,
  winter_path: (m) => `Follow the footprints to ${words(m.to)}`,
  climb: (m) => `Climb with ${words(m.map)} to ${m.to}`,
  pond_pipes: () => "Ride the frog for the round",
  pick: (m) => `Pick a ${words(m.mushroom)} mushroom`,
  sell: (m) => `Sell a ${words(m.mushroom)} mushroom for a ${words(m.gem)} gem`,
  buy: (m) => `Buy ${words(m.card)}` + (m.return_map ? `, returning ${words(m.return_map)}` : ""),
  restock: () => "Restock the shop",
  scout: () => "Scout: draw a travel card",
  quest: (m) => `Take the quest ${words(m.quest)}` + (m.item ? ` (${words(m.item)})` : ""),
  end_turn: () => "End the turn",
  sleep: (m) => (m.piles?.length ? `Sleep: take dream piles ${m.piles.join(" and ")}` : "Sleep: take no dream pile"),
  discard: (m) => `Discard ${list(m.cards)}`,
};

const RESOURCE_HOG_MOVES = {
  orders: (m) => `Orders: ${list(m.order)}`,
  move_peasants: (m) => `Move ${plural(m.count, "peasant")} ${m.from} → ${m.to}${goods(m.goods)}`,
  allocate: (m) => `Set a peasant in ${m.area} to ${words(String(m.work).replace(":", " "))}`,
  move_nobles: (m) => `Move ${plural(m.count, "noble")} ${m.from} → ${m.to}${goods(m.goods)}`,
  ransom: (m) => `Pay the ransom: ${words(m.pay)}`,
  buy: (m) => `Buy ${m.count} ${words(m.good)} into ${m.to}`,
  sell: (m) => `Sell ${m.count} ${words(m.good)} from ${m.from}`,
  ship: (m) => `Ship ${m.count} ${words(m.good)} ${m.from} → ${m.to}`,
  done: () => "Done: end the action",
};

const MOVES = { noggin: NOGGIN_MOVES, gnomes: GNOMES_MOVES, resource_hog: RESOURCE_HOG_MOVES };

/** The cost of a move in the game's terms, where the move says it ("" if it says none);
 * `view` is the seat's player view (the "view" field of GET /view), when the cost needs it. */
export function moveCost(game, move, view) {
  const parts = [];
  if (Array.isArray(move.pay)) parts.push(move.pay.length ? `pay ${list(move.pay)}` : "free");
  else if (move.pay && typeof move.pay === "object") parts.push(`pay ${words(move.pay)}`);
  if (game === "gnomes") {
    if (move.type === "buy" && move.nuggets) parts.push(`${plural(move.nuggets, "nugget card")} toward it`);
    if (GNOMES_WEEKS[move.type]) parts.push(GNOMES_WEEKS[move.type]);
  }
  if (game === "resource_hog" && move.count && (move.type === "buy" || move.type === "sell")) parts.push(`${move.count} ${words(move.good)}`);
  return parts.join("; ");
}

/** A label for a legal move in the game's terms (`view`: the seat's player view, if it helps). */
export function moveLabel(game, move, view) {
  const say = (MOVES[game] || {})[move.type];
  if (say) {
    try {
      return say(move);
    } catch {
      // fall through to the generic label
    }
  }
  const fields = Object.entries(move).filter(([k]) => k !== "type" && k !== "pay")
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${words(v)}`);
  return `${humanise(move.type)}${fields.length ? ": " + fields.join(", ") : ""}`;
}

/** The heading a move is grouped under (its type, in words). */
export function moveGroup(game, move) {
  if (game === "noggin" && move.type === "market_day") return "Market Day";
  return humanise(move.type);
}
