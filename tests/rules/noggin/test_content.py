"""Content files (rulebook 1.0 components) load, carry provenance and fit the set-up table."""

import json

import pytest
from pydantic import ValidationError

from services.rules.noggin import content
from services.rules.noggin.state import orient


@pytest.mark.rules("noggin:1.0/fishing-tokens")
def test_content_loads_with_provenance():
    """Every item says where it comes from: a rulebook section or "reconstructed"."""
    c = content.load()
    items = [*c.mine.tiles, *c.forest.clearings, *c.forest.zones, *c.fishing.tokens, *c.buildings.year1,
             c.buildings.cost, c.buildings.copies, c.transports.cost, *c.transports.transports, c.mine.grid,
             c.setup, c.popularity, c.forest]
    assert items and all(i.provenance == "reconstructed" or i.provenance.startswith("rulebook ") for i in items)
    assert sum(t.fish > 0 for t in c.fishing.tokens) == 7 and sum(t.fish == 0 for t in c.fishing.tokens) == 3


def test_gold_tiles_have_one_gold_and_nine_galleries():
    """5.1: discovering needs 9 Stone: each Gold tile has 9 gallery squares and 1 Gold square."""
    for t in content.load().mine.tiles:
        flat = "".join(t.rows)
        assert (flat.count("A"), flat.count("G")) == ((0, 12) if t.start else (1, 9))


def test_a_tile_that_breaks_the_totals_is_refused():
    """The schema checks cross-file totals (set-up C Stone = starting tile + market)."""
    data = {n: json.loads((content.CONTENT_DIR / f"{n}.json").read_text()) for n in
            ("setup", "popularity", "fishing", "transports", "buildings", "forest", "mine", "reserve", "sagas",
             "inventions", "counting_house", "characters")}
    data["mine"]["tiles"][0]["rows"][0] = "G###"
    with pytest.raises(ValidationError, match="Stone"):
        content.Content.model_validate(data)


@pytest.mark.rules("noggin:5.1/discover-orientation")
def test_orientation_turns_then_flips():
    """5.1: choose any orientation, then flip horizontally or vertically."""
    rows = ["A###", "####", "####", "####"]
    assert orient(rows, 90, "h")[0] == "A###"  # turned to the top-right corner, flipped back left
    assert orient(rows, 0, "v")[3] == "A###"
