"""The rules of the game: state, actions, set-up, transcripts, replays and the game loop.

Imports neither a physics engine nor pygame: physical outcomes come from a referee
(:class:`sim.tower.Referee`) handed in by the caller.
"""

from kipp.rules.actions import WILD, Action, ChooseSailor, Pass, Place, PlaceAnywhere, Play, Roll, Shuffle
from kipp.rules.config import GameConfig
from kipp.rules.play import play_game
from kipp.rules.state import CHANCE, TERMINAL, GameState, IllegalActionError

__all__ = ["CHANCE", "TERMINAL", "WILD", "Action", "ChooseSailor", "GameConfig", "GameState", "IllegalActionError",
           "Pass", "Place", "PlaceAnywhere", "Play", "Roll", "Shuffle", "play_game"]
