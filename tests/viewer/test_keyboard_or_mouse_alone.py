"""A whole game, start screen to end screen, by the keyboard alone and by the mouse alone.

Each test posts real pygame events of one kind only (key presses, or mouse moves and left
clicks) to a headless window and fails when an action cannot be done that way: every field
of the start screen and Start, the how-to-play card, the balance hint, the sound, a new game
and quit (each asked and answered no), rolling, passing in Old Sea Dogs, aiming, letting go
with the confirm step (and aiming again), choosing the sailor of a wild roll, and after the
game the start screen, back, and quit.

The game is one person's in Old Sea Dogs with ``--confirm``; its die is seeded (seed
:data:`SEED` rolls wild in round 1 and blue, no barrel, later) and a scripted referee crashes
the tower at the 4th, 8th and 12th decision, so that the three rounds are short.
"""

from __future__ import annotations

import pygame
import pytest

from kipp.rules.actions import ChooseSailor, Pass
from sim.params import SCREWS
from viewer.controller import GameController
from viewer.end_screen import end_screen_button
from viewer.help import HelpCard
from viewer.keys import Act
from viewer.menu import MenuCard, aim_again_button, menu_button
from viewer.question import Question, QuestionCard, confirm_buttons
from viewer.setup import GameSetup
from viewer.start import LEAVE_BUTTON, START_BUTTON, StartScreen

SEED = 5
CRASHES = {4, 8, 12}


@pytest.fixture(autouse=True)
def own_config_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("HOME", str(tmp_path))


@pytest.fixture
def app(make_app, params, scripted_referee):
    def games(setup: GameSetup):
        config = setup.config()
        return lambda n: GameController(config, params, seed=SEED + n, bots=setup.bots(params),
                                        referee=scripted_referee(CRASHES), confirm=setup.confirm)
    setup = GameSetup()  # you and a casual bot, no variants
    app = make_app(games(setup), games=games, setup=setup, start_screen=True, tips=False)
    app.step()
    return app


def wait(app, condition, limit=3000):
    for _ in range(limit):
        if condition():
            return
        app.step()
    raise AssertionError(f"not reached in {limit} frames: {app.controller.state}, mode {app.controller.mode}")


class Keyboard:
    """Key presses only."""

    SAILOR_KEYS = {"red": pygame.K_1, "yellow": pygame.K_2, "blue": pygame.K_3}

    def __init__(self, app) -> None:
        self.app = app

    def key(self, code: int, char: str = "", mod: int = 0) -> None:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code, mod=mod, unicode=char, scancode=0))
        self.app.step()

    def roll(self):
        self.key(pygame.K_SPACE)

    def pass_turn(self):
        self.key(pygame.K_p)

    def aim(self):
        self.key(pygame.K_RIGHT)

    def let_go(self):
        self.key(pygame.K_RETURN, "\r")

    def aim_again(self):
        self.key(pygame.K_BACKSPACE)

    def sailor(self, name: str):
        self.key(self.SAILOR_KEYS[name], str(SCREWS.index(name) + 1))

    def help(self):
        self.key(pygame.K_h, "h")

    def close_help(self):
        self.key(pygame.K_h, "h")

    def hint(self):
        self.key(pygame.K_b, "b")

    def sound(self):
        self.key(pygame.K_m, "m")

    def new_game(self):
        self.key(pygame.K_n, "n")

    def quit(self):
        self.key(pygame.K_ESCAPE)

    def no(self):
        self.key(pygame.K_n, "n")

    def leave_start_screen(self):
        self.key(pygame.K_ESCAPE)


