"""Real PostgreSQL and Redis servers (and an X server, Xvfb) for the tests,
started from their binaries.

Each server runs in a temporary folder of its own, on 127.0.0.1 and a free port,
and can be stopped, killed and started again on the same port mid-test (the
restart tests). Nothing is mocked: these are Debian's ``postgresql`` and
``redis-server`` packages.

PostgreSQL refuses to run as root, and the tests run as root in CI: as root the
cluster's folder is given to the ``postgres`` user and the server runs as that
user. It runs with ``fsync=off`` (a test never survives a power cut, and a commit
then costs no disk wait).

A test that needs a server whose binary is missing *fails* when the environment
variable ``CI`` is set (CI promised to install it) and is skipped otherwise:
:func:`missing`.
"""
from __future__ import annotations

import atexit
import ctypes
import ctypes.util
import glob
import importlib.util
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

START_SECONDS = 30.0
STOP_SECONDS = 15.0


class ServiceError(RuntimeError):
    """A test server could not be started or stopped; the message carries its log."""


def missing(what: str, reason: str):
    """A test cannot run without ``what``: fail in CI (with the reason), skip elsewhere."""
    message = f"{what} not available: {reason}"
    if os.environ.get("CI"):
        pytest.fail(f"{message} (CI must install it)", pytrace=False)
    pytest.skip(message)


