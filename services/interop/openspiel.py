"""Every Longhouse game as an OpenSpiel game: ``import services.interop.openspiel`` registers
``longhouse_noggin``, ``longhouse_gnomes`` and ``longhouse_resource_hog`` with ``pyspiel``.

    import pyspiel
    import services.interop.openspiel  # noqa: F401 (registers the games)
    game = pyspiel.load_game("longhouse_resource_hog(players=3,max_moves=300,utility=rank)")

What each game is (OpenSpiel's ``GameType``; source: OpenSpiel's Python games API,
``open_spiel/python/games/kuhn_poker.py`` and docs/api_reference, open_spiel 2.0):

* sequential, imperfect information, **explicit chance**: every uniform draw of the rules
  (``Chance.below(n)``) is an ``n``-way chance node (:mod:`.episode`), so states serialise
  and deserialise by OpenSpiel's own means and tree search sees chance;
* an action is an index into the seat's legal moves (the rules' ``legal_moves`` order), its
  string the move's JSON; ``num_distinct_actions`` is the game's bound (:data:`BOUNDS`: 256,
  128, 64); a larger move list is chosen in steps by the same seat (a block, then a move);
* parameters: ``players`` (2-4), ``max_moves`` (the episode is truncated after that many
  moves, default 1000), ``utility`` (``win`` | ``score`` | ``rank``, default ``rank``; see
  :meth:`.episode.Episode.returns`) and one boolean per variant of the game;
* information-state strings: the seat's visible steps (its moves and the events it may see);
  observation strings: its player view's JSON; the observation tensor: :mod:`.encode`;
* ``resample_from_infostate`` draws a state from the game's honest determinisation
  (``rules.determinise``); the information state, the seat to decide and its legal actions
  are kept.

OpenSpiel's struct API cannot be given C++ structs from Python, so the states offer it in
Python: ``action_to_struct(action)`` / ``struct_to_actions(struct)`` with a
:class:`MoveStruct` (``to_json()`` / ``to_dict()``: the move) and ``to_struct()`` (the
spectator view). OpenSpiel's C++ ``MCTSBot`` and ``ISMCTSBot`` cannot run Python games; its
Python ``mcts.MCTSBot`` and ``ismcts.ISMCTSBot`` can (see docs/interop.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import orjson
import pyspiel

from services.rules.core import get_rules

from . import encode
from .episode import (BOUNDS, CHANCE, CHANCE_BOUND, DEFAULT_MAX_MOVES, MAX_LEVELS, TERMINAL, UTILITIES, Episode,
                      check_max_moves)

GAMES = {"noggin": "longhouse_noggin", "gnomes": "longhouse_gnomes", "resource_hog": "longhouse_resource_hog"}
"""OpenSpiel's short name of each game."""
DEFAULT_PLAYERS = 2
DEFAULT_UTILITY = "rank"
"""Rank by default: random Noggin seldom has a winner (issue 24: none in 40 games), so a
win-only utility says nothing there."""
_RANGES = {"win": (0.0, 1.0), "score": (-1.0, 1.0), "rank": (0.0, 1.0)}


class MoveStruct:
    """A move as an action struct (OpenSpiel's ``SpielStruct`` interface, in Python).

    Attributes:
        move: the move dict, as the rules' ``legal_moves`` list it.
    """

    __slots__ = ("move",)

    def __init__(self, move: dict[str, Any] | str):
        if isinstance(move, str):
            try:
                move = orjson.loads(move)
            except orjson.JSONDecodeError as exc:
                raise ValueError(f"a move struct is a move's JSON object; this is not JSON ({exc})") from None
        if not isinstance(move, dict):
            raise ValueError(f"a move struct is a move's JSON object, not {type(move).__name__}")
        self.move = dict(move)

    def to_json(self) -> str:
        """The move's canonical JSON."""
        return orjson.dumps(self.move, option=orjson.OPT_SORT_KEYS).decode()

    def to_dict(self) -> dict[str, Any]:
        """The move dict (a copy)."""
        return dict(self.move)