class Mouse:
    """Mouse moves and left clicks only."""

    def __init__(self, app) -> None:
        self.app = app

    def move(self, pos) -> None:
        pos = (round(pos[0]), round(pos[1]))
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
        self.app.step()

    def click(self, pos) -> None:
        pos = (round(pos[0]), round(pos[1]))
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
        self.app.step()

    def menu(self, act: Act) -> None:
        self.click(menu_button(self.app.layout).center)
        card = self.app.card
        assert isinstance(card, MenuCard), "the Menu button opens the menu"
        self.click(card.buttons(self.app.layout)[[e.act for e in card.entries].index(act)].center)

    def _over_the_deck(self, along_m: float):
        c = self.app.controller
        return self.app.scene.camera.to_screen(along_m, c.hanging().y_m)

    def roll(self):
        self.click(self.app.layout.die.center)

    def pass_turn(self):
        self.click(self.app.layout.pass_button.center)

    def aim(self):
        self.move(self._over_the_deck(0.002))

    def let_go(self):
        c = self.app.controller
        self.click(self._over_the_deck(c._aim[0]) if c.held else self._over_the_deck(0.001))

    def aim_again(self):
        self.click(aim_again_button(self.app.layout).center)

    def sailor(self, name: str):
        self.click(self.app.inset.to_screen(*self.app.controller.params.ship.screw_xy(name)))

    def help(self):
        self.menu(Act.HELP)

    def close_help(self):
        self.click(self.app.layout.scene.center)

    def hint(self):
        self.menu(Act.HINTS)

    def sound(self):
        self.menu(Act.MUTE)

    def new_game(self):
        if self.app.controller.state.is_terminal():
            self.click(end_screen_button(self.app.layout, self.app.controller.config.n_players).center)
        else:
            self.menu(Act.NEW_GAME)

    def quit(self):
        self.menu(Act.QUIT)

    def no(self):
        self.click(confirm_buttons(self.app.layout)[1].center)

    def leave_start_screen(self):
        self.click(self.app.start.rects[LEAVE_BUTTON].center)


def play_the_game(app, hand) -> None:
    """From the first prompt to the end screen, every action of a game by ``hand`` alone."""
    c = app.controller
    wait(app, lambda: c.prompt() == "roll")

    hand.help()
    assert isinstance(app.card, HelpCard), "how to play"
    hand.close_help()
    assert app.card is None
    hand.hint()
    assert app.hints, "the balance hint on"
    app.step()
    hand.hint()
    assert not app.hints, "and off"
    hand.sound()
    assert app.sound.muted, "the sound off"
    hand.sound()
    assert not app.sound.muted, "and on"
    for ask, question in ((hand.new_game, Question.NEW_GAME), (hand.quit, Question.QUIT)):
        ask()
        assert isinstance(app.card, QuestionCard) and app.card.question is question, f"{question} asks"
        hand.no()
        assert app.card is None and app.controller is c and app.running, f"{question}: no"

    done = {"pass": 0, "wild": 0, "aim again": 0, "placed": 0}
    while not (c.state.is_terminal() and c.prompt() == "new_game"):
        prompt, history = c.prompt(), len(c.state.history())
        if prompt == "play_or_pass" and not done["pass"]:
            hand.pass_turn()
            assert c.state.history()[-1] == Pass(), "pass"
            done["pass"] += 1
        elif prompt in ("roll", "play_or_pass"):
            hand.roll()
            assert c.mode == "rolling", "roll"
        elif prompt == "place":
            if not done["aim again"]:
                before = c.aim_xy()
                hand.aim()
                assert c.aim_xy() != before, "aim"
                hand.let_go()
                assert c.held and c.mode == "idle", "the first let-go holds the barrel (confirm)"
                hand.aim_again()
                assert not c.held, "aim again"
                done["aim again"] += 1
            hand.let_go()
            assert c.held
            hand.let_go()
            assert c.mode == "lowering", "let go"
            done["placed"] += 1
        elif prompt == "sailor":
            hand.sailor("yellow")
            assert c.state.history()[-1] == ChooseSailor("yellow") and len(c.state.history()) == history + 1
            done["wild"] += 1
        else:
            app.step()
    assert done["pass"] == 1 and done["wild"] >= 1 and done["placed"] >= 3, done
    assert any(e["event"] == "turn" and e["sailor"] == "blue" for e in c.state.events()), \
        "a blue roll turned its sailor without a barrel"


def finish(app, hand) -> None:
    """After the game: the start screen, back to the end screen, quit."""
    hand.new_game()
    assert isinstance(app.card, StartScreen) and app.start.after_game, "after the game: the start screen"
    hand.leave_start_screen()
    assert app.card is None and app.running and app.controller.prompt() == "new_game", "back to the end screen"
    hand.quit()
    assert not app.running, "quit"


def test_a_whole_game_by_the_keyboard_alone(app):
    keys = Keyboard(app)
    start = app.start
    assert start.focus == ("kind", 0)
    keys.key(pygame.K_TAB)  # your name
    for _ in range(3):
        keys.key(pygame.K_BACKSPACE)
    for char in "Ann":
        keys.key(pygame.key.key_code(char), char)
    keys.key(pygame.K_TAB)  # seat 2: the bot
    keys.key(pygame.K_TAB)  # its model
    keys.key(pygame.K_RIGHT)
    assert start.setup.seats[1].model == "skilled"
    keys.key(pygame.K_LEFT)
    assert start.setup.seats[1].model == "casual"
    keys.key(pygame.K_TAB, mod=pygame.KMOD_SHIFT)  # back to its kind: bot -> nobody
    keys.key(pygame.K_SPACE)
    for toggle in ("nine", "half_turn", "sea_dogs", "hints", "confirm"):
        while start.focus != ("toggle", toggle):
            keys.key(pygame.K_DOWN)
        keys.key(pygame.K_SPACE)
        if toggle in ("nine", "half_turn", "hints"):  # each field changes, and back
            keys.key(pygame.K_SPACE)
    keys.key(pygame.K_RETURN, "\r")
    assert app.card is None, "Enter starts"
    config = app.controller.config
    assert config.players == ("Ann",) and config.sea_dogs and app.controller.confirm and config.barrels == 12
    play_the_game(app, keys)
    finish(app, keys)


