"""The viewer's words: the sentences that name a player, and names as the window shows them.

Every drawer is handed one :class:`kipp.language.Language` (the window's, on
:attr:`viewer.frame.FrameView.language`) and asks it for its words; the functions here that
take a ``language`` default to English, the source language, so a caller that does not
care (a test of the rules' words) reads the source strings.

Player names are data (the recording and the rules keep them as they were given), so the
names the viewer makes up itself, "You", "Player 2", "Bot (skilled)", are translated where
they are shown (:func:`shown_name`), never where they are made. A sentence about "You"
(the default person at a one-seat table) is a sentence of its own ("You start", German
"Du beginnst"), chosen by :func:`said`.

>>> from kipp.language import Language
>>> said(Language("de"), "You", N_("{name} starts"), N_("You start"))
'Du beginnst'
>>> shown_name("Bot 2 (skilled)", Language("de"))
'Bot 2 (geübt)'
"""

from __future__ import annotations

import re

from kipp.language import N_, SOURCE_LANGUAGE, Language

ENGLISH = Language(SOURCE_LANGUAGE)
"""The source language: the default of every function that takes a ``language``."""

YOU = "You"
"""The default person's name (``kipp play``, the start screen's first seat): sentences agree with it."""

MODEL_WORDS = {"novice": N_("novice"), "casual": N_("casual"), "skilled": N_("skilled"), "expert": N_("expert"),
               "learned": N_("learned"), "captain": N_("captain")}
"""A player model's name as the window shows it (:data:`kipp.players.models.MODELS`); others as they are."""

_PLAYER = re.compile(r"Player (?P<number>\d+)")
_BOT = re.compile(r"(?P<base>Bot(?: \d+)?) \((?P<model>[^()]+)\)")


def is_you(name: str, language: Language = ENGLISH) -> bool:
    """Is ``name`` the person called "You" (or the word for it in ``language``, typed as a name)?"""
    return name == YOU or name == language.gettext(YOU)


def model_word(model: str, language: Language = ENGLISH) -> str:
    """A player model's name in ``language`` ("skilled": "geübt")."""
    return language.gettext(MODEL_WORDS[model]) if model in MODEL_WORDS else model


def shown_name(name: str, language: Language = ENGLISH) -> str:
    """``name`` as the window shows it: the names the viewer made up in ``language``, any other as it is."""
    if name == YOU:
        return language.gettext(N_("You"))
    player = _PLAYER.fullmatch(name)
    if player:
        return language.gettext(N_("Player {number}")).format(number=player["number"])
    bot = _BOT.fullmatch(name)
    if bot and bot["model"] in MODEL_WORDS:
        return f"{bot['base']} ({model_word(bot['model'], language)})"
    return name


def said(language: Language, name: str, about: str, to_you: str, **fields) -> str:
    """The sentence ``about`` ``{name}`` (marked with ``N_``), or ``to_you`` if ``name`` is "You", in
    ``language``, its other ``fields`` filled in."""
    if is_you(name, language):
        return language.gettext(to_you).format(**fields)
    return language.gettext(about).format(name=shown_name(name, language), **fields)


def chips(count: int, language: Language = ENGLISH) -> str:
    """``count`` chips in words: "1 chip", "3 chips" ("3 Siegchips")."""
    return language.ngettext("{count} chip", "{count} chips", count).format(count=count)


def the_sailor(sailor: str, language: Language = ENGLISH) -> str:
    """A sailor as the object of a turn: "the red sailor" ("den roten Matrosen")."""
    words = {"red": N_("the red sailor"), "yellow": N_("the yellow sailor"), "blue": N_("the blue sailor")}
    return language.gettext(words[sailor]) if sailor in words else sailor
