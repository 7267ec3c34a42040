// The names of things the games' content files name by id, shared by the drawings
// (static/boards/<game>.js) and the log's words (static/js/words.js): one table for both.

/** Noggin's Building tiles (content/buildings.json): id -> name. */
export const NOGGIN_BUILDINGS = {
  fish_smokery: "Fish Smokery", granary: "Granary", long_house: "Long House", lookout_tower: "Lookout Tower",
  new_land: "New Land", woodcutters_hut: "Woodcutters' Hut", blacksmith: "Blacksmith", goldsmith: "Goldsmith",
  hillside_farm: "Hillside Farm", inventors_workshop: "Inventor's Workshop", knuts_seat: "Knut's Seat",
  merchant: "Merchant", nookas_kitchen_garden: "Nooka's Kitchen Garden",
  omruds_ornamental_garden: "Omruds' Ornamental Garden", royal_dungeon: "Royal Dungeon",
  royal_horse_trough: "Royal Horse Trough", royal_kitchens: "Royal Kitchens", seers_tower: "Seer's Tower",
  town_walls: "Town Walls", windmill: "Windmill",
};

/** Noggin's Invention cards (content/inventions.json): id -> name. */
export const NOGGIN_INVENTIONS = {
  cupola_clock: "Cupola Clock", econogology: "EcoNogology", firecake: "Firecake", fire_machine: "Fire Machine",
  flying_boat: "Flying Boat", grottophoneum: "Grottophoneum", heated_storkery: "Heated Storkery",
  hnefetfl: "Hnefetfl", potion: "Potion", trouser_press: "Trouser Press", weather_balloon: "Weather Balloon",
};

/** Noggin's Counting House cards (content/counting_house.json): id -> name. */
export const NOGGIN_COUNTING_HOUSE = {
  birds_crown: "Bird's Crown", butterfly_net: "Butterfly Net", coral_necklace: "Coral Necklace",
  darkness_tome: "Darkness Tome", fireworks: "Fireworks", good_genie: "Good Genie", honey_and_mead: "Honey & Mead",
  knuts_carriage: "Knut's Carriage", moon_stone: "Moon Stone", nookas_knife: "Nooka's Knife",
  ring_of_nudrug: "Ring of Nudrug", roman_medal: "Roman Medal", silver_gong: "Silver Gong", telescope: "Telescope",
  war_banner: "War Banner",
};

/** Noggin's characters (rulebook 6.1): id -> name. */
export const NOGGIN_CHARACTERS = {
  noggin: "Noggin", nooka: "Nooka", knut: "Knut", graculus: "Graculus", thor: "Thor Nogson", olaf: "Olaf", romf: "Romf",
};

/** A Game of Gnomes' travel cards (content/cards.json): id -> name. */
export const GNOMES_TRAVEL = { meadow: "Meadow", forest: "Forest", mountain: "Mountain", double_meadow: "Double meadow",
                   double_forest: "Double forest", double_mountain: "Double mountain", free: "Free travel", nugget: "Nugget" };

/** A Game of Gnomes' items and treasures (content/cards.json): id -> name. */
export const GNOMES_ITEMS = {
  tiny_basket: "Tiny Basket", tiny_rucksack: "Tiny Rucksack", tunnel_key: "Tunnel Key", pond_pipes: "Pond Pipes",
  canteen: "Canteen", short_axe: "Short Axe", hill_boots: "Hill Boots", compass: "Compass", leaf_boat: "Leaf Boat",
  spare_key: "Spare Key", small_rucksack: "Small Rucksack", large_rucksack: "Large Rucksack",
  small_basket: "Small Basket", large_basket: "Large Basket",
  acorn_cup: "Acorn Cup", beetle_brooch: "Beetle Brooch", dew_pearl: "Dew Pearl", silver_thimble: "Silver Thimble",
  moonstone: "Moonstone", golden_acorn: "Golden Acorn", crystal_toadstool: "Crystal Toadstool",
  crown_of_the_glade: "Crown of the Glade",
};

/** A Game of Gnomes' shop cards' prices in brown gems (rulebook C.4, reconstructed: docs/house-rules.md). */
export const GNOMES_PRICES = {
  canteen: 2, short_axe: 2, hill_boots: 2, compass: 3, leaf_boat: 3, spare_key: 1, small_rucksack: 2,
  large_rucksack: 4, small_basket: 1, large_basket: 2, map_g1_r1: 2, map_g2_r2: 2, map_g3_r3: 2, map_g4_r4: 2,
  map_r1_n1: 2, map_r3_n2: 2, map_g2_r2_n1: 3, map_g4_r4_n2: 3, acorn_cup: 3, beetle_brooch: 3, dew_pearl: 4,
  silver_thimble: 4, moonstone: 5, golden_acorn: 5, crystal_toadstool: 6, crown_of_the_glade: 7,
};

/** The Sorcerer's quests (rulebook C.7 and its example card): id -> [task, reward, penalty]. */
export const GNOMES_QUESTS = {
  market_meadow_item: ["sell a yellow mushroom in Descina or Jafnea", "an item from Market Meadow", 5],
  forest_fete_item: ["sell a yellow mushroom in Calvatia or Fuligo", "an item from Forest Fete", 5],
  cross_the_lake: ["travel over the lake", "3 brown gems", 5],
  visit_a_house: ["visit another player's gnome house", "2 brown gems", 5],
  hillview_hut_item: ["sell a red mushroom in Grifola or Kolus", "an item from Hillview Hut", 5],
  red_for_gems: ["sell a red mushroom in Exidea or Hydnum", "4 brown gems", 5],
  reach_the_summit: ["reach the summit of Gnome Mountain", "5 brown gems", 10],
};