def game_type(game: str) -> pyspiel.GameType:
    """The ``pyspiel.GameType`` of ``game`` (``"noggin"``, ``"gnomes"``, ``"resource_hog"``)."""
    rules = get_rules(game)
    spec: dict[str, Any] = {"players": DEFAULT_PLAYERS, "max_moves": DEFAULT_MAX_MOVES, "utility": DEFAULT_UTILITY}
    spec.update({name: False for name in sorted(rules.option_names)})
    return pyspiel.GameType(
        short_name=GAMES[game],
        long_name=f"Longhouse: {rules.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.max_players,
        min_num_players=rules.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )


def _settings(game: str, params: dict[str, Any]) -> tuple[int, int, str, dict[str, bool]]:
    """``(players, max_moves, utility, variants)`` from a game's parameters (defaults filled in).
    Raises ValueError for an unknown utility or ``max_moves`` below 1."""
    utility = str(params.get("utility", DEFAULT_UTILITY))
    if utility not in UTILITIES:
        raise ValueError(f"utility must be one of {', '.join(UTILITIES)}, not {utility!r}")
    max_moves = check_max_moves(params.get("max_moves", DEFAULT_MAX_MOVES))
    variants = {k: True for k in sorted(get_rules(game).option_names) if params.get(k)}
    return int(params.get("players", DEFAULT_PLAYERS)), max_moves, utility, variants


class LonghouseGame(pyspiel.Game):
    """One of the games (a subclass per game sets ``GAME``) with its parameters.

    Raises:
        ValueError: ``utility`` is not one of win, score, rank, or ``max_moves`` < 1.
        services.rules.core.BadConfig: the players or variants do not fit the game.
    """

    GAME = ""

    def __init__(self, params: dict[str, Any] | None = None):
        params = dict(params or {})
        gtype = game_type(self.GAME)
        players, max_moves, utility, variants = _settings(self.GAME, {**gtype.parameter_specification, **params})
        Episode(self.GAME, players, variants, max_moves=1)  # checks players and variants now
        lo, hi = _RANGES[utility]
        info = pyspiel.GameInfo(
            num_distinct_actions=BOUNDS[self.GAME],
            max_chance_outcomes=CHANCE_BOUND,
            num_players=players,
            min_utility=lo,
            max_utility=hi,
            utility_sum=None,
            max_game_length=MAX_LEVELS * max_moves,
        )
        super().__init__(gtype, info, params)

    # OpenSpiel unpickles a game without calling __init__: read the settings from its parameters
    @property
    def players(self) -> int:
        """Seats."""
        return self.num_players()

    @property
    def max_moves(self) -> int:
        """Moves after which an episode is truncated."""
        return _settings(self.GAME, self.get_parameters())[1]

    @property
    def utility(self) -> str:
        """``win``, ``score`` or ``rank``."""
        return _settings(self.GAME, self.get_parameters())[2]

    @property
    def variants(self) -> dict[str, bool]:
        """The variants switched on."""
        return _settings(self.GAME, self.get_parameters())[3]

    def new_initial_state(self) -> LonghouseState:
        """The state before set-up's draws (a chance node in Noggin and Gnomes)."""
        return LonghouseState(self)

    def make_episode(self) -> Episode:
        """A new :class:`.episode.Episode` of this game's parameters."""
        return Episode(self.GAME, self.players, self.variants, max_moves=self.max_moves)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        """The observer of an observation type: the information state (``perfect_recall``), the
        observation (the default: public and the seat's private information), or ``None`` for a
        type this game does not provide (factored public or private observations).

        Raises ValueError for observation parameters (none are taken)."""
        if params:
            raise ValueError(f"observation parameters are not taken; got {params}")
        if iig_obs_type is None:
            return LonghouseObserver(self.GAME, recall=False)
        single = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if not (iig_obs_type.public_info and single):
            return None
        return LonghouseObserver(self.GAME, recall=bool(iig_obs_type.perfect_recall))


