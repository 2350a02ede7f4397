"""Kipp, Kipp, Ahoi! as a Gymnasium environment (``pip install "kipp-kipp-ahoi[env]"``).

Importing this package registers ``kipp/KippKippAhoi-v0`` (Gymnasium 1.x finds environments
only once registered), so either of these makes one::

    import kipp.env; env = gymnasium.make("kipp/KippKippAhoi-v0", opponents="skilled")
    env = gymnasium.make("kipp.env:kipp/KippKippAhoi-v0")

The environment is :class:`~kipp.env.environment.KippKippAhoiEnv` (its docstring is the spec).
The whole game with every seat an agent is the PettingZoo environment of :mod:`kipp.env.aec`
(``kipp.env.aec.env(players=3)``), imported on its own so that this package needs no PettingZoo.
"""

import gymnasium

from kipp.env.environment import Episode, KippKippAhoiEnv, Passing

ENV_ID = "kipp/KippKippAhoi-v0"

gymnasium.register(id=ENV_ID, entry_point="kipp.env.environment:KippKippAhoiEnv")

__all__ = ["ENV_ID", "Episode", "KippKippAhoiEnv", "Passing"]
