"""Every game in OpenSpiel passes OpenSpiel's own checks (issue 24, acceptance 1 and 4), at 2, 3
and 4 seats: ``random_sim_test`` with serialisation, the serialise/deserialise round trip
with an identical continuation, pickling of game and state, ``games_sim_test``'s
``sim_game``, playthrough generation and replay, the resample check, and OpenSpiel's Python
MCTS and ISMCTS bots playing whole games."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pyspiel
import pytest
from absl import flags
from open_spiel.python.algorithms import generate_playthrough, ismcts, mcts
from open_spiel.python.tests import games_sim_test

import services.interop.openspiel as los
from services.interop.episode import BOUNDS, CHANCE_BOUND
from services.rules.core import BadConfig
from tests.interop.conftest import MAX_MOVES, game_string


def load(game: str, players: int, **extra: object) -> pyspiel.Game:
    return pyspiel.load_game(game_string(game, players, **extra))


def random_action(state: pyspiel.State, rng: random.Random) -> int:
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        return rng.choices(actions, probs)[0]
    return rng.choice(state.legal_actions())


def test_the_three_games_are_registered_with_explicit_chance_and_imperfect_information():
    names = set(pyspiel.registered_names())
    for game, short in los.GAMES.items():
        assert short in names
        gt = pyspiel.load_game(short).get_type()
        assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert gt.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert (gt.min_num_players, gt.max_num_players) == (2, 4)
        assert pyspiel.load_game(short).num_distinct_actions() == BOUNDS[game] <= 256
        assert pyspiel.load_game(short).max_chance_outcomes() == CHANCE_BOUND


def test_parameters_utility_and_variants_are_checked():
    with pytest.raises(ValueError, match="utility"):
        pyspiel.load_game("longhouse_gnomes(utility=money)")
    with pytest.raises(BadConfig, match="players"):
        pyspiel.load_game("longhouse_noggin(players=5)")
    game = pyspiel.load_game("longhouse_noggin(players=4,sos=True,friend_or_foe=True,utility=score)")
    assert game.variants == {"friend_or_foe": True, "sos": True}
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    state = game.new_initial_state()
    assert state.episode.config.options == {"friend_or_foe": True, "sos": True}


def test_random_sim_test_with_serialisation(case):
    game, players = case
    g = load(game, players)
    pyspiel.random_sim_test(g, num_sims=2, serialize=True, verbose=False)
    assert g.num_players() == players


def test_serialise_round_trip_continues_identically(case):
    game, players = case
    g = load(game, players)
    rng = random.Random(f"{game}:{players}")
    state = g.new_initial_state()
    checked = 0
    for step in range(10_000):
        if state.is_terminal():
            break
        if step % 9 == 5:  # chance nodes and decisions alike
            text = pyspiel.serialize_game_and_state(g, state)
            g2, copy = pyspiel.deserialize_game_and_state(text)
            assert str(g2) == str(g)
            seed = rng.random()
            a, b = random.Random(seed), random.Random(seed)
            x, y = state.clone(), copy
            while not x.is_terminal():
                assert x.current_player() == y.current_player()
                assert x.legal_actions() == y.legal_actions()
                if not x.is_chance_node():
                    p = x.current_player()
                    assert x.information_state_string(p) == y.information_state_string(p)
                    assert x.observation_string(p) == y.observation_string(p)
                x.apply_action(random_action(x, a))
                y.apply_action(random_action(y, b))
            assert y.is_terminal() and x.returns() == y.returns()
            assert x.episode.hash() == y.episode.hash()
            checked += 1
        state.apply_action(random_action(state, rng))
    assert checked >= 3


def test_pickling_game_and_state(case):
    game, players = case
    g = load(game, players, utility="score")
    g2 = pickle.loads(pickle.dumps(g))
    assert str(g2) == str(g) and g2.utility == "score"
    rng = random.Random(1)
    state = g.new_initial_state()
    while not state.is_terminal() and state.episode.moves < MAX_MOVES[game] // 2:
        state.apply_action(random_action(state, rng))
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state) and copy.history() == state.history()
    assert copy.episode.hash() == state.episode.hash()
    while not state.is_terminal():
        action = random_action(state, rng)
        state.apply_action(action)
        copy.apply_action(action)
    assert copy.returns() == state.returns() and copy.episode.hash() == state.episode.hash()


def test_games_sim_test_sim_game(case):
    game, players = case
    np.random.seed(players)
    games_sim_test.GamesSimTest("test_breakthrough").sim_game(load(game, players))


def test_playthrough_generation_and_replay(case, tmp_path):
    game, players = case
    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()
    text = generate_playthrough.playthrough(game_string(game, players, max_moves=4), None, seed=players)
    assert "IsTerminal() = True" in text and "action: " in text
    path = tmp_path / f"{game}.txt"
    path.write_text(text)
    original, again = generate_playthrough.replay(str(path))
    assert again == original


def test_resample_keeps_information_state_current_player_and_legal_actions(case):
    game, players = case
    g = load(game, players)
    rng = random.Random(7)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = g.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            with pytest.raises(ValueError, match="cannot resample at a chance node"):
                state.resample_from_infostate(0, sampler)
        else:
            decisions += 1
            for p in range(players):
                sample = state.resample_from_infostate(p, sampler)
                assert sample.information_state_string(p) == state.information_state_string(p)
                assert sample.observation_string(p) == state.observation_string(p)
                assert sample.current_player() == state.current_player()
                assert sample.history() == [] and sample.move_number() == 0  # docs/interop.md: no history
                if p == state.current_player():
                    assert sample.legal_actions() == state.legal_actions()
                    assert ([sample.action_to_string(p, a) for a in sample.legal_actions()] ==
                            [state.action_to_string(p, a) for a in state.legal_actions()])
        state.apply_action(random_action(state, rng))
    assert decisions >= MAX_MOVES[game]


def play_with_bots(game: str, players: int, bots: dict[int, pyspiel.Bot], rng: random.Random) -> pyspiel.State:
    state = load(game, players).new_initial_state()
    while not state.is_terminal():
        p = state.current_player()
        state.apply_action(bots[p].step(state) if p in bots else random_action(state, rng))
    return state


def test_python_mcts_and_ismcts_bots_play_whole_games(case):
    game, players = case
    g = load(game, players)
    rs = np.random.RandomState(players)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bots = {0: mcts.MCTSBot(g, uct_c=2.0, max_simulations=3, evaluator=evaluator, random_state=rs),
            1: ismcts.ISMCTSBot(g, evaluator, uct_c=2.0, max_simulations=3, random_state=rs,
                                allow_inconsistent_action_sets=True)}
    state = play_with_bots(game, players, bots, random.Random(players))
    assert state.is_terminal()
    assert state.episode.moves == MAX_MOVES[game] or state.episode.rules.outcome(state.episode.state) is not None
    assert all(g.min_utility() <= r <= g.max_utility() for r in state.returns())


def test_struct_api_gives_the_move_and_takes_it_back():
    g = load("resource_hog", 2)
    state = g.new_initial_state()
    legal = state.episode.legal_moves()
    struct = state.action_to_struct(2)
    assert struct.to_dict() == legal[2] and '"type":"orders"' in struct.to_json()
    assert state.struct_to_actions(struct) == [2]
    assert state.struct_to_actions(struct.to_json()) == [2]
    state.apply_action_struct(struct)
    assert state.current_player() == 1
    with pytest.raises(ValueError, match="not a legal move"):
        state.struct_to_actions({"type": "orders", "order": ["trade"]})


def test_a_finished_game_and_a_struct_that_is_not_a_move_say_what_is_wrong():
    """Bad input leaves the game as it was and the error says why: an action after the end says
    the game is over; a struct that is not JSON, or not a JSON object, says so."""
    with pytest.raises(ValueError, match="max_moves must be a whole number of at least 1"):
        pyspiel.load_game("longhouse_gnomes(max_moves=0)")
    state = load("resource_hog", 2, max_moves=3).new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        outcomes = state.chance_outcomes() if state.is_chance_node() else None
        state.apply_action(outcomes[0][0] if outcomes else rng.choice(state.legal_actions()))
    history = state.history()
    with pytest.raises(ValueError, match="the game is over"):
        state.apply_action(0)
    assert state.history() == history and state.is_terminal()
    live = load("resource_hog", 2).new_initial_state()
    while live.is_chance_node():
        live.apply_action(live.chance_outcomes()[0][0])
    for bad, said in (("not json", "not JSON"), ("[1, 2]", "not list"), (7, "not int")):
        with pytest.raises(ValueError, match=said):
            live.struct_to_actions(bad)
