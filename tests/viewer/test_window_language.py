"""Every screen and card of the window, drawn in German and in English, headless: no string left
untranslated, and every drawn text fits its box.

One scripted game (people "You" and Ben, nine barrels, half turns, Old Sea Dogs, the balance
hint on, ask-before-letting-go on, the first game's tips) is played through a scripted die
and referee and photographed at each step: rolling, placing, the held barrel, the wild
choice, the pass offer, a pass, a crash and its fall, a completed tower, the end screen and
its recap, with the how-to-play card, the menu and both questions over it; the start screen (every
player model's words), a replay's banner and cards, and the prompts a physics decision or a
bot's turn shows. What is drawn is recorded where text is rendered and blitted
(:mod:`tests.viewer.drawn_text`).

- Untranslated: drawn in a pseudo-German whose every word is marked (⟦Würfle⟧), built from
  the real catalogue, no text has letters outside the markers but for proper names; drawn in
  real German, no text is an English source string whose German differs.
- Fits: in both languages no text was cut with an ellipsis, no wrapped text lost lines, every
  text lies inside the surface it is drawn on, and inside its card when a card is up.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from itertools import chain, repeat

import pygame
import pytest

from kipp.language import Language
from kipp.rules.config import GameConfig
from sim.tower import BarrelPose, Decision, FallenStack, TowerState
from tests.viewer.drawn_text import PseudoLanguage, Record, catalogue, recording, unmarked
from tests.viewer.test_play_by_events import LINE_9, scripted_chance
from viewer import end_screen, hud, question, start
from viewer.controller import GameController
from viewer.frame import FrameView
from viewer.help import HelpCard
from viewer.help import card_rect as help_rect
from viewer.layout import MIN_SIZE
from viewer.menu import MenuCard, menu_button
from viewer.modes import Mode, Prompt
from viewer.question import Question, QuestionCard
from viewer.setup import GameSetup, Seat, SeatKind
from viewer.start import StartScreen

SIZE = (1280, 800)
NAMES = ("Ben", "Bot", "Kipp, Kipp, Ahoi!", "English", "Deutsch")
"""Proper names a drawn text may carry untranslated (players, the game, each language's own name)."""


class FallingReferee:
    """No physics: a barrel stands where it is put, except at the ``crash_at``-th decisions, where
    the top two barrels fall to port (as a closed form would say)."""

    def __init__(self, crash_at):
        self.crash_at, self.calls = set(crash_at), 0

    def new_tower(self):
        return TowerState()

    def decide(self, tower, placement, turn):
        self.calls += 1
        if placement is not None:
            pose = BarrelPose(placement.size, placement.x_m, placement.y_m, 0.03 * (len(tower.barrels) + 0.5))
            tower = replace(tower, barrels=tower.barrels + (pose,))
        if turn is not None:
            tower = tower.with_turn(turn.sailor, turn.revolutions)
        if self.calls in self.crash_at:
            fallen = FallenStack(max(0, len(tower.barrels) - 2), math.pi / 2, in_slice=False)
            return Decision(True, tower, "place" if placement is not None else "turn", "scripted", fallen=fallen)
        return Decision(False, tower)


@dataclass
class Shot:
    """One screen as drawn: its name, what was drawn, and the card box of each layer above the game."""

    name: str
    record: Record
    boxes: dict[int, tuple[pygame.Rect, ...]]
    """Where the texts drawn over the ``n``-th veil may be: a card, and the buttons over it (the Menu button)."""


def _advance(c: GameController, until, limit: int = 4000) -> None:
    for _ in range(limit):
        if until():
            return
        c.update()
    raise AssertionError(f"not reached in {limit} frames: {c.state}, mode {c.mode}")


def _act(c: GameController) -> None:
    """Whatever a person is asked: roll (or play on), let go (twice: asked first), the red sailor."""
    prompt = c.prompt()
    if prompt in (Prompt.ROLL, Prompt.PLAY_OR_PASS):
        c.roll()
    elif prompt is Prompt.PLACE:
        c.release()
        c.release()
    elif prompt is Prompt.SAILOR:
        c.choose_sailor("red")


def _shots(make_app, params, monkeypatch, language: Language, size: tuple[int, int] = SIZE) -> list[Shot]:
    shots: list[Shot] = []

    def shoot(name, app, boxes=None, draw=None):
        with recording(monkeypatch, size) as record:
            (draw or app.render)(record.window)
        shots.append(Shot(name, record, {layer: (box, menu_button(layout)) for layer, box in (boxes or {}).items()}))

    config = GameConfig(players=("You", "Ben"), barrels=9, half_turn=True, sea_dogs=True)
    chance = scripted_chance(LINE_9, chain(["wild", "yellow"], repeat("red")))

    def game(games):
        return GameController(config, params, seed=7, chance=chance, confirm=True,
                              referee=FallingReferee(crash_at={3, 13}))  # the wild roll places, then turns

    app = make_app(game, size=size, hints=True, language=language)
    c = app.controller
    layout = app.layout
    assert layout.size == size
    _advance(c, lambda: c.prompt() is Prompt.ROLL)
    shoot("roll", app)
    early = FrameView.of(c)
    for card, name in ((HelpCard(), "help card"), (QuestionCard(Question.NEW_GAME), "new game?"),
                       (QuestionCard(Question.QUIT), "quit?")):
        app.cards = [card]
        box = help_rect(layout) if isinstance(card, HelpCard) else question.card_rect(layout)
        shoot(name, app, {1: box})
    app.cards = [MenuCard()]
    shoot("menu", app, {1: app.cards[0]._card(layout)})
    app.cards = []
    c.roll()
    c.update()
    shoot("rolling", app)
    _advance(c, lambda: c.prompt() is Prompt.PLACE)
    shoot("placing, wild", app)
    c.release()
    shoot("held", app)
    c.release()
    _advance(c, lambda: c.prompt() is Prompt.SAILOR)
    shoot("wild choice", app)
    c.choose_sailor("red")
    _advance(c, lambda: c.prompt() is Prompt.PLAY_OR_PASS)
    shoot("pass offer", app)
    c.pass_turn()
    c.update()
    shoot("passed", app)
    _advance(c, lambda: c.prompt() is Prompt.ROLL)
    _act(c)
    _advance(c, lambda: c.prompt() is Prompt.PLACE)
    _act(c)
    _advance(c, lambda: c.mode is Mode.AFTERMATH and c.fall is not None and c.message is not None
             and c.message.big)
    shoot("crash", app)
    _advance(c, lambda: c.state.round == 2 and c.prompt() is not None)
    while not (c.shown_round().over and c.state.last_round_end()["completed"]):
        _act(c)
        _advance(c, lambda: c.prompt() is not None or c.shown_round().over)
    shoot("tower complete", app)
    while c.prompt() is not Prompt.NEW_GAME:
        _act(c)
        c.update()
    end = end_screen._end_card(layout, 2)
    shoot("game end", app, {1: end})
    app.cards = [HelpCard()]
    shoot("help card over the end", app, {1: end, 2: help_rect(layout)})
    app.cards = []

    view = early  # what a running game's panel says in a physics decision, or a stopped recording
    for name, shown in (("a sailor turns", replace(view, mode=Mode.DECIDING, turning="yellow", prompt=None)),
                        ("the barrel settles", replace(view, mode=Mode.DECIDING, turning=None, prompt=None)),
                        ("a recording stops", replace(view, ended=True, prompt=None)),
                        ("a replay's turn", replace(view, scripted=True, prompt=None))):
        shoot(name, app, draw=lambda surface, shown=shown: hud.draw_panel(surface, layout, shown))
    for name, shown in (("a person's turn", replace(early, prompt=None)),
                        ("a bot thinks", replace(early, prompt=None, humans=(False, False))),
                        ("a bot places", replace(early, prompt=None, humans=(False, False), mode=Mode.GLIDING))):
        shoot(name, app, draw=lambda surface, shown=shown: hud.draw_panel(surface, layout, shown))

    replay = make_app(game, size=size, replay=True, language=language)
    shoot("replay", replay)
    for card, name in ((HelpCard(replay=True), "replay's help card"),
                       (QuestionCard(Question.NEW_GAME, replay=True), "restart the replay?"),
                       (QuestionCard(Question.QUIT, replay=True), "quit the replay?"),
                       (MenuCard(replay=True), "replay's menu")):
        replay.cards = [card]
        box = (help_rect(layout) if isinstance(card, HelpCard) else card._card(layout) if isinstance(card, MenuCard)
               else question.card_rect(layout))
        shoot(name, replay, {1: box})

    models = ("novice", "casual", "skilled", "expert", "learned", "captain")
    for k in range(0, len(models), 2):
        setup = GameSetup(seats=(Seat(SeatKind.PERSON, "You"), Seat(SeatKind.BOT, model=models[k]),
                                 Seat(SeatKind.PERSON, ""), Seat(SeatKind.BOT, model=models[k + 1])),
                          barrels=9, half_turn=True, sea_dogs=True, hints=True, confirm=True)
        screen = make_app(game, size=size, games=lambda setup: game, setup=setup, start_screen=True,
                          language=language)
        shoot(f"start screen, {models[k]} and {models[k + 1]}", screen, {1: start.card_rect(layout)})
    screen.cards = [StartScreen(GameSetup(seats=()), after_game=True, language=language)]
    shoot("start screen after a game, nobody seated", screen, {1: start.card_rect(layout)})
    return shots


@pytest.fixture(scope="module")
def english_words():
    """German translations that differ from their English source, by source."""
    words = set()
    for message in catalogue("de"):
        if message.id and isinstance(message.id, str) and message.string != message.id:
            words.add(message.id)
    return words


def _fits(shot: Shot) -> list[str]:
    problems = [f"{shot.name}: cut to {width} px: {text!r}" for text, width in shot.record.cut]
    problems += [f"{shot.name}: {kept} of {lines} lines shown: {text!r}" for text, lines, kept in shot.record.dropped]
    for drawn in shot.record.drawn:
        if not pygame.Rect((0, 0), drawn.surface_size).contains(drawn.rect):
            problems.append(f"{shot.name}: {drawn.text!r} at {drawn.rect} leaves its surface {drawn.surface_size}")
        boxes = shot.boxes.get(drawn.layer, ()) if drawn.on_window else ()
        if boxes and not any(box.contains(drawn.rect) for box in boxes):
            problems.append(f"{shot.name}: {drawn.text!r} at {drawn.rect} leaves its card {boxes[0]}")
    return problems


@pytest.mark.parametrize("size", [SIZE, MIN_SIZE], ids=["1280x800", "smallest"])
@pytest.mark.parametrize("code", ["de", "en"])
def test_every_text_fits_its_box(code, size, make_app, params, monkeypatch):
    shots = _shots(make_app, params, monkeypatch, Language(code), size)
    problems = [problem for shot in shots for problem in _fits(shot)]
    assert not problems, "\n".join(problems)
    assert sum(len(shot.record.drawn) for shot in shots) > 500


def test_no_drawn_text_is_left_in_english(make_app, params, monkeypatch, english_words):
    pseudo = _shots(make_app, params, monkeypatch, PseudoLanguage())
    unmarked_texts = sorted({f"{shot.name}: {d.text!r}" for shot in pseudo for d in shot.record.drawn
                             if unmarked(d.text, NAMES)})
    assert not unmarked_texts, "drawn but not translated:\n" + "\n".join(unmarked_texts)
    german = _shots(make_app, params, monkeypatch, Language("de"))
    english = sorted({f"{shot.name}: {d.text!r}" for shot in german for d in shot.record.drawn
                      if d.text in english_words})
    assert not english, "English in the German window:\n" + "\n".join(english)
    assert {"Du bist dran", "Krawumm!", "So wird gespielt", "Wer spielt heute?"} <= set(
        chain.from_iterable(shot.record.texts() for shot in german)), "the German screens were drawn"


POINTED = re.compile(r"\d\.\d")
"""A decimal point between digits: how English writes 2.6°, never how German does."""


def test_a_german_screen_writes_its_decimals_with_a_comma(make_app, params, monkeypatch):
    """The gauge's degrees, the inset's tilt and its half turns: ``2,6°`` and ``0,5`` in German, as the
    English screens show them with a point."""
    english = {d.text for shot in _shots(make_app, params, monkeypatch, Language("en")) for d in shot.record.drawn}
    german = {d.text for shot in _shots(make_app, params, monkeypatch, Language("de")) for d in shot.record.drawn}
    pointed = sorted(text for text in english if POINTED.search(text))
    assert any("\u00b0" in text for text in pointed) and "0.5" in english, "the English screens show decimals"
    assert not sorted(text for text in german if POINTED.search(text)), "a decimal point in the German window"
    commas = {text for text in german if re.search(r"\d,\d", text)}
    assert any(re.fullmatch(r"Turm: noch \d+,\d° bis zum Kippen", text) for text in commas), sorted(commas)
    assert "0,5" in commas and any(re.fullmatch(r"\d+,\d°", text) for text in commas), sorted(commas)
