"""Pictures drawn the same at every launch, kept in the user's cache folder.

A card back or the places of empty piles at 4K cost tens of ms to draw (an
SVG built in Python, rendered by pygame), and a game opened at once draws
them for its first frame (start-up). For the same size and style they are the
same from launch to launch: each is written once, atomically, to the cache
folder, and read back after, in a fraction of a ms. A picture's file is named
by all it depends on: what it is and its options, the source of the code that
draws it, the fonts shipped, pygame's and SDL's versions. A file that does not
read back as it should (gone, cut short, another format) is drawn again and
written anew: the cache only ever makes things quicker, never different. At
most ``KEPT_FILES`` pictures are kept (the least recently used go).

While the app draws a frame it holds the writing back (:func:`hold_writes`):
what a frame draws for the first time is written after the frame is on
screen, by a thread of its own (:func:`write_held`), and found in memory
until then. A launch with an empty cache shows its first frame that much
sooner (the menu's some 20 lines of text).

A whole screen can be kept too (:func:`keep_frame`, :func:`read_frame`): the
menu's first frame at 4K is some 30 ms of drawing (felt, tiles, lines,
emblems) and the same at every launch, where reading its pixels straight into
the window is a few ms. It is named by everything it shows (the screen's own
account of it, its ``look``) and by all the drawing code at once
(:func:`code_print`); at most ``KEPT_FRAMES`` are kept, as each is a window's
size (33 MB at 4K).
"""
from __future__ import annotations

import os
import struct
import sys
import threading
import zlib
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

import pygame

from ..store.files import clean_stale_temps, write_bytes_atomic
from ..store.settings import cache_dir
from . import ui
from .ui import FACE_FILES, FONTS, font_dir

MAGIC = b"RTPIC2\n"
FRAME_MAGIC = b"RTFRM1\n"            # a screen's pixels as the window holds them (its format in the key)
HEADER = struct.Struct("<7sIII")      # the magic line, width, height, the key's length; the key, BGRA pixels
SUFFIX = ".pic"
FRAME_SUFFIX = ".frame"
KEPT_FILES = 96                       # at 4K a card is some 0.5 MB: at most ~50 MB kept
KEPT_FRAMES = 2                       # whole screens (a window's size each): two sizes of the menu
WRITER_THREAD = "kept-pictures"       # the app waits for it before pygame.quit() (App.close)
_fingerprints: dict[tuple, str] = {}
_holding = False
_held: dict[str, tuple[pygame.Surface, bytes]] = {}    # path -> (the picture, its key), to write
_lock = threading.Lock()
_writer: threading.Thread | None = None
_held_frame: tuple | None = None      # (the screen, its file, its key): written once it is shown
_code_print: str | None = None


def folder() -> Path:
    return cache_dir() / "pictures"


def _digest(data: bytes, seed: int = 0) -> str:
    """64 bits of ``data`` (zlib's two checksums: pygame has loaded zlib;
    hashlib would cost some ms to import, start-up). A file's name; what it
    holds is checked against its whole key."""
    return f"{zlib.crc32(data, seed):08x}{zlib.adler32(data, seed + 1):08x}"


def fingerprint(*sources: str) -> str:
    """What pictures drawn by the code of these modules' files depend on
    besides their own options (read once a run)."""
    key = tuple(sources)
    found = _fingerprints.get(key)
    if found is None:
        parts = [f"{pygame.version.ver} {pygame.version.SDL}"]
        for source in sources:
            try:
                parts.append(_digest(Path(source).read_bytes()))
            except OSError:
                parts.append("-")
        for font in (font_dir() / name for name in FACE_FILES.values()):   # size and time: not read whole
            try:
                st = font.stat()
                parts.append(f"{font.name} {st.st_size} {st.st_mtime_ns}")
            except OSError:
                parts.append("-")
        found = _fingerprints[key] = " ".join(parts)
    return found


def kept_picture(name: str, options: tuple, source_print: str,
                 draw: Callable[[], pygame.Surface], where: str | None = None) -> pygame.Surface:
    """The picture ``draw`` makes for ``name`` with ``options``: read from the
    cache (``where``: its folder) when it is there, else drawn and kept.
    ``source_print`` is :func:`fingerprint` of the code that draws it."""
    key = repr((name, options, source_print)).encode("utf-8", "backslashreplace")
    path = os.path.join(where or folder(), f"{name}-{_digest(key)}{SUFFIX}")
    held = _held.get(path)
    if held is not None and held[1] == key:
        return held[0]                # drawn this run, its file still to be written
    surf = _read(path, key)
    if surf is None:
        surf = draw()
        _write(path, key, surf)
    return surf


