"""Round ``k`` of many barrel orders at once, played once for every prefix they share.

Under common random numbers (:mod:`kipp.analysis.rounds`) round ``k`` of two orders draws
the same die rolls, placement errors and wild choices in the same sequence, and nothing a
player or referee does before the ``j``-th barrel is placed depends on the barrels after it
(a bot looks at the next barrel only, a referee at the tower on the deck). So two orders
that begin with the same ``j`` barrels play identically until the ``j``-th barrel is placed.
:func:`play_round_shared` walks the tree of the orders' prefixes: it plays a prefix once and
forks the game (its state and its three random streams) only where the orders part, and a
crash ends the round for every order below that prefix at once. The results are those of
:func:`kipp.analysis.rounds.play_round` for each order, exactly (a test plays both);
the work is one decision per node of the prefix tree that the round reaches, instead of one
per barrel of every order: for all 34,650 orders about 4x less with the ``casual`` bot.

This needs a referee whose verdict depends only on its arguments (the tower, the placement,
the turn); every referee of :mod:`sim.referees` is one (physics rebuilds its world from the
tower at every decision), and the tests play shared and per-order rounds with the fast and
physics referees and compare them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from kipp.analysis.rounds import next_action, round_streams
from kipp.players.bots import Bot
from kipp.rules.actions import Shuffle
from kipp.rules.config import GameConfig
from kipp.rules.state import GameState
from sim.params import ShipParams
from sim.tower import Referee

_SIZE_CODE = {"large": 0, "medium": 1, "small": 2}


class OrderTree:
    """Orders of one length sorted so that every prefix's orders are one contiguous slice.

    ``position[i]`` is where the ``i``-th order handed in sits in the sorted list: results
    come back in the caller's order.
    """

    def __init__(self, orders: list[tuple[str, ...]]) -> None:
        if not orders:
            raise ValueError("no orders")
        if len({len(o) for o in orders}) != 1:
            raise ValueError("the orders of one tree must have one length")
        codes = np.array([[_SIZE_CODE[size] for size in order] for order in orders], dtype=np.int8)
        self.sort = np.lexsort(codes.T[::-1])
        """Indices of the caller's orders, in tree (lexicographic) order."""
        self.codes = codes[self.sort]
        self.orders = [tuple(orders[i]) for i in self.sort]
        self.length = codes.shape[1]

    def __len__(self) -> int:
        return len(self.orders)

    def branches(self, lo: int, hi: int, depth: int) -> list[tuple[int, int]]:
        """The slices of ``[lo, hi)`` that share barrel ``depth`` (0 = bottom): one per size present."""
        column = self.codes[lo:hi, depth]
        bounds = lo + np.searchsorted(column, np.arange(len(_SIZE_CODE) + 1))
        return [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:]) if a < b]


@dataclass
class SharedRound:
    """Round ``k`` of every order of a tree (arrays in the caller's order of the orders)."""

    completed: np.ndarray
    """bool per order: was the round completed."""
    stacked: np.ndarray
    """int per order: barrels standing when the round ended."""
    nodes: int
    """Prefix-tree nodes played (a measure of the work)."""


def play_round_shared(tree: OrderTree, referee: Referee, bot: Bot, config: GameConfig, ship: ShipParams,
                      seed: int, k: int, family: str = "round") -> SharedRound:
    """Play round ``k`` of ``family`` (the streams of :func:`~kipp.analysis.rounds.round_streams`)
    of every order in ``tree``; each order's result equals ``play_round(order, ..., seed, k, family)``'s."""
    n = len(tree)
    completed = np.zeros(n, dtype=bool)
    stacked = np.zeros(n, dtype=np.int16)
    streams = round_streams(seed, k, family)
    generators = [g.bit_generator for g in streams]
    die_rng, place_rng, wild_rng = streams
    root = GameState(config, referee, ship)
    root.apply_action(Shuffle(tree.orders[0]))
    # (state, the streams' states, the slice of orders it stands for)
    pending = [(root, [g.state for g in generators], 0, n)]
    nodes = 0
    while pending:
        state, saved, lo, hi = pending.pop()
        for generator, generator_state in zip(generators, saved):
            generator.state = generator_state
        nodes += 1
        split_at = state.placed  # the orders of this node share barrels 0 .. split_at - 1
        while True:
            if state.chance_kind() == "shuffle" or state.is_terminal():
                end = state.last_round_end()
                completed[lo:hi] = end["completed"]
                stacked[lo:hi] = end["stacked"]
                break
            if state.placed == split_at < tree.length:
                branches = tree.branches(lo, hi, split_at)
                if len(branches) > 1:
                    now = [g.state for g in generators]
                    for a, b in branches:
                        child = state.clone()
                        child.line = tree.orders[a]  # any order of the slice: they agree up to here
                        pending.append((child, now, a, b))
                    break
                split_at += 1
            state.apply_action(next_action(state, bot, die_rng, place_rng, wild_rng))
    back = np.empty(n, dtype=np.intp)
    back[tree.sort] = np.arange(n)
    return SharedRound(completed[back], stacked[back], nodes)


@lru_cache(maxsize=2)
def order_tree(codes: bytes, length: int) -> OrderTree:
    """The tree of the orders packed by :func:`order_codes` (cached: a worker builds it once per sweep)."""
    sizes = tuple(_SIZE_CODE)
    table = np.frombuffer(codes, dtype=np.int8).reshape(-1, length)
    return OrderTree([tuple(sizes[c] for c in row) for row in table])


def order_codes(orders: list[tuple[str, ...]]) -> bytes:
    """Orders packed as bytes, one size code per barrel: what a task carries instead of the orders."""
    return np.array([[_SIZE_CODE[s] for s in o] for o in orders], dtype=np.int8).tobytes()