class LonghouseState(pyspiel.State):
    """A state of a Longhouse game: an :class:`.episode.Episode` (built on first use, so a clone,
    which OpenSpiel makes as a new initial state whose attributes it then deep-copies, costs
    no set-up)."""

    def __init__(self, game: LonghouseGame, episode: Episode | None = None):
        super().__init__(game)
        self._ep = episode
        self._utility = game.utility

    @property
    def episode(self) -> Episode:
        """The episode this state wraps."""
        if self._ep is None:
            self._ep = self.get_game().make_episode()
        return self._ep

    # -- OpenSpiel's state API ----------------------------------------------------------------
    # ``is_terminal``, ``current_player``, ``chance_outcomes``, ``is_chance_node``,
    # ``is_player_node`` and ``legal_actions`` are answered here in Python, so a Python caller
    # (random play, the Python MCTS and ISMCTS) does not go through C++ and back (pybind11's
    # ``LegalActions`` asks Python four times: is it over, a chance node, whose turn, the
    # actions); C++ callers reach the same answers through ``current_player`` and
    # ``_legal_actions``. ``apply_action`` stays OpenSpiel's, which keeps the history.
    def current_player(self) -> int:
        """The seat to decide, ``PlayerId.CHANCE`` (-1) or ``PlayerId.TERMINAL`` (-4)."""
        return (self._ep or self.episode)._seat

    def is_chance_node(self) -> bool:
        """True while a draw is pending."""
        return (self._ep or self.episode)._seat == CHANCE

    def is_player_node(self) -> bool:
        """True when a seat decides."""
        return (self._ep or self.episode)._seat >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """OpenSpiel's ``legal_actions``: the actions of the seat to decide (``player`` omitted or
        that seat), the chance outcomes at a chance node, ``[]`` at the end or for another seat.
        Raises ValueError for another pseudo-player (as OpenSpiel's C++ does)."""
        ep = self._ep or self.episode
        seat = ep._seat
        if seat == TERMINAL:
            return []
        if seat == CHANCE:
            return [k for k, _ in ep.chance_outcomes()]
        if player is None or player == seat:
            return ep.actions()
        if player < 0:
            raise ValueError(f"legal_actions for the pseudo-player {player}")
        return []

    def _legal_actions(self, player: int) -> list[int]:
        ep = self._ep or self.episode
        return ep.actions() if player == ep._seat else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(outcome, probability)]`` of the draw under way (uniform unless taken in steps)."""
        return (self._ep or self.episode).chance_outcomes()

    def _apply_action(self, action: int) -> None:
        ep = self._ep or self.episode
        if ep.draw is not None:
            ep.chance(action)
        else:
            ep.step(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.episode.action_string(player, int(action))

    def is_terminal(self) -> bool:
        """True once the rules ended the game or ``max_moves`` moves were made."""
        return (self._ep or self.episode)._seat == TERMINAL

    def returns(self) -> list[float]:
        """Each seat's utility (the game's ``utility`` parameter); zeros before the end."""
        return self.episode.returns(self._utility)

    def rewards(self) -> list[float]:
        """The utilities at the end, zeros before (terminal rewards only)."""
        return self.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> LonghouseState:
        """A state ``player_id`` cannot tell from this one, drawn with ``probability_sampler``
        (called for two uniform numbers that seed the game's determinisation; see
        :meth:`.episode.Episode.resample`). Its OpenSpiel ``history()`` is empty and its
        ``move_number()`` 0: the determinisation samples the hidden state itself, not chance
        outcomes, so no action sequence leads to the sample; its information state, observation,
        player to move and legal actions are what count.

        Raises:
            ValueError: at a chance node (see :meth:`.episode.Episode.resample`).
        """
        seed = f"{player_id}:{probability_sampler():.17g}:{probability_sampler():.17g}"
        return LonghouseState(self.get_game(), self.episode.resample(int(player_id), seed))

    def __str__(self) -> str:
        ep = self.episode
        who = {-1: "chance", TERMINAL: "end"}.get(ep.current(), f"seat {ep.current()}")
        return (f"{ep.rules.name}, {ep.players} seats, move {ep.moves}, step {ep.log.depth}, {who}"
                f"{f' among {ep.draw}' if ep.draw is not None else ''}")

    # -- the struct API, in Python ------------------------------------------------------------------
    def action_to_struct(self, action: int, player: int | None = None) -> MoveStruct:
        """The move of ``action`` at this decision (a full decision, not a step towards one).

        Raises:
            ValueError: a chance node, the end, a step of a decision taken in steps, or an
                action not offered.
        """
        ep = self.episode
        legal = ep.legal_moves()
        if not legal or len(legal) > ep.bound or not 0 <= int(action) < len(legal):
            raise ValueError(f"action {action} is not a whole move here")
        return MoveStruct(legal[int(action)])

    def struct_to_actions(self, struct: MoveStruct | dict[str, Any] | str) -> list[int]:
        """The actions that make the move ``struct`` here: one index, or the steps towards it when
        the decision is taken in steps. Raises ValueError if it is not a legal move now."""
        move = struct.move if isinstance(struct, MoveStruct) else MoveStruct(struct).move
        ep = self.episode
        key = MoveStruct(move).to_json()
        legal = ep.legal_moves()
        for index, m in enumerate(legal):
            if MoveStruct(m).to_json() == key:
                return _digits(index, len(legal), ep.bound, ep.prefix)
        raise ValueError(f"{key} is not a legal move now")

    def apply_action_struct(self, struct: MoveStruct | dict[str, Any] | str) -> None:
        """Make the move ``struct`` (see :meth:`struct_to_actions`)."""
        for action in self.struct_to_actions(struct):
            self.apply_action(action)

    def to_struct(self) -> dict[str, Any]:
        """The spectator view of the state (public information only)."""
        return self.episode.view(None)


def _digits(index: int, n: int, bound: int, prefix: tuple[int, ...]) -> list[int]:
    if n <= bound:
        return [index]
    size = bound
    while size < n:
        size *= bound
    out = []
    while size > 1:
        size //= bound
        out.append(index // size)
        index %= size
    if tuple(out[:len(prefix)]) != tuple(prefix):
        raise ValueError("the move is not in the block chosen so far")
    return out[len(prefix):]


class LonghouseObserver:
    """OpenSpiel's Python observer (``make_py_observer``): strings and, for observations, the
    tensor of :mod:`.encode`.

    Attributes:
        tensor: float32 of ``encode.size(game)`` (observations), or ``None`` (information states).
        dict: ``{"observation": tensor}`` or ``{}``.
    """

    def __init__(self, game: str, recall: bool):
        self.game = game
        self.recall = recall
        if recall:
            self.tensor = None
            self.dict: dict[str, np.ndarray] = {}
        else:
            self.tensor = np.zeros(encode.size(game), np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: LonghouseState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s observation of ``state`` (nothing for information
        states, which have no tensor)."""
        if self.tensor is None:
            return
        ep = state.episode
        encode.encode(self.game, ep.view(player), player, ep.current() == player,
                      len(ep.prefix) if ep.current() == player else 0, out=self.tensor)

    def string_from(self, state: LonghouseState, player: int) -> str:
        """``player``'s information state (every step it saw) or observation (its view's JSON)."""
        ep = state.episode
        return ep.information(player) if self.recall else ep.observation(player)


def _register() -> dict[str, type[LonghouseGame]]:
    classes = {}
    for game, short in GAMES.items():
        cls = type(f"Longhouse{''.join(p.title() for p in game.split('_'))}Game", (LonghouseGame,),
                   {"GAME": game, "__module__": __name__,
                    "__doc__": f"``{short}``: {get_rules(game).title} as an OpenSpiel game."})
        classes[game] = cls
        globals()[cls.__name__] = cls  # importable by name, as pickle wants
        if short not in pyspiel.registered_names():
            pyspiel.register_game(game_type(game), cls)
    return classes


GAME_CLASSES = _register()
"""The game class of each game, registered with ``pyspiel`` on import."""

__all__ = ["GAMES", "GAME_CLASSES", "LonghouseGame", "LonghouseObserver", "LonghouseState", "MoveStruct",
           "game_type"]
