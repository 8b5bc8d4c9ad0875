"""A small Chrome DevTools Protocol client over ``--remote-debugging-pipe``.

Chromium started with ``--remote-debugging-pipe`` reads protocol messages from its file
descriptor 3 and writes them to descriptor 4, each one JSON text ended by a NUL byte: no
websocket, no port, nothing to install. :class:`Browser` starts a headless Chromium that way,
opens one page and offers what the report's tests need: load a URL and wait for the load event,
evaluate JavaScript, take a screenshot, and collect console messages, uncaught exceptions and
log entries of level error.

Used by ``tests/browser/test_report_browser.py`` and ``benchmarks/bench_report.py``.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from typing import Any

__all__ = ["Browser", "BrowserError", "find_chromium"]

_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


class BrowserError(RuntimeError):
    """Chromium failed, timed out or answered a command with an error."""


def find_chromium() -> str | None:
    """The Chromium executable (``$CHROMIUM`` or the first of the usual names on ``PATH``)."""
    given = os.environ.get("CHROMIUM")
    if given:
        return shutil.which(given) or (given if os.path.isfile(given) else None)
    for name in _NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """A headless Chromium with one page, driven over the DevTools pipe.

    Use as a context manager; ``errors`` lists every console error, uncaught exception and
    error log entry seen so far (as text).
    """

    def __init__(self, executable: str, *, width: int = 1280, height: int = 900) -> None:
        self._profile = tempfile.mkdtemp(prefix="meteor-eval-chromium-")
        to_browser_read, self._write_fd = os.pipe()
        self._read_fd, from_browser_write = os.pipe()
        command = [
            executable,
            "--headless=new",
            "--remote-debugging-pipe",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--disable-background-networking",
            "--hide-scrollbars",
            "--mute-audio",
            f"--user-data-dir={self._profile}",
            f"--window-size={width},{height}",
            "about:blank",
        ]

        def plumb() -> None:  # in the child: the pipe ends become descriptors 3 and 4
            import fcntl

            high_in = fcntl.fcntl(to_browser_read, fcntl.F_DUPFD, 10)
            high_out = fcntl.fcntl(from_browser_write, fcntl.F_DUPFD, 10)
            os.dup2(high_in, 3)
            os.dup2(high_out, 4)

        self._process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=plumb,
            # 3 and 4 survive the closing of inherited descriptors (done after preexec_fn).
            pass_fds=(3, 4),
        )
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._buffer = b""
        self._next_id = 0
        self._events: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.console: list[str] = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self._session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable", session=True)
        self.call(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
            session=True,
        )

    # -- protocol -------------------------------------------------------------------------

    def _read_message(self, deadline: float) -> dict[str, Any]:
        import select

        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("Chromium did not answer in time")
            ready, _, _ = select.select([self._read_fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._read_fd, 1 << 20)
            if not chunk:
                raise BrowserError("Chromium closed the DevTools pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def _note(self, event: dict[str, Any]) -> None:
        """Keep console messages and every error the page reports."""
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params["args"])
            self.console.append(f"{params['type']}: {text}")
            if params["type"] in ("error", "assert"):
                self.errors.append(f"console.{params['type']}: {text}")
        elif method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            self.errors.append(f"uncaught: {text}")
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            entry = params["entry"]
            self.errors.append(f"log ({entry.get('source')}): {entry.get('text')}")

    def call(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        session: bool = False,
        timeout: float = 30.0,
    ) -> dict[str, Any]:
        """Send one command and wait for its answer (events that arrive meanwhile are kept)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self._session
        os.write(self._write_fd, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            answer = self._read_message(deadline)
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise BrowserError(f"{method}: {answer['error']}")
                result: dict[str, Any] = answer.get("result", {})
                return result
            if "method" in answer:
                self._note(answer)
                self._events.append(answer)

    def wait_for(self, method: str, timeout: float = 30.0) -> dict[str, Any]:
        """The first event ``method`` not yet consumed (waiting for it if needed)."""
        deadline = time.monotonic() + timeout
        while True:
            for k, event in enumerate(self._events):
                if event.get("method") == method:
                    del self._events[k]
                    return event
            event = self._read_message(deadline)
            if "method" in event:
                self._note(event)
                self._events.append(event)

    # -- what the tests use ---------------------------------------------------------------

    def load(self, url: str, timeout: float = 60.0) -> float:
        """Open ``url`` as a new document and wait for its load event; the seconds from the
        navigation request to the load event (wall clock, as seen from here).

        The page goes through ``about:blank`` first, so that a URL that differs from the
        current one only in its fragment is loaded again instead of scrolled to.
        """
        for target in ("about:blank", url):
            self._events = [e for e in self._events if e.get("method") != "Page.loadEventFired"]
            start = time.monotonic()
            self.call("Page.navigate", {"url": target}, session=True)
            self.wait_for("Page.loadEventFired", timeout)
        return time.monotonic() - start

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (promises awaited)."""
        result = self.call(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
            session=True,
        )
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise BrowserError(f"{expression[:60]}...: {text}")
        return result["result"].get("value")

    def screenshot(self, clip: tuple[float, float, float, float] | None = None) -> bytes:
        """A PNG of the viewport, or of the page region ``clip`` (x, y, width, height in page
        coordinates, which may reach beyond the viewport)."""
        params: dict[str, Any] = {"format": "png"}
        if clip is not None:
            x, y, width, height = clip
            params["clip"] = {"x": x, "y": y, "width": width, "height": height, "scale": 1}
            params["captureBeyondViewport"] = True
        data = self.call("Page.captureScreenshot", params, session=True)["data"]
        return base64.b64decode(data)

    def close(self) -> None:
        """Close Chromium (the browser started by this object only) and remove its profile."""
        with contextlib.suppress(BrowserError, OSError):
            self.call("Browser.close", timeout=5.0)
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        for fd in (self._read_fd, self._write_fd):
            with contextlib.suppress(OSError):
                os.close(fd)
        shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
