"""Synthesise the game's sound effects into ``assets/sounds/*.wav``.

Standard library only (math, wave, struct, random with a fixed seed), so the
files are the same on every machine and every run. 44.1 kHz, 16-bit, mono;
each effect is short, gently levelled (peaks well below full scale) and faded
in and out, so nothing clicks or clips.

    python tools/make_sounds.py            # write the files, print a summary
    python tools/make_sounds.py --check    # only print the summary of what is there

Effects (names are what ``scenes.core.sound.Sound.play`` takes):

    deal     a soft card snap          place    a card tapped down
    flip     a quick swish              remove   an airy whoosh
    capture  a wooden knock             invalid  a low, muted buzz
    win      a rising arpeggio (~1 s)   loss     a gentle falling two-note
"""
from __future__ import annotations

import argparse
import math
import random
import struct
import sys
import wave
from pathlib import Path

RATE = 44100
OUT = Path(__file__).resolve().parent.parent / "assets" / "sounds"
SEED = 1930  # the board game's year: any fixed number will do

Samples = list[float]


# --------------------------------------------------------------------------- basics

def silence(seconds: float) -> Samples:
    return [0.0] * int(RATE * seconds)


def noise(seconds: float, rng: random.Random) -> Samples:
    return [rng.uniform(-1.0, 1.0) for _ in range(int(RATE * seconds))]


def tone(freq: float, seconds: float, partials=((1, 1.0),), decay: float = 0.0,
         vibrato: float = 0.0, phase: float = 0.0) -> Samples:
    """A sum of sine partials ``(multiple, level)``; higher partials decay faster
    when ``decay`` (1/s) is given, like a struck bell or string."""
    n = int(RATE * seconds)
    out = [0.0] * n
    for mult, level in partials:
        f = freq * mult
        k = decay * (1 + 0.6 * (mult - 1))
        ph = phase
        for i in range(n):
            t = i / RATE
            wob = 1.0 + vibrato * math.sin(2 * math.pi * 5.0 * t)
            ph += 2 * math.pi * f * wob / RATE
            out[i] += level * math.sin(ph) * (math.exp(-k * t) if k else 1.0)
    return out


def lowpass(x: Samples, cutoff) -> Samples:
    """One-pole low-pass; ``cutoff`` is Hz or a function of time (s) → Hz."""
    out = [0.0] * len(x)
    y = 0.0
    for i, v in enumerate(x):
        fc = cutoff(i / RATE) if callable(cutoff) else cutoff
        a = 1 - math.exp(-2 * math.pi * fc / RATE)
        y += a * (v - y)
        out[i] = y
    return out


def highpass(x: Samples, cutoff) -> Samples:
    low = lowpass(x, cutoff)
    return [v - l for v, l in zip(x, low)]


def bandpass(x: Samples, low_hz, high_hz) -> Samples:
    return lowpass(highpass(x, low_hz), high_hz)


def envelope(x: Samples, attack: float, decay: float, hold: float = 0.0) -> Samples:
    """Linear rise over ``attack`` s, flat for ``hold`` s, then exponential fall
    (``decay`` is the time constant in s)."""
    out = []
    for i, v in enumerate(x):
        t = i / RATE
        if t < attack:
            g = t / attack
        elif t < attack + hold:
            g = 1.0
        else:
            g = math.exp(-(t - attack - hold) / decay)
        out.append(v * g)
    return out


def hump(x: Samples, peak_at: float) -> Samples:
    """A smooth rise and fall (sin² shape) peaking at ``peak_at`` of the length."""
    n = len(x)
    out = []
    for i, v in enumerate(x):
        u = i / max(1, n - 1)
        if u < peak_at:
            g = math.sin(0.5 * math.pi * u / peak_at) ** 2
        else:
            g = math.cos(0.5 * math.pi * (u - peak_at) / (1 - peak_at)) ** 2
        out.append(v * g)
    return out


def mix(*tracks: tuple[Samples, float, float]) -> Samples:
    """Tracks as (samples, start seconds, gain)."""
    end = max(int(start * RATE) + len(s) for s, start, _ in tracks)
    out = [0.0] * end
    for s, start, gain in tracks:
        o = int(start * RATE)
        for i, v in enumerate(s):
            out[o + i] += v * gain
    return out


def finish(x: Samples, peak: float, fade_in: float = 0.002, fade_out: float = 0.012) -> Samples:
    """Normalise to ``peak`` (of full scale), remove any DC offset, and fade both
    ends with half-cosine ramps so the first and last samples are exactly 0."""
    mean = sum(x) / len(x)
    x = [v - mean for v in x]
    top = max(abs(v) for v in x) or 1.0
    x = [v * peak / top for v in x]
    n = len(x)
    fi, fo = max(1, int(fade_in * RATE)), max(1, int(fade_out * RATE))
    for i in range(min(fi, n)):
        x[i] *= 0.5 - 0.5 * math.cos(math.pi * i / fi)
    for i in range(min(fo, n)):
        x[n - 1 - i] *= 0.5 - 0.5 * math.cos(math.pi * i / fo)
    x[0] = x[-1] = 0.0
    return x


# --------------------------------------------------------------------------- effects

def make_deal(rng: random.Random) -> Samples:
    # A soft snap: a bright, very short noise burst with a little body under it.
    snap = envelope(bandpass(noise(0.09, rng), 1800, 6000), 0.0015, 0.014)
    body = envelope(tone(240, 0.09, ((1, 1.0), (2.3, 0.3))), 0.002, 0.018)
    return finish(mix((snap, 0, 1.0), (body, 0, 0.35)), 0.32)


