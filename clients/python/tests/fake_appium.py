"""A small W3C WebDriver server standing in for Appium (no device needed): it serves the
recorded page sources and screenshots of real captures, and moves between them as elements
are clicked and the back button pressed. Each page source carries a status-bar clock that
ticks on every read, as a real device's does.

    server = FakeAppium(screens={"home": (xml, png, ".HomeActivity")}, links={"home": {"open-network": "network"}}, start="home")
    server.start(); ... server.url ...; server.stop()
"""

from __future__ import annotations

import base64
import itertools
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
CLOCK = ('<node index="0" text="{time}" resource-id="com.android.systemui:id/clock" class="android.widget.TextView" '
         'package="com.android.systemui" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" '
         'focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" '
         'bounds="[0,0][40,20]" />')


class FakeAppium:
    def __init__(self, screens: dict, links: dict, start: str):
        self.screens, self.links, self.start_screen = screens, links, start
        self.history: list[str] = []
        self.ticks = itertools.count()
        self.commands: list[str] = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> "FakeAppium":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def source(self) -> str:
        xml = self.screens[self.history[-1]][0]
        tick = next(self.ticks)
        clock = CLOCK.format(time=f"12:{tick % 60:02d}")
        # The clock is the system's status bar, a window of its own at the start of the dump.
        return re.sub(r"(<hierarchy[^>]*>)", lambda m: m.group(1) + clock, xml, count=1)

    def _handler(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def _answer(self, status: int, value) -> None:
                body = json.dumps({"value": value}).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _body(self) -> dict:
                length = int(self.headers.get("Content-Length") or 0)
                return json.loads(self.rfile.read(length) or b"{}") if length else {}

            def do_POST(self):
                body = self._body()
                parts = self.path.strip("/").split("/")
                fake.commands.append("POST " + "/".join(parts[2:]))
                if parts == ["session"]:
                    fake.history = [fake.start_screen]
                    caps = {"platformName": "Android", "appium:automationName": "UiAutomator2"}
                    return self._answer(200, {"sessionId": "fake", "capabilities": caps})
                tail = parts[2:]
                if tail == ["element"]:
                    target = fake.links.get(fake.history[-1], {}).get(body.get("value"))
                    if target is None:
                        return self._answer(404, {"error": "no such element", "message": f"no element {body.get('value')}", "stacktrace": ""})
                    return self._answer(200, {ELEMENT: body.get("value")})
                if len(tail) == 3 and tail[0] == "element" and tail[2] == "click":
                    fake.history.append(fake.links[fake.history[-1]][tail[1]])
                    return self._answer(200, None)
                if tail == ["back"]:
                    if len(fake.history) > 1:
                        fake.history.pop()
                    return self._answer(200, None)
                if tail == ["execute", "sync"] and body.get("script") == "mobile: getCurrentActivity":
                    return self._answer(200, fake.screens[fake.history[-1]][2])
                return self._answer(200, None)

            def do_GET(self):
                parts = self.path.strip("/").split("/")
                fake.commands.append("GET " + "/".join(parts[2:]))
                tail = parts[2:]
                if tail == ["source"]:
                    return self._answer(200, fake.source())
                if tail == ["screenshot"]:
                    return self._answer(200, base64.b64encode(fake.screens[fake.history[-1]][1]).decode())
                return self._answer(200, None)

            def do_DELETE(self):
                fake.commands.append("DELETE session")
                return self._answer(200, None)

        return Handler
