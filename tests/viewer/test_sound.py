"""Sound: effects made with numpy, played on the game's cues, M / --mute, and silence without a device.

SDL's ``disk`` audio driver writes what the mixer plays to a file: a headless game of two bots
must leave sound in it, and nothing when muted."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pygame

from kipp.players.models import make_bot
from kipp.rules.config import GameConfig
from viewer.controller import GameController
from viewer.sound import PEAK, SIZE_PITCH_HZ, Cue, CueEvent, SoundBoard, synthesise


def _recorded(tmp_path, *extra) -> np.ndarray:
    tmp_path.mkdir()
    out = tmp_path / "audio.raw"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": str(out),
           "XDG_CONFIG_HOME": str(tmp_path)}
    result = subprocess.run([sys.executable, "-m", "kipp", "play", "--players", "bot,bot", "--seed", "1",
                             "--max-frames", "400", *extra], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return np.fromfile(out, dtype=np.int16) if out.exists() else np.zeros(0, dtype=np.int16)


def test_a_game_makes_sound_and_mute_silences_it(tmp_path):
    heard = _recorded(tmp_path / "on")
    assert heard.size > 0 and np.abs(heard.astype(np.int32)).max() > 3000, "the die and the barrels were heard"
    muted = _recorded(tmp_path / "off", "--mute")
    assert not np.any(muted), "--mute: silence"


def test_sounds_are_made_for_every_cue_and_barrels_knock_lower_the_larger_they_are():
    rate = 22050
    sounds = synthesise(rate)
    for cue in Cue:
        assert any(key[0] is cue for key in sounds), cue
    for samples in sounds.values():
        assert 0.05 * rate < samples.size < 3 * rate and np.abs(samples).max() <= PEAK + 1e-9

    def pitch(samples):
        spectrum = np.abs(np.fft.rfft(samples * np.hanning(samples.size)))
        spectrum[: int(50 * samples.size / rate)] = 0  # below 50 Hz: no knock
        return np.argmax(spectrum) * rate / samples.size

    heard = {size: pitch(sounds[(Cue.SET_DOWN, size)]) for size in SIZE_PITCH_HZ}
    assert heard["large"] < heard["medium"] < heard["small"]
    for size, expected in SIZE_PITCH_HZ.items():
        assert abs(heard[size] - expected) < 10


def test_without_an_audio_device_the_game_is_silent_without_error(monkeypatch):
    pygame.mixer.quit()
    monkeypatch.setenv("SDL_AUDIODRIVER", "no-such-audio-device")
    board = SoundBoard()
    assert not board.available
    board.play(CueEvent(Cue.CRASH))
    board.toggle_mute()
    board.close()
    assert board.played == []


def test_the_game_cues_its_sounds_and_m_mutes(make_app, params):
    config = GameConfig(players=("A", "B"))
    bots = {i: make_bot("casual", name, params) for i, name in enumerate(config.players)}
    app = make_app(lambda n: GameController(config, params, seed=1, bots=bots))
    while Cue.TURN not in app.sound.played:
        app.step()
        assert app.frames < 2000
    assert app.sound.played[:3] == [Cue.ROLL, Cue.SET_DOWN, Cue.TURN]
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_m, mod=0, unicode="m", scancode=0))
    app.step()
    assert app.sound.muted
    count = len(app.sound.played)
    for _ in range(600):
        app.step()
    assert len(app.sound.played) == count
