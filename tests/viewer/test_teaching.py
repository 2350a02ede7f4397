"""Teaching the game and the small courtesies, driven through real pygame events: the help
card, first-game tips, questions before N/Esc, the cleared die, pass wording, long names
at the minimum window size, the key legend, and the end screen's round-by-round recap."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pygame

from kipp.language import Language
from kipp.rules.config import GameConfig
from viewer import end_screen, hud, palette
from viewer.controller import GameController
from viewer.frame import FrameView
from viewer.help import HelpCard, rules
from viewer.keys import KEYS
from viewer.layout import MIN_SIZE, compute_layout
from viewer.modes import Prompt
from viewer.recap import describe, round_recaps
from viewer.tips import first_game_tip

from .test_play_by_events import LINE_9, click, press, run_until, scripted_chance


def near(colour, expected, tolerance=12):
    return all(abs(a - b) <= tolerance for a, b in zip(colour[:3], expected))


def type_char(app, key, char):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=char, scancode=0))
    app.step()


def test_help_card_at_first_start_then_h_and_question_mark(make_app, params, scripted_referee):
    config = GameConfig(players=("Ann", "Ben"))
    from viewer.app import ViewerApp

    app = ViewerApp(lambda games: GameController(config, params, referee=scripted_referee(),
                                                 chance=scripted_chance(LINE_9 + LINE_9[:3], ["red"] * 9)),
                    throttle=False, help_at_start=True)
    try:
        c = app.controller
        for _ in range(30):
            app.step()
        assert isinstance(app.card, HelpCard) and c.frame == 0, "the game waits under the help card"
        centre = app.surface.get_at((app.layout.size[0] // 2, app.layout.size[1] // 2))
        assert near(centre, palette.PANEL)
        press(app, pygame.K_SPACE)  # any of the closing keys; it does not roll
        assert app.card is None and c.mode == "idle"
        press(app, pygame.K_h)
        assert isinstance(app.card, HelpCard)
        press(app, pygame.K_h)
        assert app.card is None
        type_char(app, pygame.K_SLASH, "?")
        assert isinstance(app.card, HelpCard)
        click(app, (20, 20))
        assert app.card is None
    finally:
        app.close()


def test_the_rules_name_the_faces_chips_rounds_and_only_the_variants_that_are_on():
    plain = " ".join(text for _, text in rules(GameConfig()))
    assert "Red or yellow: place" in plain and "Blue: on the first turn of a round" in plain
    assert "Wild: place the next barrel, then pick any sailor" in plain
    assert "Stack the 12 barrels" in plain and "one whole turn" in plain
    assert "3 rounds" in plain and "most chips" in plain and "on your turn, you give 1 chip back." in plain
    assert "whoever placed the last one gets 2 chips and everyone else gets 1" in plain
    assert "Younger sailors" not in plain and "Old Sea Dogs" not in plain
    every = " ".join(text for _, text in rules(GameConfig(barrels=9, half_turn=True, sea_dogs=True)))
    assert "Younger sailors (on): 9 barrels instead of 12 and the sailors turn only half a turn." in every
    assert "Stack the 9 barrels" in every and "The sailor turns half a turn" in every
    assert "you may give a chip back and pass" in every and "may not pass" in every and "get that chip" in every
    assert "you give 2 chips back" in every


def test_the_rules_and_the_first_tips_speak_a_familys_words():
    """No word of the program's insides, in either language: the pictures are named by what they show
    (the small picture from above, the big one from the side), a fall is a fall."""
    inside = {"en": ("top view", "side view", "slice", "slope", "degrees", "tilt", "crash", "uphill", "downhill",
                     "marker", "of the line"),
              "de": ("ansicht", "schneidet", "steilste", "grad", "bergauf", "bergab", "endmarke", "der reihe")}
    every = GameConfig(barrels=9, half_turn=True, sea_dogs=True)
    prompts = [(Prompt.ROLL, SimpleNamespace(placed=0)), (Prompt.ROLL, SimpleNamespace(placed=1)),
               (Prompt.PLAY_OR_PASS, None), (Prompt.PLACE, None), (Prompt.SAILOR, None)]
    for code, words in inside.items():
        language = Language(code)
        texts = [text for _, text in rules(every, language)]
        texts += [first_game_tip(prompt, state, hints=hints, language=language)[1]
                  for prompt, state in prompts for hints in (False, True)]
        assert len(texts) == 9 + 10
        for text in texts:
            for word in words:
                assert word not in text.lower(), (code, word, text)


def test_first_game_tips_each_once_and_not_in_the_next_game(make_app, params, scripted_referee):
    config = GameConfig(players=("Ann", "Ben"), barrels=9)
    app = make_app(lambda games: GameController(config, params, referee=scripted_referee(),
                                                chance=scripted_chance(LINE_9, ["red", "red", "blue"] * 9)))
    c = app.controller
    run_until(app, lambda: c.prompt() == "roll")
    app.step()
    assert app.tip[0] == "roll"
    box = app.tip_rect
    assert app.layout.scene.contains(box)
    assert near(app.surface.get_at((box.left + 1, box.centery)), palette.HIGHLIGHT, 20), "the tip's yellow frame"
    press(app, pygame.K_SPACE)
    run_until(app, lambda: c.prompt() == "place")
    app.step()
    assert app.tip[0] == "place"
    press(app, pygame.K_RETURN)
    run_until(app, lambda: c.prompt() == "roll")
    app.step()
    assert app.tip[0] == "blue", "the second roll explains what blue means from now on"
    press(app, pygame.K_SPACE)
    run_until(app, lambda: c.prompt() == "place")
    app.step()
    assert app.tip is None, "the place tip was shown once"
    press(app, pygame.K_n)
    press(app, pygame.K_y)
    run_until(app, lambda: app.controller.prompt() == "roll")
    app.step()
    assert app.tip is None, "tips are for the first game"


def test_the_die_is_cleared_when_the_next_turn_starts(make_app, params, scripted_referee):
    config = GameConfig(players=("Ann", "Ben"), barrels=9)
    app = make_app(lambda games: GameController(config, params, referee=scripted_referee(),
                                                chance=scripted_chance(LINE_9, ["red"] * 9)))
    c = app.controller
    run_until(app, lambda: c.prompt() == "roll")
    press(app, pygame.K_SPACE)
    run_until(app, lambda: c.prompt() == "place")
    die = app.layout.die
    face_point = (die.left + die.width * 17 // 100, die.centery)  # on the face, between its rim and its symbol
    assert c.die.shown == "red" and near(app.surface.get_at(face_point), palette.SAILOR_CAPS["red"])
    press(app, pygame.K_RETURN)
    run_until(app, lambda: c.prompt() == "roll")
    app.step()
    assert c.state.player == 1 and c.die.shown is None and c.die.face is None
    assert not near(app.surface.get_at(face_point), palette.SAILOR_CAPS["red"], 40)


def first_barrel_stands(app):
    """The first player places the round's first barrel (nobody may pass before it stands)."""
    c = app.controller
    run_until(app, lambda: c.prompt() == "roll")
    press(app, pygame.K_SPACE)
    run_until(app, lambda: c.prompt() == "place")
    press(app, pygame.K_RETURN)
    run_until(app, lambda: c.prompt() in ("sailor", "play_or_pass"))
    if c.prompt() == "sailor":
        press(app, pygame.K_1)
    run_until(app, lambda: c.prompt() == "play_or_pass")


