"""Column widths of a table whose header is translated: the English layout, widened by what the
translation adds, so that the English table stays as it is and a longer German header keeps its
column apart from the next.

>>> column_width(22, "crashes / game", "Unfälle / Spiel")
23
>>> column_width(22, "crashes / game", "crashes / game")
22
"""

from __future__ import annotations

from typing import Iterable


def column_width(width: int, english: str, translated: str) -> int:
    """``width`` (the column's characters in English) plus how many characters ``translated`` has
    beyond ``english`` (none when it is no longer)."""
    return width + max(0, len(translated) - len(english))


def widest_extra(pairs: Iterable[tuple[str, str]]) -> int:
    """The most characters any translation of ``pairs`` ((English, translated)) adds to its English:
    how much wider a column of these labels must be."""
    return max([0, *(len(translated) - len(english) for english, translated in pairs)])