def start_xvfb(screen: str = "1920x1080") -> tuple[subprocess.Popen, str]:
    """An X server with no GPU (Debian's ``xvfb``) on a free display number:
    (its process, the ``DISPLAY`` value). The caller ends the process."""
    for number in range(90, 160):
        if os.path.exists(f"/tmp/.X11-unix/X{number}") or os.path.exists(f"/tmp/.X{number}-lock"):
            continue
        proc = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", f"{screen}x24", "-nolisten", "tcp"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(250):
            if proc.poll() is not None:
                break               # the number was taken meanwhile: the next one
            if os.path.exists(f"/tmp/.X11-unix/X{number}"):
                time.sleep(0.05)    # ours, not a server that took the number first
                if proc.poll() is None:
                    return proc, f":{number}"
                break
            time.sleep(0.02)
        proc.kill()
        proc.wait(5)
    raise ServiceError("no Xvfb display could be started (:90 to :159)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_until(ready, seconds: float, what: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise ServiceError(f"{what} exited with {proc.returncode}: {_tail(log)}")
        if ready():
            return
        time.sleep(0.05)
    raise ServiceError(f"{what} not ready after {seconds:.0f} s: {_tail(log)}")


class X:
    """The few Xlib calls needed: top-level windows, their size, their pixels."""

    def __init__(self, display: str) -> None:
        self.lib = lib = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11") or "libX11.so.6")
        lib.XOpenDisplay.restype = ctypes.c_void_p
        lib.XOpenDisplay.argtypes = [ctypes.c_char_p]
        lib.XDefaultRootWindow.restype = ctypes.c_ulong
        lib.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        lib.XQueryTree.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_ulong),
                                   ctypes.POINTER(ctypes.c_ulong),
                                   ctypes.POINTER(ctypes.POINTER(ctypes.c_ulong)),
                                   ctypes.POINTER(ctypes.c_uint)]
        lib.XGetGeometry.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_ulong)]
        lib.XGetGeometry.argtypes += [ctypes.POINTER(ctypes.c_int)] * 2 + [ctypes.POINTER(ctypes.c_uint)] * 4
        lib.XGetImage.restype = ctypes.c_void_p
        lib.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int,
                                  ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
        lib.XGetPixel.restype = ctypes.c_ulong
        lib.XGetPixel.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
        lib.XDestroyImage.argtypes = [ctypes.c_void_p]
        lib.XFree.argtypes = [ctypes.c_void_p]
        lib.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
        # An unmapped window answers XGetImage with an error, which Xlib's
        # default handler makes fatal: ignored instead (the image is NULL).
        self._handler = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(lambda d, e: 0)
        lib.XSetErrorHandler(self._handler)
        self.dpy = lib.XOpenDisplay(display.encode())
        if not self.dpy:
            raise SystemExit(f"cannot open the X display {display}")
        self.root = lib.XDefaultRootWindow(self.dpy)

    def windows(self) -> dict[int, tuple[int, int]]:
        """Top-level windows and their sizes."""
        lib, out = self.lib, {}
        root, parent = ctypes.c_ulong(), ctypes.c_ulong()
        kids, n = ctypes.POINTER(ctypes.c_ulong)(), ctypes.c_uint()
        if not lib.XQueryTree(self.dpy, self.root, ctypes.byref(root), ctypes.byref(parent),
                              ctypes.byref(kids), ctypes.byref(n)):
            return out
        for i in range(n.value):
            win = kids[i]
            r, x, y = ctypes.c_ulong(), ctypes.c_int(), ctypes.c_int()
            w, h, bw, depth = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
            if lib.XGetGeometry(self.dpy, win, ctypes.byref(r), ctypes.byref(x), ctypes.byref(y),
                                ctypes.byref(w), ctypes.byref(h), ctypes.byref(bw), ctypes.byref(depth)):
                out[win] = (w.value, h.value)
        if kids:
            lib.XFree(kids)
        return out

    def colours(self, win: int, size: tuple[int, int], grid: int = 12) -> int:
        """Distinct colours among a grid of points of the window (0: not viewable).
        Read a column of pixels at a time, not the whole window: a full-screen
        window's 8 MB through the X server at every look would cost the server
        and this process tens of ms, taken from the program being watched, more
        for a large window than a small one."""
        w, h = size
        seen = set()
        for i in range(grid):
            image = self.lib.XGetImage(self.dpy, win, (2 * i + 1) * w // (2 * grid), 0, 1, h,
                                       0xFFFFFFFF, 2)   # ZPixmap
            if not image:
                self.lib.XSync(self.dpy, 0)
                return 0
            seen.update(self.lib.XGetPixel(image, 0, (2 * j + 1) * h // (2 * grid)) for j in range(grid))
            self.lib.XDestroyImage(image)
        self.lib.XSync(self.dpy, 0)
        return len(seen)

    def pixel(self, win: int, x: int, y: int) -> int | None:
        """The window's pixel at (x, y) as the server shows it (0xRRGGBB on a
        24-bit screen), or None when it is not viewable."""
        image = self.lib.XGetImage(self.dpy, win, x, y, 1, 1, 0xFFFFFFFF, 2)   # ZPixmap
        self.lib.XSync(self.dpy, 0)
        if not image:
            return None
        value = self.lib.XGetPixel(image, 0, 0)
        self.lib.XDestroyImage(image)
        return value & 0xFFFFFF



def process_tree(pid: int) -> list[int]:
    """``pid`` and every process under it (Linux /proc)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            with open(f"/proc/{p}/task/{p}/children") as f:
                todo += [int(k) for k in f.read().split()]
        except OSError:
            pass                              # ended while we looked
    return out


def _alive(pid: int) -> bool:
    """Still a running process (a zombie waiting for its parent counts as ended)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return text[text.rindex(")") + 2] != "Z"


def _tail(log: Path, lines: int = 15) -> str:
    try:
        return " | ".join(log.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


class _Service:
    """One server process in its own folder; subclasses say how to run it."""

    name = "service"

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix=f"roundtable-{self.name}-"))
        self.port = 0
        self.proc: subprocess.Popen | None = None
        self.log = self.folder / "server.log"
        atexit.register(self.remove)        # the folder and the process go even on a crash

    # --- subclasses -----------------------------------------------------------------
    def _command(self) -> list[str]:
        raise NotImplementedError

    def _ready(self) -> bool:
        raise NotImplementedError

    def _popen_options(self) -> dict:
        return {}

    @classmethod
    def find(cls) -> str | None:
        """Where the server's binary is, or None."""
        raise NotImplementedError

    @classmethod
    def cannot_run(cls) -> str | None:
        """Why this machine cannot run the server although it is installed."""
        return None

    # --- running --------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> None:
        """Start on a free port the first time, on the same port after that."""
        if self.running:
            return
        attempts = 3 if self.port == 0 else 1
        for attempt in range(attempts):
            if self.port == 0 or attempt:
                self.port = free_port()
            with open(self.log, "ab") as log:
                self.proc = subprocess.Popen(
                    self._command(), stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                    start_new_session=True, **self._popen_options())
            try:
                _wait_until(self._ready, START_SECONDS, self.name, self.proc, self.log)
                return
            except ServiceError:
                self._signal(signal.SIGKILL)
                if attempt == attempts - 1:
                    raise

    def stop(self) -> None:
        """A clean stop (what a service manager does)."""
        self._signal(signal.SIGTERM)

    def kill(self) -> None:
        """``kill -9`` of the whole server, as a crash of its machine: the process
        and every process under it, each waited for. Not the process group:
        PostgreSQL's backends each lead their own session, and a backend that
        outlives its postmaster can still run (even commit) a statement already
        on its socket."""
        if not self.running:
            return
        doomed = process_tree(self.proc.pid)
        for pid in doomed:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.wait(STOP_SECONDS)
        deadline = time.monotonic() + STOP_SECONDS
        while any(_alive(pid) for pid in doomed[1:]) and time.monotonic() < deadline:
            time.sleep(0.005)

    def restart(self, *, hard: bool = False) -> None:
        if hard:
            self.kill()
        else:
            self.stop()
        self.start()

    def _signal(self, signum: int) -> None:
        if not self.running:
            return
        self.proc.send_signal(signum)
        try:
            self.proc.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(STOP_SECONDS)

    def remove(self) -> None:
        self.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


class RedisServer(_Service):
    """``redis-server`` with no persistence: a restart empties it, as a crash of a
    cache node would (the database is the truth; the bus only says "look")."""

    name = "redis-server"

    def __init__(self, binary: str) -> None:
        super().__init__()
        self.binary = binary

    @classmethod
    def find(cls) -> str | None:
        return shutil.which("redis-server")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _command(self) -> list[str]:
        return [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--dir", str(self.folder), "--daemonize", "no",
                "--loglevel", "warning"]

    def _ready(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False


class PostgresServer(_Service):
    """A PostgreSQL cluster made with ``initdb`` in a temporary folder, run by
    ``postgres`` itself (not pg_ctl: the test holds the process, to kill it)."""

    name = "postgres"     # the binary's name
    USER = "roundtable"

    def __init__(self, bindir: str, *, durable: bool = False) -> None:
        """``durable``: PostgreSQL's own defaults (fsync on), for benchmarks."""
        super().__init__()
        self.bindir = Path(bindir)
        self.durable = durable
        self.data = self.folder / "data"
        self.sockets = self.folder / "sockets"
        self.sockets.mkdir()
        self._as_user: dict = {}
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")      # KeyError: no such user (see available())
            for path in (self.folder, self.sockets):
                os.chown(path, owner.pw_uid, owner.pw_gid)
            self._as_user = {"user": owner.pw_uid, "group": owner.pw_gid, "extra_groups": []}
        result = subprocess.run(
            [str(self.bindir / "initdb"), "-D", str(self.data), "-U", self.USER, "-A", "trust",
             "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"],
            stdin=subprocess.DEVNULL, capture_output=True, text=True, env=self._env(),
            cwd=self.folder, **self._as_user)
        if result.returncode != 0:
            raise ServiceError(f"initdb failed: {result.stderr.strip() or result.stdout.strip()}")

    @classmethod
    def find(cls) -> str | None:
        """The newest Debian cluster binaries, else the ones on PATH."""
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"),
                       key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
        if found:
            return str(Path(found[-1]).parent)
        on_path = shutil.which("postgres")
        return str(Path(on_path).parent) if on_path else None

    @classmethod
    def cannot_run(cls) -> str | None:
        """Why this machine cannot run the server (root without a postgres user)."""
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                return "running as root and there is no 'postgres' user to run the server as"
        return None

    def _env(self) -> dict:
        return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "LANG": "C"}

    def _popen_options(self) -> dict:
        return {"env": self._env(), "cwd": self.folder, **self._as_user}

    def _command(self) -> list[str]:
        return [str(self.bindir / "postgres"), "-D", str(self.data), "-p", str(self.port),
                "-k", str(self.sockets), "-c", "listen_addresses=127.0.0.1",
                *([] if self.durable else ["-c", "fsync=off", "-c", "full_page_writes=off"]),
                "-c", "shared_buffers=16MB",
                "-c", "max_connections=200"]

    def _ready(self) -> bool:
        result = subprocess.run(
            [str(self.bindir / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port),
             "-U", self.USER, "-d", "postgres", "-t", "1"], stdin=subprocess.DEVNULL,
            capture_output=True, env=self._env())
        return result.returncode == 0

    def stop(self) -> None:
        """A fast shutdown: clients are disconnected, then the server stops."""
        self._signal(signal.SIGINT)

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://{self.USER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """A new empty database; returns its address."""
        result = subprocess.run(
            [str(self.bindir / "psql"), "-q", "-X", "-v", "ON_ERROR_STOP=1", self.dsn(),
             "-c", f'CREATE DATABASE "{name}"'], stdin=subprocess.DEVNULL,
            capture_output=True, text=True, env=self._env())
        if result.returncode != 0:
            raise ServiceError(f"cannot create database {name}: {result.stderr.strip()}")
        return self.dsn(name)


# --- the fixtures (tests/net/conftest.py brings them in) ------------------------------
# One server of each per test process (session scope: ``initdb`` costs a second or
# two); each test gets a database of its own, or an emptied Redis. A test may stop,
# kill or restart a server: it is started again after the test.

_databases = itertools.count(1)


def _started(service, module: str, package: str):
    """A server of the given kind, running; or the test fails in CI / is skipped."""
    if importlib.util.find_spec(module) is None:
        missing(module, "the server extra is not installed (pip install '.[server]')")
    binary = service.find()
    if binary is None:
        missing(service.name, f"no {service.name} binary (Debian package '{package}')")
    reason = service.cannot_run()
    if reason:
        missing(service.name, reason)
    server = service(binary)
    server.start()
    return server


@pytest.fixture(scope="session")
def postgres_server():
    server = _started(PostgresServer, "psycopg", "postgresql")
    yield server
    server.remove()


@pytest.fixture
def postgres_dsn(postgres_server):
    """The address of a new, empty database on the test process's server."""
    postgres_server.start()                # a test before this one may have left it stopped
    # Named by this process too: a port freed by a killed server can be taken by another
    # test process's server, and a client reconnecting there must not find a namesake.
    yield postgres_server.create_database(f"test_{os.getpid()}_{next(_databases)}")
    postgres_server.start()


@pytest.fixture(scope="session")
def redis_server():
    server = _started(RedisServer, "redis", "redis-server")
    yield server
    server.remove()


@pytest.fixture
def redis_url(redis_server):
    """The address of the test process's Redis, emptied."""
    if redis_server.running:
        _flush(redis_server)
    else:
        redis_server.start()            # started empty: it keeps nothing on disk
    yield redis_server.url
    redis_server.start()


def _flush(server: RedisServer) -> None:
    import redis
    with redis.Redis.from_url(server.url) as client:
        client.flushall()