def test_a_whole_game_by_the_mouse_alone(app):
    mouse = Mouse(app)
    start = app.start
    model = start.rects[("model", 1)]
    mouse.click((model.right - 3, model.centery))  # its right arrow
    assert start.setup.seats[1].model == "skilled"
    mouse.click((model.x + 3, model.centery))  # its left arrow
    assert start.setup.seats[1].model == "casual"
    mouse.click(start.rects[("kind", 1)].center)  # bot -> nobody
    for toggle in ("nine", "half_turn", "sea_dogs", "hints", "confirm"):
        mouse.click(start.rects[("toggle", toggle)].center)
        if toggle in ("nine", "half_turn", "hints"):
            mouse.click(start.rects[("toggle", toggle)].center)
    mouse.click(start.rects[("name", 0)].center)
    assert start.focus == ("name", 0), "a click puts the cursor in a name (typing it needs keys)"
    mouse.click(start.rects[START_BUTTON].center)
    assert app.card is None, "Start"
    config = app.controller.config
    assert config.players == ("You",) and config.sea_dogs and app.controller.confirm and config.barrels == 12
    play_the_game(app, mouse)
    finish(app, mouse)


@pytest.mark.parametrize("hand", [Keyboard, Mouse])
def test_the_start_screen_quits_at_the_launch(app, hand):
    hand(app).leave_start_screen()
    assert not app.running


CLICKED_IN_THE_GAME = {Act.ROLL: "the die", Act.PASS: "the Pass button", Act.AIM: "the mouse over the scene",
                       Act.RELEASE: "a click in the scene", Act.SAILOR: "a sailor in the top view",
                       Act.AIM_AGAIN: "the Aim again button"}
"""The game's acts a click does where the game is (the whole games above do each of them)."""
KEYS_ONLY_IN_A_REPLAY = {Act.STEP, Act.FASTER, Act.SLOWER, Act.SPEED}
"""A replay's acts that have no click (yet): one step while paused, and the speed. (A replay is
watched, not played; its pause, restart, help, sound and quit are in its menu.)"""


@pytest.mark.parametrize("replay", [False, True], ids=["game", "replay"])
def test_every_key_of_the_key_table_has_a_mouse_way(replay):
    """A new key row without a click fails here: each act is a menu entry or is clicked in the game."""
    from viewer.keys import KEYS, REPLAY_KEYS
    from viewer.menu import GAME_MENU, REPLAY_MENU

    table, menu = (REPLAY_KEYS, REPLAY_MENU) if replay else (KEYS, GAME_MENU)
    clicked = KEYS_ONLY_IN_A_REPLAY if replay else set(CLICKED_IN_THE_GAME)
    acts = {press.act for row in table for press in row.presses}
    assert not acts - {entry.act for entry in menu} - clicked, "acts with a key and no click"


@pytest.mark.parametrize("replay", [False, True], ids=["game", "replay"])
def test_the_menu_answers_its_entries_keys_and_esc_closes_it(replay):
    from viewer.keys import KEYS, REPLAY_KEYS

    card, table = MenuCard(replay=replay), REPLAY_KEYS if replay else KEYS
    assert card.key(pygame.K_ESCAPE) is Act.CLOSE, "Esc closes the menu (it does not quit)"
    for entry, label in zip(card.entries, card.labels()):
        press = next(p for row in table for p in row.presses if p.act is entry.act)
        if pygame.K_ESCAPE in press.codes:
            continue  # Quit: Esc in the game, but in the menu Esc goes back to the game
        assert card.key(press.codes[0], "".join(press.chars[:1])) is entry.act, label
    assert card.key(pygame.K_SPACE) is (Act.PAUSE if replay else None), "a key of no entry does nothing"
    assert "(Esc)" in card.labels()[-1] and "(H or ?)" in card.labels()[[e.act for e in card.entries].index(Act.HELP)]
