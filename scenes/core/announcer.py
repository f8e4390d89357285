"""One door for every announcement: what a player who cannot see the screen hears.

Scenes call :func:`announce` with a line of words (a focus move, a move, a
refusal and its reason, a hint, the end of a game, the whole position). The
app installs one :class:`Announcer`; it hands each line to its backends:

* :class:`SpeechService` — the platform's speech service: speech-dispatcher
  through its Python bindings (``speechd``) where they import, else its
  ``spd-say`` command. Spoken from a background thread, so the frame loop
  never waits on it; a newer line cuts the one still being spoken.
* :class:`LogFile` — every line appended to a file, one a line (``--speech-log``:
  tests read it; so can a braille display's reader).

Off by default (Settings: Speech); ``--speech-log`` turns it on. Where no
speech service is installed, one line says so and the rest is silence.
"""
from __future__ import annotations

import queue
import shutil
import sys
import threading
from typing import Callable

NO_SERVICE = ("speech: no speech service found (install speech-dispatcher); "
              "announcements are not spoken")


class SpeechService:
    """speech-dispatcher, spoken from a daemon thread fed by a queue."""

    def __init__(self, speak: Callable[[str], None], name: str) -> None:
        self.name = name
        self._speak = speak
        self._lines: queue.Queue[str] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="speech", daemon=True)
        self._thread.start()

    def say(self, text: str) -> None:
        self._lines.put(text)          # never waits: the thread speaks it

    def _run(self) -> None:
        while True:
            text = self._lines.get()
            while not self._lines.empty():      # behind already: only the newest is worth hearing
                text = self._lines.get_nowait()
            try:
                self._speak(text)
            except Exception:  # noqa: BLE001 - a service that went away: silence, not a crash
                pass

    def close(self) -> None:
        pass

    @classmethod
    def find(cls) -> "SpeechService | None":
        """The platform's service, or None where none is installed."""
        try:
            import speechd  # optional: the speech-dispatcher bindings
            client = speechd.SSIPClient("roundtable")
        except Exception:  # noqa: BLE001 - not installed, or no daemon to talk to
            client = None
        if client is not None:
            def speak(text: str) -> None:
                client.cancel()
                client.speak(text)
            return cls(speak, "speech-dispatcher")
        command = shutil.which("spd-say")
        if command is None:
            return None
        import subprocess  # start-up: some ms of every launch, for a command few run

        def speak_by_command(text: str) -> None:
            # -C cuts what is being said; the text after "--" is never an option.
            subprocess.run([command, "-C"], check=False, timeout=5,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            subprocess.run([command, "--", text], check=False, timeout=5,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return cls(speak_by_command, "spd-say")


class LogFile:
    """Every announcement appended to a file, a line each, flushed at once."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._file = open(path, "a", encoding="utf-8")   # noqa: SIM115 - kept open for the run

    def say(self, text: str) -> None:
        self._file.write(text + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def one_line(text: str) -> str:
    """The words on one line: a log line each, and no newline spoken as a pause."""
    return " ".join(text.split())


class Announcer:
    """The backends, and whether announcements are on (``enabled`` is asked at
    every line: the Settings switch takes effect at once)."""

    def __init__(self, enabled: Callable[[], bool] = lambda: False, log_path: str | None = None,
                 find_service: Callable[[], SpeechService | None] = SpeechService.find) -> None:
        self._enabled = enabled
        self.log = None
        self.note: str | None = None    # one line for the player: no service, or no log
        if log_path:
            try:
                self.log = LogFile(log_path)
            except OSError as exc:      # gone since the command line was checked: said, not fatal
                self._tell(f"speech: cannot write {log_path!r}: {exc.strerror or exc}")
        self._find_service = find_service
        self.service: SpeechService | None = None
        self._looked = False
        self.last = ""

    def _tell(self, line: str) -> None:
        self.note = line
        print(f"roundtable: {line}", file=sys.stderr)

    @property
    def on(self) -> bool:
        return self.log is not None or self._enabled()

    def _speech(self) -> SpeechService | None:
        """The service, looked for once, when the first line is to be spoken."""
        if not self._looked:
            self._looked = True
            self.service = self._find_service()
            if self.service is None:
                self._tell(NO_SERVICE)
        return self.service

    def say(self, text: str) -> None:
        text = one_line(text)
        if not text or not self.on:
            return
        self.last = text
        if self.log is not None:
            try:
                self.log.say(text)
            except OSError as exc:      # a full disk: said once, and the game goes on
                self._tell(f"speech: cannot write {self.log.path!r} any more: {exc.strerror or exc}")
                self.log = None
        if self._enabled():
            service = self._speech()
            if service is not None:
                service.say(text)

    def close(self) -> None:
        if self.log is not None:
            self.log.close()
            self.log = None


_current = Announcer()


def install(announcer: Announcer) -> None:
    """The app's announcer becomes the one every scene speaks through."""
    global _current
    _current = announcer


def announce(text: str) -> None:
    _current.say(text)


def announcing() -> bool:
    """True when announcements go somewhere (a scene may skip building words)."""
    return _current.on
