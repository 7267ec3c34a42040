"""``core.chance.Chance``: the draws pinned from before the local pool and the lazy key, and a
chance's first shuffle remembered for its seed, label and items (the same order and stream,
nothing drawn again)."""

from __future__ import annotations

from services.rules.core.chance import Chance


def test_a_chance_draws_as_before_its_key_was_made_lazily() -> None:
    # the values the eager key gave (before the key was made at the first draw); also the
    # values of the draws' earlier code (a method call a draw), which the local pool keeps
    c = Chance("seed", "label")
    assert [c.below(1000) for _ in range(6)] == [99, 565, 214, 842, 832, 602]
    assert Chance("s", "l").shuffled(range(8)) == [6, 1, 0, 3, 5, 2, 4, 7]


def test_a_repeated_first_shuffle_gives_the_same_order_and_stream_without_drawing() -> None:
    from services.rules.core import chance as chance_module

    items = [f"card{i}" for i in range(30)]
    chance_module._SHUFFLES.clear()
    fresh = Chance("seed", "deck:B")
    first, after = fresh.shuffled(items), [fresh.below(1000) for _ in range(5)]
    assert len(chance_module._SHUFFLES) == 1
    first[0] = "changed"  # a caller's copy: the remembered order is not touched
    again = Chance("seed", "deck:B")
    second = again.shuffled(items)
    assert again._counter == 1 and [again.below(1000) for _ in range(5)] == after  # the stream goes on alike
    chance_module._SHUFFLES.clear()
    assert second == Chance("seed", "deck:B").shuffled(items) != first  # the same order as drawn afresh
    # not a chance's first draw, or unhashable items: drawn each time, the same as without the memo
    late = Chance("seed", "other")
    late.below(7)
    assert late.shuffled(items) == (lambda c: (c.below(7), c.shuffled(items))[1])(Chance("seed", "other"))
    assert len(chance_module._SHUFFLES) == 1  # only the fresh one above
    assert Chance("s", "l").shuffled([[1], [2], [3]]) == Chance("s", "l").shuffled([[1], [2], [3]])