def hold_writes() -> None:
    """From now on pictures drawn are written by :func:`write_held`, not at once."""
    global _holding
    _holding = True


def write_held() -> threading.Thread | None:
    """Stop holding; the pictures held are written by a thread (the one
    already writing, if any, takes them too), which is returned."""
    global _holding, _writer, _held_frame
    _holding = False
    if _held_frame is not None:
        # On this thread, now: the screen is what was kept, and the next
        # frame may change it (a copy to write later would cost as much).
        (surface, path, key), _held_frame = _held_frame, None
        if _store(path, key, surface, FRAME_MAGIC):
            _prune_quietly(os.path.dirname(path), FRAME_SUFFIX, KEPT_FRAMES)
    with _lock:
        if _held and _writer is None:
            _writer = threading.Thread(target=_write_all_held, name=WRITER_THREAD)
            _writer.start()
        return _writer


def _write_all_held() -> None:
    global _writer
    folders = set()
    while True:
        with _lock:
            if not _held:
                _writer = None        # what is held after this starts a writer of its own
                break
            path, (surf, key) = next(iter(_held.items()))
        if _store(path, key, surf):
            folders.add(os.path.dirname(path))
        with _lock:
            _held.pop(path, None)     # on disk now (or nowhere to keep it)
    for where in folders:
        _prune_quietly(where)


@contextmanager
def kept_lines() -> Iterator[None]:
    """Lines of text rendered inside are kept between launches: read from the
    cache when they are there, else rendered and kept (the menu's first frame
    at 4K renders some 30 lines, a few ms of every launch: start-up)."""
    source, where = fingerprint(ui.__file__), str(folder())

    def keep(key: tuple, render: Callable[[], pygame.Surface]) -> pygame.Surface:
        return kept_picture("line", key + (FONTS.scale,), source, render, where)
    FONTS.keep = keep
    try:
        yield
    finally:
        FONTS.keep = None


def _checked_head(f, magic: bytes, key: bytes, pixel_bytes) -> tuple[int, int] | None:
    """The size (w, h) a kept file opened as ``f`` holds, when its header is
    ``magic``'s, its key is ``key`` and exactly ``pixel_bytes(w, h)`` bytes
    follow; else None (another picture under the same name, cut short, more)."""
    head = f.read(HEADER.size)
    if len(head) != HEADER.size:
        return None
    found, w, h, key_length = HEADER.unpack(head)
    if found != magic or key_length != len(key) or not (0 < w <= 16384 and 0 < h <= 16384):
        return None
    if f.read(key_length) != key:
        return None
    if os.fstat(f.fileno()).st_size != HEADER.size + key_length + pixel_bytes(w, h):
        return None
    return w, h


def _read(path: str, key: bytes) -> pygame.Surface | None:
    try:
        with open(path, "rb") as f:
            size = _checked_head(f, MAGIC, key, lambda w, h: 4 * w * h)
            if size is None:
                return None
            # Read into the memory the picture keeps (frombuffer: no second
            # copy, whose fresh pages would cost as much as the reading).
            pixels = bytearray(4 * size[0] * size[1])
            if f.readinto(pixels) != len(pixels):
                return None
        surf = pygame.image.frombuffer(pixels, size, "BGRA")
        os.utime(path)                            # used: the last to go
        return surf
    except (OSError, ValueError, pygame.error):
        return None


def _write(path: str, key: bytes, surf: pygame.Surface) -> None:
    if _holding:
        with _lock:
            _held[path] = (surf, key)
    elif _store(path, key, surf):
        _prune_quietly(os.path.dirname(path))


def _store(path: str, key: bytes, surf: pygame.Surface, magic: bytes = MAGIC) -> bool:
    """Write a picture (its pixels as BGRA) or, with FRAME_MAGIC, a screen (its
    pixels as the window holds them, from the window's own memory)."""
    w, h = surf.get_size()
    pixels = pygame.image.tobytes(surf, "BGRA") if magic == MAGIC else surf.get_view("1")
    try:
        write_bytes_atomic(Path(path), (HEADER.pack(magic, w, h, len(key)), key, pixels), durable=False)
        return True
    except (OSError, ValueError, pygame.error):
        return False            # nowhere to keep it: drawn again next time


