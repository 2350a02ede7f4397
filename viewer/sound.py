"""The game's sounds, made with numpy when the window opens (no sound files).

Five short effects (:class:`Cue`): the die rattling, a barrel set down (a wooden knock,
pitched by the barrel's size: the larger, the lower), the deck creaking while a sailor turns,
the crash (a rumble and tumbling knocks) and a small fanfare for a completed tower. The
controller says when (:class:`CueEvent`, :meth:`viewer.controller.GameController.take_cues`);
a :class:`SoundBoard` plays them. M mutes (``kipp play --mute`` starts muted). A machine
without an audio device plays silently: the board then has no mixer and every call does
nothing, without an error.

Every sound is synthesised from a fixed seed, so it is the same at every launch.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np

RATE_HZ = 22050
"""Sample rate asked of the mixer (it may open at another; the sounds are made at the one it has)."""
PEAK = 0.45
"""Loudest sample as a share of full scale (several sounds may overlap)."""
SIZE_PITCH_HZ = {"large": 150.0, "medium": 200.0, "small": 265.0}
"""Base pitch of a barrel's knock by size; a size not listed knocks at the medium pitch."""


CREAK_S = 2.0
"""Length of the creak made; a turn (1 s per revolution by default) plays its own share of it."""


class Cue(enum.Enum):
    ROLL = "roll"
    SET_DOWN = "set_down"
    TURN = "turn"
    CRASH = "crash"
    FANFARE = "fanfare"


@dataclass(frozen=True)
class CueEvent:
    """A sound the game asks for: ``size`` for a barrel set down, ``seconds`` for a turn's creak."""

    cue: Cue
    size: str | None = None
    seconds: float | None = None


def _envelope(n: int, attack_s: float, decay_s: float, rate: int) -> np.ndarray:
    t = np.arange(n) / rate
    return np.minimum(1.0, t / max(attack_s, 1e-4)) * np.exp(-t / decay_s)


def knock(pitch_hz: float, rate: int, rng: np.random.Generator) -> np.ndarray:
    """A wooden knock: two damped partials and a click of noise, 0.25 s."""
    n = int(0.25 * rate)
    t = np.arange(n) / rate
    tone = np.sin(2 * np.pi * pitch_hz * t) + 0.5 * np.sin(2 * np.pi * pitch_hz * 2.76 * t) * np.exp(-t / 0.02)
    click = rng.standard_normal(n) * np.exp(-t / 0.004)
    return tone * _envelope(n, 0.001, 0.05, rate) + 0.4 * click


def die_rattle(rate: int, rng: np.random.Generator) -> np.ndarray:
    """A die tumbling: a dozen clicks closer together as it settles, 0.7 s."""
    n = int(0.7 * rate)
    out = np.zeros(n)
    times = np.cumsum(rng.uniform(0.03, 0.08, 14))
    times = times[times < 0.62]
    for k, start in enumerate(times):
        i = int(start * rate)
        m = min(n - i, int(0.03 * rate))
        t = np.arange(m) / rate
        pitch = rng.uniform(1800, 3200)
        loud = 1.0 - 0.5 * k / len(times)
        out[i:i + m] += loud * (np.sin(2 * np.pi * pitch * t) * 0.6 + rng.standard_normal(m) * 0.4) * np.exp(-t / 0.006)
    return out


def creak(seconds: float, rate: int, rng: np.random.Generator) -> np.ndarray:
    """Wood creaking under a turning screw: a low buzz whose pitch wanders, in grains, ``seconds`` long."""
    n = max(1, int(seconds * rate))
    t = np.arange(n) / rate
    pitch = 70.0 + 25.0 * np.sin(2 * np.pi * 1.3 * t) + 8.0 * np.sin(2 * np.pi * 5.1 * t)
    phase = 2 * np.pi * np.cumsum(pitch) / rate
    buzz = np.sign(np.sin(phase)) * 0.5 + np.sin(2 * phase) * 0.3
    grains = np.clip(np.convolve(rng.random(n) > 0.9992, np.ones(int(0.05 * rate)), mode="same"), 0, 1)
    fade = np.minimum(1.0, np.minimum(t, t[-1] - t) / 0.05)
    return buzz * (0.35 + 0.65 * grains) * fade


