"""A real headless Chromium driven over the Chrome DevTools Protocol (CDP).

No Selenium: Chromium is started with ``--remote-debugging-port=0``, says on
stderr where its DevTools WebSocket listens, and the ``websockets`` package
speaks CDP to it (JSON commands with ids, events without). One page per
:class:`Browser`; every wait is bounded. Used by the browser tests and by
``tools/web_screenshots.py``.
"""
from __future__ import annotations

import asyncio
import base64
import itertools
import json
import os
import re
import shutil
import tempfile

from websockets.asyncio.client import connect

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio")
START_SECONDS = 30.0
COMMAND_SECONDS = 20.0


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


class BrowserError(RuntimeError):
    pass


class Browser:
    """``async with Browser() as page:`` — one tab of a fresh headless Chromium."""

    def __init__(self, width: int = 1280, height: int = 720) -> None:
        self.width, self.height = width, height
        self.proc = None
        self.ws = None
        self.session: str | None = None
        self.profile = None
        self.ids = itertools.count(1)
        self.replies: dict[int, asyncio.Future] = {}
        self.errors: list[str] = []        # uncaught exceptions and console errors of the page
        self.reader = None

    async def __aenter__(self) -> "Browser":
        binary = find_chromium()
        if binary is None:
            raise BrowserError("no chromium on PATH")
        self.profile = tempfile.TemporaryDirectory(prefix="rt-chromium-")
        self.proc = await asyncio.create_subprocess_exec(
            binary, *FLAGS, f"--user-data-dir={self.profile.name}", "--remote-debugging-port=0",
            f"--window-size={self.width},{self.height}", "about:blank",
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        try:
            url = await asyncio.wait_for(self._devtools_url(), START_SECONDS)
            self.ws = await connect(url, max_size=64 << 20, open_timeout=START_SECONDS)
            self.reader = asyncio.create_task(self._read())
            target = await self.send("Target.createTarget", url="about:blank")
            attached = await self.send("Target.attachToTarget", targetId=target["targetId"],
                                       flatten=True)
            self.session = attached["sessionId"]
            for domain in ("Page", "Runtime", "Log"):
                await self.send(f"{domain}.enable")
            await self.resize(self.width, self.height)
        except BaseException:
            await self.__aexit__(None, None, None)
            raise
        return self

    async def _devtools_url(self) -> str:
        while True:
            line = await self.proc.stderr.readline()
            if not line:
                raise BrowserError("chromium exited before it listened for DevTools")
            match = re.search(rb"DevTools listening on (ws://\S+)", line)
            if match:
                asyncio.create_task(self._drain())
                return match.group(1).decode()

    async def _drain(self) -> None:
        while self.proc and await self.proc.stderr.readline():
            pass

    async def __aexit__(self, *exc) -> None:
        if self.reader is not None:
            self.reader.cancel()
        if self.ws is not None:
            await self.ws.close()
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()
        if self.profile is not None:
            self.profile.cleanup()

    async def _read(self) -> None:
        async for frame in self.ws:
            message = json.loads(frame)
            if "id" in message and message["id"] in self.replies:
                self.replies.pop(message["id"]).set_result(message)
            elif message.get("method") == "Runtime.exceptionThrown":
                details = message["params"]["exceptionDetails"]
                self.errors.append(details.get("exception", {}).get("description")
                                   or details.get("text", "an exception"))
            elif message.get("method") == "Log.entryAdded":
                entry = message["params"]["entry"]
                if entry["level"] == "error":
                    self.errors.append(f"{entry['source']}: {entry['text']}")
            elif message.get("method") == "Runtime.consoleAPICalled" \
                    and message["params"]["type"] == "error":
                self.errors.append(" ".join(str(a.get("value", a.get("description", "")))
                                            for a in message["params"]["args"]))

    async def send(self, method: str, **params):
        number = next(self.ids)
        reply = asyncio.get_running_loop().create_future()
        self.replies[number] = reply
        message = {"id": number, "method": method, "params": params}
        if self.session and not method.startswith("Target."):
            message["sessionId"] = self.session
        await self.ws.send(json.dumps(message))
        answer = await asyncio.wait_for(reply, COMMAND_SECONDS)
        if "error" in answer:
            raise BrowserError(f"{method}: {answer['error'].get('message')}")
        return answer.get("result", {})

    # --- what a test does with the page ------------------------------------------
    async def resize(self, width: int, height: int, mobile: bool = False) -> None:
        self.width, self.height = width, height
        await self.send("Emulation.setDeviceMetricsOverride", width=width, height=height,
                        deviceScaleFactor=1, mobile=mobile)

    async def open(self, url: str) -> None:
        """Load ``url`` and wait for its load event."""
        done = await self.send("Page.navigate", url=url)
        if done.get("errorText"):
            raise BrowserError(f"{url}: {done['errorText']}")
        await self.wait_for("document.readyState === 'complete'")

    async def evaluate(self, expression: str):
        """The value of a JavaScript expression (promises are awaited)."""
        result = await self.send("Runtime.evaluate", expression=expression, awaitPromise=True,
                                 returnByValue=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression[:60]}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    async def wait_for(self, condition: str, seconds: float = 10.0):
        """Wait until the JavaScript ``condition`` is truthy in the page; returns its value."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while True:
            try:
                value = await self.evaluate(f"(() => {{ try {{ const v = ({condition}); "
                                            f"return v instanceof Node ? true : v; }} "
                                            f"catch (e) {{ return null; }} }})()")
            except BrowserError:          # the page is between two documents: ask again
                value = None
            if value:
                return value
            if loop.time() > deadline:
                raise BrowserError(f"waited {seconds:g} s in vain for {condition}")
            await asyncio.sleep(0.02)

    async def text(self, selector: str) -> str:
        found = f"document.querySelector({json.dumps(selector)})"
        return await self.evaluate(f"{found}?.innerText ?? null")

    async def screenshot(self, path: str) -> None:
        shot = await self.send("Page.captureScreenshot", format="png")
        with open(path + ".tmp", "wb") as out:
            out.write(base64.b64decode(shot["data"]))
        os.replace(path + ".tmp", path)
