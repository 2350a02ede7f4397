"""The players: bots that choose placements, sailors and passes.

Players judge the tower with sim's geometry and static check, as a person's sense of
balance; they never ask a referee.
"""

from kipp.players.bots import Bot

__all__ = ["Bot"]