def crash(rate: int, rng: np.random.Generator) -> np.ndarray:
    """A crash: a falling rumble of noise and tumbling knocks, 1.4 s."""
    n = int(1.4 * rate)
    t = np.arange(n) / rate
    rumble = np.convolve(rng.standard_normal(n), np.ones(40) / 40, mode="same") * 4.0 * _envelope(n, 0.01, 0.45, rate)
    out = rumble
    for start in (0.0, 0.12, 0.21, 0.37, 0.52, 0.7):
        piece = knock(rng.uniform(110, 300), rate, rng)
        i = int(start * rate)
        m = min(len(piece), n - i)
        out[i:i + m] += piece[:m] * (1.0 - start)
    return out * np.minimum(1.0, (t[-1] - t) / 0.1)


def fanfare(rate: int) -> np.ndarray:
    """A small fanfare: C E G and a long high C on a bright square-ish tone, 1.3 s."""
    notes = ((523.25, 0.16), (659.25, 0.16), (783.99, 0.16), (1046.5, 0.8))
    pieces = []
    for pitch, length in notes:
        n = int(length * rate)
        t = np.arange(n) / rate
        tone = sum(np.sin(2 * np.pi * pitch * k * t) / k for k in (1, 3, 5))
        pieces.append(tone * _envelope(n, 0.01, length * 0.6, rate))
    return np.concatenate(pieces)


def _normalised(samples: np.ndarray) -> np.ndarray:
    peak = float(np.max(np.abs(samples))) or 1.0
    return samples * (PEAK / peak)


def synthesise(rate: int, seed: int = 26) -> dict[tuple, np.ndarray]:
    """Every sound at ``rate`` Hz, mono floats in [-PEAK, PEAK], keyed by (cue, size) for set-downs
    and (cue, None) for the rest (the creak lasts :data:`CREAK_S`; a turn plays as much as it needs)."""
    rng = np.random.default_rng(seed)
    sounds = {(Cue.ROLL, None): die_rattle(rate, rng), (Cue.TURN, None): creak(CREAK_S, rate, rng),
              (Cue.CRASH, None): crash(rate, rng), (Cue.FANFARE, None): fanfare(rate)}
    for size, pitch in SIZE_PITCH_HZ.items():
        sounds[(Cue.SET_DOWN, size)] = knock(pitch, rate, rng)
    return {key: _normalised(value) for key, value in sounds.items()}


class SoundBoard:
    """Plays the game's cues on pygame's mixer; silent (and harmless) without an audio device."""

    def __init__(self, *, muted: bool = False) -> None:
        self.muted = muted
        self.played: list[Cue] = []
        """Every cue played (not while muted), in order: what the game has made heard."""
        self._sounds: dict[tuple, object] = {}
        import pygame

        from viewer.quiet import quiet_stderr

        try:
            with quiet_stderr():  # ALSA lists what it did not find on stderr
                if not pygame.mixer.get_init():
                    pygame.mixer.init(frequency=RATE_HZ, size=-16, channels=1, buffer=512)
        except pygame.error:
            return  # no audio device: silent
        rate, size, channels = pygame.mixer.get_init()
        if size != -16:  # a mixer opened before in another sample format: stay silent rather than squeal
            return
        for key, samples in synthesise(rate).items():
            pcm = (samples * (2 ** 15 - 1)).astype(np.int16)
            if channels > 1:
                pcm = np.repeat(pcm[:, None], channels, axis=1)
            self._sounds[key] = pygame.sndarray.make_sound(np.ascontiguousarray(pcm))

    @property
    def available(self) -> bool:
        """Is there a device to play on?"""
        return bool(self._sounds)

    def toggle_mute(self) -> None:
        import pygame

        self.muted = not self.muted
        if self.muted and self.available:
            pygame.mixer.stop()

    def play(self, event: CueEvent) -> None:
        if self.muted or not self.available:
            return
        sound = self._sounds.get((event.cue, event.size if event.cue is Cue.SET_DOWN else None))
        if sound is None and event.cue is Cue.SET_DOWN:
            sound = self._sounds.get((Cue.SET_DOWN, "medium"))
        if sound is None:
            return
        if event.seconds is not None:
            sound.play(maxtime=max(1, int(event.seconds * 1000)))
        else:
            sound.play()
        self.played.append(event.cue)

    def close(self) -> None:
        import pygame

        if pygame.mixer.get_init():
            pygame.mixer.quit()
