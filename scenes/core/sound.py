"""Sound effects: a small manager that never lets audio break the game.

The effects are WAV files made by ``tools/make_sounds.py`` (``assets/sounds``).
The mixer is started on the first sound actually played, not before. No audio
device, ``SDL_AUDIODRIVER=dummy``, or any mixer error means silence, never a
crash; a missing or damaged file silences that one effect, with one warning in
the log.

    sound = Sound(enabled=settings.sound, volume=0.8)
    sound.play("place")
    for name in sound_for_events(record.events):
        sound.play(name)
"""
from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

import pygame

from ..store.files import shipped


@contextlib.contextmanager
def quiet_native_stderr():
    """Native libraries' chatter (ALSA prints eight "cannot find card" lines when
    there is no sound card) kept off the terminal while the mixer starts: the
    game says "no audio" once, in the log, instead."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):
        yield
        return
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)

EFFECTS = ("deal", "place", "flip", "remove", "capture", "invalid", "win", "loss")
MAX_SOUND_BYTES = 4 * 1024 * 1024    # ours are under 100 KB


def sounds_dir() -> Path:
    """Where the WAVs are: ``assets/sounds`` next to the ``scenes`` package (a
    source checkout or an editable install), else ``scenes/assets/sounds``
    inside the installed package (a wheel; see pyproject's package data).
    ``ROUNDTABLE_SOUNDS`` overrides both."""
    override = os.environ.get("ROUNDTABLE_SOUNDS")
    if override:
        return Path(override)
    return shipped("assets", "sounds")


class Sound:
    """``play(name)`` one of :data:`EFFECTS`; ``set_volume(0..1)``, ``set_enabled``.

    Everything is lazy: the mixer starts, and each file loads, when first needed.
    """

    def __init__(self, enabled: bool = True, volume: float = 0.8,
                 folder: Path | str | None = None) -> None:
        self.enabled = bool(enabled)
        self.volume = _clamp(volume)
        self.folder = Path(folder) if folder is not None else None
        self._mixer: bool | None = None          # None: not tried yet
        self._sounds: dict[str, object | None] = {}  # name → pygame Sound, or None: silent
        self.warnings: list[str] = []            # what was logged (tests, a debug panel)

    # --- settings -------------------------------------------------------------------
    def set_volume(self, volume: float) -> None:
        self.volume = _clamp(volume)
        for snd in self._sounds.values():
            if snd is not None:
                try:
                    snd.set_volume(self.volume)
                except pygame.error:
                    pass

    def set_enabled(self, enabled: bool) -> None:
        self.enabled = bool(enabled)
        if not self.enabled and self._mixer:
            try:
                pygame.mixer.stop()
            except pygame.error:
                pass

    @property
    def available(self) -> bool:
        """True when a mixer is running (after the first play); False: silence."""
        return bool(self._mixer)

    # --- playing ----------------------------------------------------------------------
    def play(self, name: str) -> bool:
        """Play an effect; True when it was started. Never raises."""
        if not self.enabled or self.volume <= 0:
            return False
        if not self._ensure_mixer():
            return False
        snd = self._load(name)
        if snd is None:
            return False
        try:
            snd.play()
        except pygame.error as exc:  # pragma: no cover - a device vanishing mid-game
            self._warn(f"sound {name!r} could not play: {exc}")
            return False
        return True

    def play_all(self, names) -> None:
        for name in names:
            self.play(name)

    def start(self) -> None:
        """Start the mixer now, if sound is on (the menu does, once it is on
        screen): the first sound of a game, which plays as it opens, then does
        not wait for the audio device (some ms). Never raises."""
        if self.enabled and self.volume > 0:
            self._ensure_mixer()

    def preload(self) -> None:
        """Load every effect now (e.g. behind a loading screen); never raises."""
        if self.enabled and self._ensure_mixer():
            for name in EFFECTS:
                self._load(name)

    def _ensure_mixer(self) -> bool:
        if self._mixer is not None:
            return self._mixer
        self._mixer = False
        try:
            if not pygame.mixer.get_init():
                with quiet_native_stderr():
                    pygame.mixer.init(frequency=44100, size=-16, channels=2, buffer=512)
            self._mixer = bool(pygame.mixer.get_init())
            if self._mixer:
                pygame.mixer.set_num_channels(max(16, pygame.mixer.get_num_channels()))
        except (pygame.error, NotImplementedError, OSError) as exc:
            self._warn(f"no audio, playing silently: {exc}")
            self._mixer = False
        return self._mixer

    def _load(self, name: str):
        if name in self._sounds:
            return self._sounds[name]
        snd = None
        path = (self.folder or sounds_dir()) / f"{name}.wav"
        try:
            if path.is_file() and path.stat().st_size > MAX_SOUND_BYTES:
                # ROUNDTABLE_SOUNDS may point anywhere: a huge file is not read whole.
                raise ValueError(f"larger than {MAX_SOUND_BYTES:,} bytes")
            snd = pygame.mixer.Sound(str(path)) if path.is_file() else None   # no FIFO or device
            if snd is None:
                self._warn(f"sound {name!r} is missing ({path}); it stays silent")
            elif snd.get_length() <= 0:
                self._warn(f"sound {name!r} is empty ({path}); it stays silent")
                snd = None
            else:
                snd.set_volume(self.volume)
        except (pygame.error, OSError, ValueError, EOFError) as exc:
            self._warn(f"sound {name!r} could not be read ({path}: {exc}); it stays silent")
            snd = None
        self._sounds[name] = snd
        return snd

    def _warn(self, message: str) -> None:
        self.warnings.append(message)
        import logging  # start-up: the logging module loads with the first warning, not the app
        logging.getLogger(__name__).warning(message)


def _clamp(volume) -> float:
    try:
        v = float(volume)
    except (TypeError, ValueError):
        return 0.8
    return 0.0 if v != v else max(0.0, min(1.0, v))


# --- engine events → effects -----------------------------------------------------------

def sound_for_events(events) -> list[str]:
    """The effects for one move's event records, each name once, in the order
    they should start (the caller plays them all; the mixer mixes them).

    * board game: a capture is a ``capture`` (the knock says it all), any other
      move a ``place``;
    * patience: a card leaving the table is ``remove``; cards coming from the
      stock onto the table are a ``deal``; turning a card over (the stock onto
      the waste or the chooser, a face-down card coming up) is a ``flip``;
      any other card moved is a ``place``.
    """
    # start-up: the app loads this module before the menu; the engine's event
    # types load with the first game.
    from game.base import CardFlipped, CardMoved, CardRemoved
    try:
        from game.camelot.board import PieceCaptured, PieceMoved  # start-up: as above
    except ImportError:  # pragma: no cover - the engine always has them
        PieceCaptured = PieceMoved = ()

    names: list[str] = []

    def add(name: str) -> None:
        if name not in names:
            names.append(name)

    events = list(events or ())
    if PieceCaptured and any(isinstance(e, PieceCaptured) for e in events):
        return ["capture"]
    for e in events:
        if PieceMoved and isinstance(e, PieceMoved):
            add("place")
        elif isinstance(e, CardRemoved):
            add("remove")
        elif isinstance(e, CardFlipped):
            add("flip")
        elif isinstance(e, CardMoved):
            source, target = str(e.source), str(e.target)
            if source == "stock" and target in ("waste", "chooser"):
                add("flip")
            elif target == "stock":
                add("flip")      # a declined card goes back face down
            elif source == "stock":
                add("deal")
            else:
                add("place")
    return names


__all__ = ["EFFECTS", "Sound", "sound_for_events", "sounds_dir"]
