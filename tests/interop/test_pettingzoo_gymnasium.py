"""Every game as a PettingZoo AEC environment and a Gymnasium environment passes the libraries'
own checks (issue 24, acceptance 3), at 2, 3 and 4 seats."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import services.interop.gymnasium as lgym
from services.interop import encode
from services.interop.episode import BOUNDS
from services.interop.pettingzoo import env as make_env
from tests.interop.conftest import MAX_MOVES


def test_pettingzoo_api_test(case):
    game, players = case
    e = make_env(game=game, players=players, max_moves=MAX_MOVES[game])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns about observations that look alike
        api_test(e, num_cycles=MAX_MOVES[game])
    assert e.possible_agents == [f"player_{s}" for s in range(players)]
    space = e.observation_space("player_0")
    assert space["observation"].shape == (encode.size(game),)
    assert space["action_mask"].shape == (BOUNDS[game],) and space["action_mask"].dtype == np.int8


def test_pettingzoo_seed_test(case):
    game, players = case
    seed_test(lambda: make_env(game=game, players=players, max_moves=MAX_MOVES[game]), num_cycles=MAX_MOVES[game])


def test_pettingzoo_truncates_at_max_moves_and_pays_the_utility():
    e = make_env(game="noggin", players=2, max_moves=6, utility="rank")
    e.reset(seed=3)
    moves, last = 0, {}
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        if termination or truncation:
            last[agent] = (reward, truncation)
            e.step(None)
            continue
        assert obs["action_mask"].sum() >= 1 and obs["observation"].dtype == np.float32
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        moves += 1
    assert moves >= 6 and set(last) == {"player_0", "player_1"}
    assert all(t for _, t in last.values()) and sum(r for r, _ in last.values()) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="utility"):
        make_env(game="noggin", utility="money")


@pytest.mark.parametrize("game", sorted(lgym.ENVS))
def test_gymnasium_check_env(game):
    for players in (2, 3, 4):
        env = gymnasium.make(lgym.ENVS[game], players=players, max_moves=80).unwrapped
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check_env(env, skip_render_check=True)
        obs, info = env.reset(seed=players)
        assert env.observation_space.contains(obs) and obs["action_mask"].sum() == len(env.episode.actions())
        assert info["legal_moves"] == env.episode.legal_moves()


def test_gymnasium_one_seat_against_bots_plays_to_the_end():
    env = gymnasium.make("longhouse/ResourceHog-v0", players=3, seat=1, opponents=["greedy", "scripted"],
                         max_moves=40, utility="score")
    obs, info = env.reset(seed=5)
    done, steps, reward = False, 0, 0.0
    while not done:
        assert env.unwrapped.episode.current() == 1
        obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        done = terminated or truncated
        steps += 1
    ep = env.unwrapped.episode
    assert ep.is_over() and steps >= 5 and reward == ep.returns("score")[1]
    assert env.unwrapped.opponents == {0: "greedy", 2: "scripted"}
    with pytest.raises(ValueError, match="bot kinds"):
        lgym.LonghouseSeatEnv("gnomes", opponents="clever")


def test_bad_settings_are_refused_when_the_environment_is_made():
    """``max_moves`` below 1 (OpenSpiel's adapter refuses it too) and a search budget that is not
    a whole number from 1 to 100,000 (a seat's ``iterations`` on the bus has the same bounds) are
    refused when the environment is made, not at ``reset`` or never (a budget of 10**9 would
    leave ``reset`` searching for hours)."""
    for bad in (0, -3, 2.5, True):
        with pytest.raises(ValueError, match="max_moves must be a whole number of at least 1"):
            make_env(game="gnomes", players=2, max_moves=bad)
        with pytest.raises(ValueError, match="max_moves must be a whole number of at least 1"):
            lgym.LonghouseSeatEnv("gnomes", max_moves=bad)
    for bad in (0, -5, 2.5, "12", True, 100_001, 10**9):
        with pytest.raises(ValueError, match="iterations is a whole number from 1 to 100000"):
            lgym.LonghouseSeatEnv("resource_hog", opponents="ismcts", iterations=bad)
    env = lgym.LonghouseSeatEnv("resource_hog", opponents="expert", iterations=2, max_moves=6)
    env.reset(seed=1)
    assert env.iterations == 2
    # NumPy's integers are whole numbers too (they were taken before these checks)
    env = lgym.LonghouseSeatEnv("resource_hog", opponents="ismcts", iterations=np.int64(2), max_moves=np.int32(4))
    env.reset(seed=1)
    assert make_env(game="gnomes", players=2, max_moves=np.int64(5)).max_moves == 5


def test_pettingzoo_says_what_is_wrong_before_reset_after_the_end_and_for_a_bad_seed_or_action():
    """Calls out of order get a RuntimeError that says to reset, a seed or an action that is not a
    whole number a TypeError (an action of 1.7 was taken as 1), and a refused action leaves the
    episode as it was."""
    e = make_env(game="resource_hog", players=2, max_moves=4)
    for call in (lambda: e.step(0), lambda: e.last(), lambda: e.observe("player_0")):
        with pytest.raises(RuntimeError, match="reset"):
            call()
    for seed in ("abc", 1.5, True):
        with pytest.raises(TypeError, match="seed must be a whole number"):
            e.reset(seed=seed)
    e.reset(seed=np.int64(4))
    before = (e.agent_selection, e.episode.moves, e.observe(e.agent_selection)["observation"].tobytes())
    with pytest.raises(TypeError, match="whole number"):
        e.step(1.7)
    assert before == (e.agent_selection, e.episode.moves, e.observe(e.agent_selection)["observation"].tobytes())
    e.step(np.int64(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])))
    for agent in e.agent_iter(max_iter=200):
        obs, _, terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.agents == []
    for call in (lambda: e.step(0), lambda: e.last()):
        with pytest.raises(RuntimeError, match="every agent is done: call reset"):
            call()


def test_gymnasium_refuses_an_action_that_is_not_a_whole_number():
    env = lgym.LonghouseSeatEnv("resource_hog", players=2, max_moves=10)
    obs, _ = env.reset(seed=2)
    moves = env.episode.moves
    for bad in (1.7, True, np.array([0, 1])):
        with pytest.raises(TypeError, match="whole number"):
            env.step(bad)
    assert env.episode.moves == moves
    env.step(np.array([int(np.flatnonzero(obs["action_mask"])[0])]))  # a one-element array, as int() took
    assert env.episode.moves > moves