def test_passing_says_it_costs_a_chip(make_app, params, scripted_referee):
    config = GameConfig(players=("Ann", "Ben"), sea_dogs=True)
    app = make_app(lambda games: GameController(config, params, referee=scripted_referee()))
    c = app.controller
    first_barrel_stands(app)
    assert "pass (P), which costs you 1 chip" in hud.prompt_text(FrameView.of(c))
    assert "chip" in hud.PASS_LABEL
    button = app.layout.pass_button
    assert near(app.surface.get_at((button.left + 6, button.centery)), palette.BUTTON, 40)


LONG = ("Annemarie-Josephine von Hohenzollern", "Bartholomew Ignatius Fitzgerald", "Cid",
        "Dorothea Wilhelmina Castellanos")


def test_four_long_names_fit_the_minimum_window_and_the_legend_stays(make_app, params, scripted_referee):
    assert compute_layout((500, 300)).size == MIN_SIZE, "smaller windows are laid out at the minimum"
    config = GameConfig(players=LONG, sea_dogs=True)
    for size in (MIN_SIZE, (1280, 800)):
        app = make_app(lambda games: GameController(config, params, referee=scripted_referee()), size=size)
        c = app.controller
        first_barrel_stands(app)
        app.step()
        assert app.legend == "legend", f"all {len(KEYS)} keys are listed with four players at {size}"
        assert c.short_names[0].endswith(palette.ELLIPSIS) and c.short_names[2] == "Cid"
        layout = app.layout
        row_h = hud._row_height(layout, 4)
        name_px = max(12, min(layout.font_px(26), round(row_h * 0.5)))
        for name in LONG:  # the fitted name never reaches the chip count
            label = palette.fit(name + " ", name_px, layout.players.width // 2, palette.INK)
            assert label.get_width() <= layout.players.width // 2
        lines = palette.wrap(hud.prompt_text(FrameView.of(c)), palette.font(layout.font_px(22)), layout.hint.width)
        assert len(lines) <= 4 and all(palette.font(layout.font_px(22)).size(line)[0] <= layout.hint.width
                                       for line in lines)


def test_the_legend_gives_way_to_a_pointer_at_the_help_card_when_there_is_no_room(make_app, params, scripted_referee):
    config = GameConfig(players=LONG)
    app = make_app(lambda games: GameController(config, params, referee=scripted_referee()), size=(1400, 560))
    app.step()
    assert app.legend in ("legend", "hint")
    surface = pygame.Surface(app.layout.size)
    layout = app.layout
    tiny = type(layout)(layout.size, layout.unit, layout.top_bar, layout.scene, layout.panel, layout.inset,
                        layout.die, layout.pass_button, layout.hint,
                        pygame.Rect(layout.players.x, layout.panel.bottom - 130, layout.players.width, 120))
    assert hud.draw_panel(surface, tiny, replace(FrameView.of(app.controller), prompt=None, pulse=0.0)) == "hint"


def test_the_end_screen_recaps_each_round(make_app, params, scripted_referee):
    config = GameConfig(players=("Ann", "Ben"), barrels=9)
    # round 1: Ann's second turn crashes; round 2 (Ben starts) completes on Ben's 5th turn;
    # round 3 (Ann starts): Ben's first turn crashes
    referee = scripted_referee(crash_at={3, 9 + 5})
    app = make_app(lambda games: GameController(config, params, referee=referee,
                                                chance=scripted_chance(LINE_9, ["red"] * 40)))
    c = app.controller
    while not c.state.is_terminal():
        run_until(app, lambda: c.prompt() in ("roll", "place") or c.state.is_terminal(), limit=4000)
        press(app, pygame.K_SPACE if c.prompt() == "roll" else pygame.K_RETURN)
    run_until(app, lambda: c.prompt() == "new_game")
    recaps = round_recaps(c.state.events())
    assert [(r.round, r.completed, r.player) for r in recaps] == [(1, False, 0), (2, True, 1), (3, False, 1)]
    assert describe(recaps[0], c.short_names) == "Ann crashed it at 2/9"
    assert describe(recaps[1], c.short_names) == "Ben completed 9/9"
    assert describe(recaps[2], c.short_names) == "Ben crashed it at 1/9"
    assert recaps[0].change == (-1, 0) and recaps[1].change == (1, 2) and recaps[-1].chips_after == tuple(c.state.chips)
    # the end card shows a crash row (red) and a completion row (green)
    card = end_screen._end_card(app.layout, 2)
    colours = [tuple(app.surface.get_at((x, y)))[:3] for x in range(card.left, card.centerx, 2)
               for y in range(card.top, card.bottom, 2)]
    assert any(near(colour, palette.KABOOM, 20) for colour in colours)
    assert any(near(colour, palette.GOOD, 20) for colour in colours)
    press(app, pygame.K_n)  # game over: N starts again at once, no question
    assert app.games == 1 and app.card is None