def _prune_quietly(where: str, suffix: str = SUFFIX, kept: int | None = None) -> None:
    try:
        _prune(where, suffix, KEPT_FILES if kept is None else kept)     # read now: a test lowers it
    except OSError:
        pass


def _prune(where: str, suffix: str = SUFFIX, kept: int = KEPT_FILES) -> None:
    """At most ``kept`` files of a kind (the least recently used go), and no
    temp file an interrupted write left."""
    pictures = []
    for entry in os.scandir(where):
        if entry.name.endswith(suffix):
            try:
                pictures.append((entry.stat().st_mtime, entry.path))
            except OSError:
                pass
    for _, name in sorted(pictures)[:max(0, len(pictures) - kept)]:
        try:
            os.unlink(name)
        except OSError:
            pass
    clean_stale_temps(Path(where), ("",))


# --- whole screens ---------------------------------------------------------------------
def code_print() -> str:
    """All the drawing code at once: the size and time of every module file
    of the app's screens (a frozen app: its executable's), with pygame's
    version and the fonts. A kept screen depends on more code than a kept
    picture, and reading all of it would cost what the screen saves; a file
    edited or installed anew has another time."""
    global _code_print
    if _code_print is None:
        parts = [fingerprint()]
        if getattr(sys, "frozen", False):
            try:
                st = os.stat(sys.executable)
                parts.append(f"{st.st_size} {st.st_mtime_ns}")
            except OSError:
                parts.append("-")
        stack = [str(Path(ui.__file__).resolve().parents[1])]        # the scenes package
        while stack:
            try:
                entries = sorted(os.scandir(stack.pop()), key=lambda e: e.name)
            except OSError:
                continue
            for entry in entries:
                if entry.name.endswith(".py") and entry.is_file():
                    st = entry.stat()
                    parts.append(f"{entry.name} {st.st_size} {st.st_mtime_ns}")
                elif entry.is_dir() and not entry.name.startswith((".", "__")):
                    stack.append(entry.path)
        _code_print = _digest(" ".join(parts).encode("utf-8", "backslashreplace"))
    return _code_print


def _frame_file(name: str, look: tuple, surface: pygame.Surface) -> tuple[str, bytes]:
    """The file of screen ``name`` showing ``look`` on ``surface``, and its key
    (the window's pixel format included: the pixels are read back as they are)."""
    fmt = (surface.get_size(), surface.get_pitch(), surface.get_bitsize(), surface.get_masks())
    key = repr((name, look, fmt, code_print())).encode("utf-8", "backslashreplace")
    return os.path.join(folder(), f"{name}-{_digest(key)}{FRAME_SUFFIX}"), key


def read_frame(surface: pygame.Surface, name: str, look: tuple) -> bool:
    """Fill ``surface`` with the screen kept for ``name`` showing ``look``;
    True when it was there whole. On False the surface may hold part of it:
    the caller draws all of it, as with no file."""
    path, key = _frame_file(name, look, surface)
    size = surface.get_pitch() * surface.get_height()
    try:
        with open(path, "rb", buffering=0) as f:
            if _checked_head(f, FRAME_MAGIC, key, lambda w, h: size) != surface.get_size():
                return False
            pixels = surface.get_view("1")      # the window's own memory: no copy
            read = 0
            while read < size:
                got = f.readinto(memoryview(pixels)[read:])
                if not got:
                    return False
                read += got
            del pixels
        os.utime(path)                          # used: the last to go
        return True
    except (OSError, ValueError, pygame.error):
        return False


def keep_frame(surface: pygame.Surface, name: str, look: tuple) -> None:
    """Keep ``surface`` as screen ``name`` showing ``look``: written once the
    frame is on screen (:func:`write_held`), from the window's own memory,
    unless :func:`drop_frame` says something was drawn over it meanwhile."""
    global _held_frame
    path, key = _frame_file(name, look, surface)
    _held_frame = (surface, path, key)


def drop_frame() -> None:
    """Something other than the kept screen was drawn over it (a message): not kept."""
    global _held_frame
    _held_frame = None


__all__ = ["KEPT_FILES", "KEPT_FRAMES", "WRITER_THREAD", "code_print", "drop_frame", "fingerprint",
           "folder", "hold_writes", "keep_frame", "kept_lines", "kept_picture", "read_frame",
           "write_held"]
