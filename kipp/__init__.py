"""Kipp, Kipp, Ahoi!: the rules of the game, its players, analyses and command line.

The rules core imports neither a physics engine nor pygame; physical outcomes come from
a referee (see :class:`sim.tower.Referee`) handed in by the caller.
"""
