"""A client for auditd's HTTP API over its Unix socket (docs/API.md), standard library only."""

from __future__ import annotations

import http.client
import json
import os
import socket
import urllib.parse
import uuid
from typing import Any, Iterable, Optional

from .report import AuditReport, Baseline, Transcript

DEFAULT_TIMEOUT = 120.0


def default_socket() -> str:
    """The socket auditctl uses: $AUDITD_SOCKET, else the per-user default of docs/CLI.md."""
    if os.environ.get("AUDITD_SOCKET"):
        return os.environ["AUDITD_SOCKET"]
    if os.geteuid() == 0:
        return "/run/a11y-auditd/auditd.sock"
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        return os.path.join(runtime, "auditd.sock")
    return f"/tmp/auditd-{os.geteuid()}.sock"


class DaemonError(Exception):
    """The daemon refused a request: its HTTP status, error code, message and hint."""

    def __init__(self, status: int, code: str, message: str, hint: Optional[str] = None):
        self.status, self.code, self.message, self.hint = status, code, message, hint
        super().__init__(f"{message} [{code}]" + (f" ({hint})" if hint else ""))


class DaemonUnreachable(DaemonError):
    """No daemon answers on the socket."""


class _UnixConnection(http.client.HTTPConnection):
    def __init__(self, path: str, timeout: float):
        super().__init__("localhost", timeout=timeout)
        self._path = path

    def connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        sock.connect(self._path)
        self.sock = sock


def _multipart(fields: Iterable[tuple[str, bytes, Optional[str]]]) -> tuple[bytes, str]:
    boundary = "auditd-" + uuid.uuid4().hex
    body = bytearray()
    for name, value, content_type in fields:
        body += f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n".encode()
        if content_type:
            body += f"Content-Type: {content_type}\r\n".encode()
        body += b"\r\n" + value + b"\r\n"
    body += f"--{boundary}--\r\n".encode()
    return bytes(body), f"multipart/form-data; boundary={boundary}"


class Client:
    """auditd over its Unix socket. Each call is one request on a connection of its own.

    >>> client = Client()                      # $AUDITD_SOCKET or the per-user default
    >>> report = client.audit(xml, screenshot=png, app="shop", build="42", screen="Checkout")
    >>> [f.rule for f in report.findings]
    """

    def __init__(self, socket_path: Optional[str] = None, timeout: float = DEFAULT_TIMEOUT):
        self.socket_path = socket_path or default_socket()
        self.timeout = timeout

    # -- requests -----------------------------------------------------------------------

    def request(self, method: str, target: str, body: Optional[bytes] = None, content_type: Optional[str] = None) -> tuple[int, bytes]:
        connection = _UnixConnection(self.socket_path, self.timeout)
        try:
            headers = {"Connection": "close"}
            if content_type:
                headers["Content-Type"] = content_type
            connection.request(method, target, body=body, headers=headers)
            response = connection.getresponse()
            return response.status, response.read()
        except (FileNotFoundError, ConnectionRefusedError) as error:
            raise DaemonUnreachable(
                0, "unreachable", f"cannot reach auditd at {self.socket_path} ({error.strerror})",
                f"start it with: auditd --socket {self.socket_path} &") from error
        finally:
            connection.close()

    def _json(self, method: str, target: str, body: Optional[bytes] = None, content_type: Optional[str] = None) -> Any:
        status, data = self.request(method, target, body, content_type)
        try:
            answer = json.loads(data) if data else {}
        except ValueError:
            answer = None
        if status != 200:
            error = (answer or {}).get("error", {}) if isinstance(answer, dict) else {}
            raise DaemonError(status, error.get("code", "http-%d" % status), error.get("message", data[:200].decode("utf-8", "replace")), error.get("hint"))
        return answer

    @staticmethod
    def _query(**values: Any) -> str:
        pairs = [(key.replace("_", "-"), "1" if value is True else str(value)) for key, value in values.items() if value not in (None, False, "")]
        return ("?" + urllib.parse.urlencode(pairs)) if pairs else ""

    def _form(self, snapshot: bytes, screenshot: Optional[bytes]) -> tuple[bytes, str]:
        fields = [("snapshot", snapshot, "application/xml")]
        if screenshot:
            fields.append(("screenshot", screenshot, "application/octet-stream"))
        return _multipart(fields)

    # -- the API --------------------------------------------------------------------------

    def audit(self, snapshot: bytes | str, screenshot: Optional[bytes] = None, *, app: Optional[str] = None, build: Optional[str] = None,
              screen: Optional[str] = None, ocr: bool = False, ruleset: Optional[str] = None, density: Optional[float] = None) -> AuditReport:
        """Audits one snapshot (XML: auditd's own, an Appium page source or a uiautomator dump),
        with its screenshot when given; the daemon's report (POST /v1/audits)."""
        data = snapshot.encode("utf-8") if isinstance(snapshot, str) else snapshot
        body, content_type = self._form(data, screenshot)
        target = "/v1/audits" + self._query(ruleset=ruleset, app=app, build=build, screen=screen, ocr=ocr, density=density)
        return AuditReport.from_json(self._json("POST", target, body, content_type))

    def transcript(self, snapshot: bytes | str, screenshot: Optional[bytes] = None, *, reader: Optional[str] = None,
                   ocr: bool = False, density: Optional[float] = None) -> Transcript:
        """What TalkBack or VoiceOver says on the screen, stop by stop (POST /v1/transcripts)."""
        data = snapshot.encode("utf-8") if isinstance(snapshot, str) else snapshot
        body, content_type = self._form(data, screenshot)
        return Transcript.from_json(self._json("POST", "/v1/transcripts" + self._query(reader=reader, ocr=ocr, density=density), body, content_type))

    def trend(self, app: Optional[str] = None, *, build: Optional[str] = None, screen: Optional[str] = None) -> dict:
        """The app's builds compared (GET /v1/trends); without an app, every app."""
        return self._json("GET", "/v1/trends" + self._query(app=app, screen=screen, build=build))

    def baseline(self, app: str, build: str = "latest", *, exclude: Optional[str] = None) -> Baseline:
        """The app's screens as of `build` ("latest": its last build other than `exclude`), to
        compare new audits with (GET /v1/trends/baseline)."""
        try:
            answer = self._json("GET", "/v1/trends/baseline" + self._query(app=app, build=build, exclude=exclude))
        except DaemonError as error:
            # An app's first build has nothing to compare with: every finding is new.
            if error.code == "unknown-app" or (build == "latest" and error.code == "unknown-build"):
                return Baseline(build=None, screens={})
            raise
        return Baseline.from_json(answer)

    def health(self) -> dict:
        """GET /v1/health."""
        return self._json("GET", "/v1/health")
