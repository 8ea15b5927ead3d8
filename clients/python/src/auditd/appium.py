"""Every screen an Appium test visits, audited: a hook on the driver's commands
(Appium-Python-Client, or any Selenium WebDriver) that, after each command that can change
the screen, takes the page source and a screenshot, names the screen, and posts it to auditd
once per distinct screen (``screens.digest``)."""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from . import screens
from .client import Client, DaemonError
from .report import AuditReport, Baseline, Comparison

# Commands after which the screen may differ (Selenium's and Appium's command names).
SCREEN_CHANGING = frozenset({
    "clickElement", "sendKeysToElement", "clearElement", "goBack", "goForward", "refresh", "get", "actions",
    "touchAction", "multiTouchAction", "tap", "activateApp", "launchApp", "startActivity", "hideKeyboard", "pressKeyCode",
    "longPressKeyCode", "setValue", "replaceValue", "rotate", "setScreenOrientation",
})


def _changes_screen(command: str, params: Optional[dict]) -> bool:
    if command in SCREEN_CHANGING:
        return True
    # Gestures as scripts: `mobile: clickGesture`, `mobile: swipeGesture`, `mobile: tap`…
    if command in ("executeScript", "w3cExecuteScript", "w3cExecuteScriptAsync"):
        script = (params or {}).get("script", "")
        if not isinstance(script, str) or not script.startswith("mobile:"):
            return False
        # Questions (`mobile: getCurrentActivity`, `mobile: isKeyboardShown`) change nothing.
        verb = script[len("mobile:"):].strip()
        return not verb.startswith(("get", "is", "query", "list", "deviceInfo", "batteryInfo"))
    return False


@dataclass
class ScreenAudit:
    """One distinct screen of the run: its name, the test that first showed it, the
    daemon's report, and (with a baseline) what is new, regressed and fixed."""

    name: str
    test: Optional[str]
    digest: str
    report: Optional[AuditReport]
    comparison: Optional[Comparison] = None
    error: Optional[str] = None
    visits: int = 1

    def failing(self, gate: str) -> list:
        if self.report is None:
            return []
        if self.comparison is None:
            return self.report.at_least(gate)
        return self.comparison.failing(gate)


@dataclass
class AppiumAuditor:
    """Audits the screens of a test run. `app` and `build` name the build; `baseline` (from
    ``Client.baseline``) compares each screen with its audit in an earlier build."""

    client: Client
    app: str
    build: Optional[str] = None
    baseline: Optional[Baseline] = None
    ocr: bool = False
    screenshots: bool = True
    test: Optional[str] = None
    screens: dict[str, ScreenAudit] = field(default_factory=dict)
    on_audit: Optional[Callable[[ScreenAudit], None]] = None
    # Where each distinct screen's page source and screenshot are kept (NAME.xml, NAME.png),
    # for `auditctl audit --format sarif` and the like; `None`: not kept.
    captures: Optional[str] = None
    _names: dict[str, int] = field(default_factory=dict)
    _capturing: bool = False

    # -- the hook -------------------------------------------------------------------------

    def wrap(self, execute: Callable) -> Callable:
        """`execute` (a WebDriver's `execute(command, params)`), auditing after each command
        that can change the screen."""
        auditor = self

        @functools.wraps(execute)
        def audited(driver, command, params=None):
            if auditor._capturing:
                return execute(driver, command, params)
            # A new session's first screen is taken before its first command: the driver
            # knows its session only once `newSession` has returned.
            if getattr(driver, "_auditd_fresh", False) and command != "quit":
                driver._auditd_fresh = False
                auditor.audit_screen(driver)
            answer = execute(driver, command, params)
            if command == "newSession":
                driver._auditd_fresh = True
            elif _changes_screen(command, params):
                auditor.audit_screen(driver)
            return answer

        audited.__auditd_wrapped__ = execute  # type: ignore[attr-defined]
        return audited

    def attach(self, driver: Any) -> Any:
        """Audits every screen `driver` shows from now on (this one first); returns it."""
        cls = type(driver)
        original = cls.execute
        wrapped = self.wrap(original)
        driver.execute = wrapped.__get__(driver, cls)
        self.audit_screen(driver)
        return driver

    # -- one screen -----------------------------------------------------------------------

    def audit_screen(self, driver: Any, name: Optional[str] = None) -> Optional[ScreenAudit]:
        """Takes the page source and a screenshot of what `driver` shows and posts them, unless
        this run has sent the same screen already; `name` names it (else the test's name and
        where the app is). Returns the screen's audit (the earlier one when already sent)."""
        self._capturing = True
        try:
            source = driver.page_source
            png = driver.get_screenshot_as_png() if self.screenshots else None
            activity = None
            platform = str((getattr(driver, "capabilities", None) or {}).get("platformName", "")).lower()
            if platform == "android" and name is None:
                try:
                    activity = driver.current_activity
                except Exception:  # a driver without Appium's extension commands
                    activity = None
        finally:
            self._capturing = False
        digest = screens.digest(source)
        known = self.screens.get(digest)
        if known is not None:
            known.visits += 1
            return known
        base = name or " / ".join(part for part in (self.test, screens.location(source, activity)) if part) or "screen"
        count = self._names.get(base, 0) + 1
        self._names[base] = count
        screen_name = base if count == 1 else f"{base} ({count})"
        if self.captures:
            self._keep(screen_name, source, png)
        try:
            report = self.client.audit(source.encode("utf-8") if isinstance(source, str) else source, png, app=self.app, build=self.build,
                                       screen=screen_name, ocr=self.ocr)
            audit = ScreenAudit(screen_name, self.test, digest, report)
            if self.baseline is not None:
                audit.comparison = self.baseline.compare(report)
        except DaemonError as error:
            audit = ScreenAudit(screen_name, self.test, digest, None, error=str(error))
        self.screens[digest] = audit
        if self.on_audit:
            self.on_audit(audit)
        return audit

    def _keep(self, name: str, source: Any, png: Optional[bytes]) -> None:
        os.makedirs(self.captures, exist_ok=True)
        stem = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_")[:120] or "screen"
        with open(os.path.join(self.captures, stem + ".xml"), "wb") as file:
            file.write(source.encode("utf-8") if isinstance(source, str) else source)
        if png:
            with open(os.path.join(self.captures, stem + ".png"), "wb") as file:
                file.write(png)
