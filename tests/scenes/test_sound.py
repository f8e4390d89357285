"""Sound: silence instead of crashes, the generated effects, events → effect names."""
from __future__ import annotations

import subprocess
import sys
import wave
from pathlib import Path

import pytest

from game.base import CardFlipped, CardMoved, CardRemoved
from game.camelot.board import PieceCaptured, PieceMoved
from scenes.core.sound import EFFECTS, Sound, sound_for_events, sounds_dir

ISSUE_EFFECTS = ["deal", "place", "flip", "remove", "capture", "invalid", "win", "loss"]


def test_every_effect_named_in_the_issue_is_a_valid_wav():
    folder = sounds_dir()
    assert set(ISSUE_EFFECTS) <= set(EFFECTS)
    total = 0
    for name in ISSUE_EFFECTS:
        path = folder / f"{name}.wav"
        assert path.is_file(), path
        with wave.open(str(path), "rb") as f:
            assert (f.getnchannels(), f.getsampwidth(), f.getframerate()) == (1, 2, 44100)
            seconds = f.getnframes() / f.getframerate()
            frames = f.readframes(f.getnframes())
        assert 0.05 <= seconds <= 1.2, (name, seconds)
        samples = memoryview(frames).cast("h")
        peak = max(abs(v) for v in samples)
        assert 0.05 * 32768 < peak < 0.6 * 32768, (name, peak)    # audible, never clipping
        assert samples[0] == 0 and samples[-1] == 0                # faded: no clicks
        total += path.stat().st_size
    assert total < 600 * 1024


def test_the_script_makes_the_same_files(tmp_path):
    script = Path(__file__).resolve().parents[2] / "tools" / "make_sounds.py"
    subprocess.run([sys.executable, str(script), "--out", str(tmp_path)], check=True,
                   capture_output=True)
    for name in ISSUE_EFFECTS:
        assert (tmp_path / f"{name}.wav").read_bytes() == (sounds_dir() / f"{name}.wav").read_bytes()


def test_no_audio_device_is_silence_not_a_crash(monkeypatch):
    import pygame

    def broken_init(*args, **kwargs):
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", broken_init)
    sound = Sound(enabled=True, volume=0.7)
    for name in ISSUE_EFFECTS:
        assert sound.play(name) is False
    assert not sound.available
    assert len(sound.warnings) == 1          # said once, not on every play
    sound.set_volume(0.2)
    sound.set_enabled(False)
    sound.preload()


def test_plays_with_the_dummy_driver():
    sound = Sound(enabled=True, volume=0.5)
    played = [sound.play(name) for name in ISSUE_EFFECTS]
    if sound.available:                      # dummy driver: a mixer that plays into the void
        assert all(played)
        assert sound.warnings == []
    else:
        assert not any(played)


def test_missing_and_damaged_files_are_silent_with_one_warning(tmp_path):
    (tmp_path / "place.wav").write_bytes(b"RIFF\x00\x00\x00\x00junk")
    (tmp_path / "flip.wav").write_bytes(b"")
    sound = Sound(enabled=True, volume=0.5, folder=tmp_path)
    if not sound._ensure_mixer():
        pytest.skip("no mixer at all here: everything is silent anyway")
    for _ in range(3):
        assert sound.play("place") is False
        assert sound.play("flip") is False
        assert sound.play("deal") is False  # missing
    assert len(sound.warnings) == 3
    assert sound.play("no-such-effect") is False


def test_a_huge_file_or_a_fifo_is_silent_and_never_read(tmp_path):
    import os

    from scenes.core.sound import MAX_SOUND_BYTES
    with open(tmp_path / "win.wav", "wb") as f:
        f.truncate(MAX_SOUND_BYTES + 1)              # sparse: costs no disk
    os.mkfifo(tmp_path / "loss.wav")                 # reading it would block
    sound = Sound(enabled=True, volume=0.5, folder=tmp_path)
    if not sound._ensure_mixer():
        pytest.skip("no mixer at all here: everything is silent anyway")
    assert sound.play("win") is False and sound.play("loss") is False
    assert f"larger than {MAX_SOUND_BYTES:,} bytes" in sound.warnings[0]
    assert "missing" in sound.warnings[1] and len(sound.warnings) == 2


def test_disabled_or_muted_plays_nothing():
    sound = Sound(enabled=False, volume=0.8)
    assert sound.play("win") is False
    assert sound._mixer is None              # the mixer is not even started
    sound.set_enabled(True)
    sound.set_volume(0)
    assert sound.play("win") is False
    sound.set_volume(7)
    assert sound.volume == 1.0
    sound.set_volume(-1)
    assert sound.volume == 0.0


def test_events_map_to_effect_names():
    assert sound_for_events([]) == []
    # Clock: a card to its hour, the bottom card up to the centre, turned over.
    clock = [CardMoved("7H", "centre", "clock:7", True), CardMoved("3C", "clock:7", "centre", True),
             CardFlipped("3C", "centre", True)]
    assert sound_for_events(clock) == ["place", "flip"]
    # Camelot patience: turning the stock, placing, removing a pair.
    assert sound_for_events([CardMoved("KH", "stock", "waste", True)]) == ["flip"]
    assert sound_for_events([CardMoved("KH", "waste", "cell:0", True)]) == ["place"]
    assert sound_for_events([CardRemoved("3C", "cell:1"), CardRemoved("7D", "cell:2")]) == ["remove"]
    # Hamilton: a deal onto the piles; a declined chooser card back to the stock.
    deal = [CardMoved(c, "stock", f"tableau:{i}", True) for i, c in enumerate(["2C", "3C", "4C"])]
    assert sound_for_events(deal) == ["deal"]
    assert sound_for_events([CardMoved("5S", "chooser", "stock", False)]) == ["flip"]
    # The board game: a plain move or canter, and a capture.
    assert sound_for_events([PieceMoved(None, 1, 2, "plain")]) == ["place"]
    jump = [PieceMoved(None, 1, 3, "jump"), PieceCaptured(2, None)]
    assert sound_for_events(jump) == ["capture"]
    for names in (sound_for_events(clock), sound_for_events(jump)):
        assert set(names) <= set(EFFECTS)


def test_real_engine_records_map_to_effects():
    from game.clock import Clock
    game = Clock(seed=3)
    record = game.play(game.legal_moves()[0])
    names = sound_for_events(record.events)
    assert names and set(names) <= set(EFFECTS)


def test_start_opens_the_mixer_only_when_sound_is_on():
    import pygame
    pygame.mixer.quit()
    off = Sound(enabled=False)
    off.start()
    assert not pygame.mixer.get_init() and not off.available
    silent = Sound(enabled=True, volume=0.0)
    silent.start()
    assert not pygame.mixer.get_init()
    on = Sound(enabled=True)
    on.start()                      # the tests' dummy audio driver: a mixer that plays to nowhere
    assert on.available and pygame.mixer.get_init()
    assert on.play("deal")          # the first sound finds the mixer running
    pygame.mixer.quit()
