"""An unusable file of remembered start-screen choices is set aside (renamed ``start.json.bad-<time>``) with a
one-line notice, and the start screen opens with the defaults: a float for the barrels, a NUL or half a
character (a lone surrogate) in a name, nesting thousands deep, a FIFO or a folder in the file's place."""

from __future__ import annotations

import os
import threading

import pytest

from viewer.setup import GameSetup, Seat, SeatKind, load_setup, save_setup, setup_path


@pytest.fixture(autouse=True)
def own_config_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("HOME", str(tmp_path))


SAVED = GameSetup(seats=(Seat(SeatKind.PERSON, "Ann"), Seat(SeatKind.BOT, model="skilled")), barrels=9)


BAD_FILES = {
    "barrels-float": SAVED.to_json().replace('"barrels": 9', '"barrels": 9.0'),
    "barrels-true": SAVED.to_json().replace('"barrels": 9', '"barrels": true'),
    "name-nul": SAVED.to_json().replace('"Ann"', '"A\\u0000nn"'),
    "name-lone-surrogate": SAVED.to_json().replace('"Ann"', '"A\\ud800nn"'),
    "deep": '{"seats": ' + "[" * 5000 + "]" * 5000 + "}",
    "huge-number": SAVED.to_json().replace('"barrels": 9', '"barrels": ' + "9" * 5000),
    "not-json": "{not json",
}


def _run(load=load_setup):
    notices: list[str] = []
    result: list[GameSetup] = []
    worker = threading.Thread(target=lambda: result.append(load(notice=notices.append)), daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert not worker.is_alive(), "reading the remembered choices hangs"
    return result[0], notices


def _aside(path):
    return sorted(p.name for p in path.parent.iterdir() if p.name.startswith(f"{path.name}.bad-"))


@pytest.mark.parametrize("name", list(BAD_FILES))
def test_an_unusable_remembered_setup_is_set_aside_with_a_notice(name):
    path = setup_path()
    path.parent.mkdir(parents=True)
    path.write_text(BAD_FILES[name], encoding="utf-8")
    setup, notices = _run()
    assert setup == GameSetup()
    assert len(notices) == 1 and "\n" not in notices[0] and "set aside" in notices[0], notices
    assert not path.exists() and len(_aside(path)) == 1
    assert (path.parent / _aside(path)[0]).read_text(encoding="utf-8") == BAD_FILES[name]  # kept to look at
    save_setup(SAVED)
    assert _run() == (SAVED, [])  # the next launch reads its own file again


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_fifo_or_a_folder_in_the_place_of_the_remembered_setup_is_set_aside(kind):
    path = setup_path()
    path.parent.mkdir(parents=True)
    os.mkfifo(path) if kind == "fifo" else path.mkdir()
    setup, notices = _run()
    assert setup == GameSetup() and len(notices) == 1 and "set aside" in notices[0]
    assert not os.path.lexists(path) and len(_aside(path)) == 1


def test_a_good_remembered_setup_is_read_without_a_notice():
    save_setup(SAVED)
    assert _run() == (SAVED, [])