def make_place(rng: random.Random) -> Samples:
    # A card tapped onto felt: duller than the deal, with a low thud.
    tap = envelope(bandpass(noise(0.1, rng), 400, 2600), 0.001, 0.012)
    thud = envelope(tone(150, 0.1, ((1, 1.0), (2.7, 0.25))), 0.002, 0.025)
    return finish(mix((tap, 0, 1.0), (thud, 0, 0.8)), 0.38)


def make_flip(rng: random.Random) -> Samples:
    # A quick swish: noise whose band sweeps up as the card turns over.
    dur = 0.16
    swept = lowpass(highpass(noise(dur, rng), 900), lambda t: 1200 + 5000 * (t / dur))
    return finish(hump(swept, 0.55), 0.28, fade_out=0.02)


def make_remove(rng: random.Random) -> Samples:
    # An airy whoosh: soft noise, brightening then darkening, rising and falling.
    dur = 0.38
    sweep = lambda t: 600 + 3400 * math.sin(math.pi * min(1.0, t / dur)) ** 2  # noqa: E731
    air = lowpass(lowpass(highpass(noise(dur, rng), 250), sweep), sweep)
    return finish(hump(air, 0.4), 0.27, fade_out=0.04)


def make_capture(rng: random.Random) -> Samples:
    # A wooden knock: a few inharmonic, fast-decaying modes and a sharp click.
    body = tone(196, 0.26, ((1, 1.0), (2.76, 0.55), (5.4, 0.25), (8.9, 0.1)), decay=26)
    click = envelope(bandpass(noise(0.03, rng), 1500, 5000), 0.0005, 0.004)
    knock = mix((body, 0, 1.0), (click, 0, 0.5))
    knock = envelope(knock, 0.001, 0.09)
    echo = mix((knock, 0, 1.0), (knock, 0.075, 0.28))  # the piece settling
    return finish(echo, 0.45, fade_out=0.03)


def make_invalid(rng: random.Random) -> Samples:
    # A low muted buzz, two soft pulses: "not there".
    def pulse(seconds: float) -> Samples:
        buzz = tone(110, seconds, ((1, 1.0), (3, 0.33), (5, 0.2), (7, 0.14)))
        buzz = lowpass(buzz, 700)
        return hump(buzz, 0.2)
    return finish(mix((pulse(0.11), 0, 1.0), (pulse(0.13), 0.13, 0.9)), 0.22, fade_out=0.02)


def _bell(freq: float, seconds: float) -> Samples:
    note = tone(freq, seconds, ((1, 1.0), (2, 0.35), (3, 0.12), (4.2, 0.05)), decay=3.2)
    return envelope(note, 0.006, 10.0)  # a soft strike; the partials do the decay


def make_win(rng: random.Random) -> Samples:
    # A pleasant rising arpeggio: C5 E5 G5 C6, the last one held a little longer.
    notes = [523.25, 659.25, 783.99, 1046.5]
    tracks = [(_bell(f, 0.55), 0.12 * k, 1.0 - 0.08 * k) for k, f in enumerate(notes[:-1])]
    tracks.append((_bell(notes[-1], 0.75), 0.36, 0.85))
    tracks.append((_bell(notes[0] * 2 * 1.25, 0.6), 0.40, 0.25))  # a sparkle: E6 with the top C
    return finish(mix(*tracks), 0.42, fade_out=0.15)


def make_loss(rng: random.Random) -> Samples:
    # A gentle falling two-note: G4 then E♭4, soft and round, a touch of vibrato.
    def note(freq: float, seconds: float) -> Samples:
        body = tone(freq, seconds, ((1, 1.0), (2, 0.18), (3, 0.05)), vibrato=0.003)
        return hump(body, 0.12)
    return finish(mix((note(392.0, 0.42), 0, 1.0), (note(311.13, 0.6), 0.34, 0.85)),
                  0.26, fade_out=0.08)


EFFECTS = {
    "deal": make_deal,
    "place": make_place,
    "flip": make_flip,
    "remove": make_remove,
    "capture": make_capture,
    "invalid": make_invalid,
    "win": make_win,
    "loss": make_loss,
}


# --------------------------------------------------------------------------- files

def write_wav(path: Path, x: Samples) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    frames = b"".join(struct.pack("<h", max(-32767, min(32767, int(round(v * 32767))))) for v in x)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(frames)


def describe(path: Path) -> dict:
    """Length, peak and RMS level (dBFS) of a 16-bit mono WAV."""
    with wave.open(str(path), "rb") as f:
        info = (f.getnchannels(), f.getsampwidth(), f.getframerate())
        n = f.getnframes()
        data = f.readframes(n)
    values = struct.unpack(f"<{n}h", data) if info == (1, 2, RATE) else ()
    peak = max((abs(v) for v in values), default=0) / 32768
    rms = math.sqrt(sum(v * v for v in values) / max(1, n)) / 32768
    db = lambda v: 20 * math.log10(v) if v > 0 else float("-inf")  # noqa: E731
    return {"format": info, "seconds": n / info[2], "peak_db": db(peak), "rms_db": db(rms),
            "first_last": (values[0], values[-1]) if values else None,
            "bytes": path.stat().st_size}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only describe the files")
    parser.add_argument("--out", type=Path, default=OUT, help="folder (default assets/sounds)")
    args = parser.parse_args(argv)
    if not args.check:
        for name, make in EFFECTS.items():
            write_wav(args.out / f"{name}.wav", make(random.Random(f"{SEED}-{name}")))
    total = 0
    for name in EFFECTS:
        d = describe(args.out / f"{name}.wav")
        total += d["bytes"]
        print(f"{name:8} {d['seconds']:.2f} s  peak {d['peak_db']:6.1f} dBFS  "
              f"rms {d['rms_db']:6.1f} dBFS  ends {d['first_last']}  {d['bytes'] // 1024} KB")
    print(f"total {total // 1024} KB in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
