"""pytest plugin: every distinct screen an Appium suite visits, audited by auditd.

    pytest -p auditd --auditd-app shop --auditd-build 42 --auditd-since-build latest

With `--auditd-app`, every Appium (or Selenium) driver the tests make is watched: after each
command that can change the screen its page source and screenshot are posted once per
distinct screen, named by the test and where the app is. Each test's report says the new
findings of the screens it showed (and its JUnit testcase carries their counts as
properties); the session's summary counts screens and findings new, regressed and fixed;
the session fails on new or regressed findings at or above `--auditd-fail-on` (every
finding when there is no baseline); an HTML report of the run is written beside the JUnit
one. The `auditd` fixture audits one screen explicitly: `auditd.audit_screen(driver, "Cart")`.
"""

from __future__ import annotations

import os
from typing import Optional

import pytest

from .appium import AppiumAuditor, ScreenAudit
from .client import Client, DaemonError
from .html_report import write_html
from .report import SEVERITIES


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("auditd", "accessibility audits of every screen (auditd)")
    group.addoption("--auditd-app", help="audit every screen the tests visit, as this app's screens (turns the plugin on)")
    group.addoption("--auditd-build", help="the build under test (its screens are kept in the daemon's trends)")
    group.addoption("--auditd-since-build", help="compare with the app's screens as of BUILD (latest: its last other build); only new and regressed findings fail")
    group.addoption("--auditd-fail-on", default="error", choices=("error", "warning", "notice", "never"), help="fail the session on findings at or above this severity (default: error)")
    group.addoption("--auditd-socket", help="auditd's socket (default: $AUDITD_SOCKET, then auditctl's default)")
    group.addoption("--auditd-html", help="the run's HTML report (default: beside --junitxml, else auditd-report.html)")
    group.addoption("--auditd-ocr", action="store_true", help="read each screenshot's text by OCR (text.unexposed, text.truncated)")
    group.addoption("--auditd-captures", help="keep each distinct screen's page source and screenshot in this directory (NAME.xml, NAME.png)")


class AuditdPlugin:
    """The run's state: the auditor, and each test's screens."""

    def __init__(self, config: pytest.Config):
        self.config = config
        self.gate: str = config.getoption("--auditd-fail-on")
        self.client = Client(config.getoption("--auditd-socket"))
        build = config.getoption("--auditd-build")
        since = config.getoption("--auditd-since-build")
        baseline = None
        if since:
            baseline = self.client.baseline(config.getoption("--auditd-app"), since, exclude=build)
        self.since = since
        self.baseline_build = baseline.build if baseline else None
        self.auditor = AppiumAuditor(self.client, config.getoption("--auditd-app"), build=build, baseline=baseline,
                                     ocr=config.getoption("--auditd-ocr"), on_audit=self._audited,
                                     captures=config.getoption("--auditd-captures"))
        self.by_test: dict[str, list[ScreenAudit]] = {}
        self._restore: list = []

    # The drivers the tests make: Selenium's class, which Appium's subclasses.
    def watch_drivers(self) -> None:
        try:
            from selenium.webdriver.remote.webdriver import WebDriver
        except ImportError:  # no Selenium: only the fixture audits
            return
        original = WebDriver.execute
        WebDriver.execute = self.auditor.wrap(original)
        self._restore.append((WebDriver, original))

    def unwatch(self) -> None:
        for cls, original in self._restore:
            cls.execute = original
        self._restore.clear()

    def _audited(self, audit: ScreenAudit) -> None:
        self.by_test.setdefault(audit.test or "", []).append(audit)

    # -- hooks ----------------------------------------------------------------------------

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem):
        self.auditor.test = item.nodeid
        yield
        self.auditor.test = None

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call):
        outcome = yield
        report = outcome.get_result()
        if report.when != "teardown":
            return
        audits = self.by_test.get(item.nodeid, [])
        if not audits:
            return
        lines, new, regressed, fixed = [], 0, 0, 0
        for audit in audits:
            if audit.error:
                lines.append(f"{audit.name}: not audited: {audit.error}")
                continue
            if audit.comparison is not None:
                new += len(audit.comparison.new)
                regressed += len(audit.comparison.regressed)
                fixed += len(audit.comparison.fixed)
                shown = [("new", f) for f in audit.comparison.new] + [("regressed", f) for f in audit.comparison.regressed]
            else:
                new += len(audit.report.findings)
                shown = [("new", f) for f in audit.report.findings]
            lines.append(f"{audit.name}: {len(audit.report.findings)} findings")
            for state, finding in shown:
                lines.append(f"  {finding.severity}: [{finding.rule}] {finding.message} ({finding.where}) [{state}]")
        report.sections.append(("auditd: screens of this test", "\n".join(lines)))
        item.user_properties.extend([("auditd_screens", len(audits)), ("auditd_new", new), ("auditd_regressed", regressed), ("auditd_fixed", fixed)])
        # The teardown report's properties are the ones JUnit writes for the testcase.
        report.user_properties = list(item.user_properties)

    def failing(self) -> list:
        return [(audit, finding) for audit in self.auditor.screens.values() for finding in audit.failing(self.gate)]

    def pytest_terminal_summary(self, terminalreporter, exitstatus, config) -> None:
        audits = list(self.auditor.screens.values())
        new = sum(len(a.comparison.new) if a.comparison else len(a.report.findings) for a in audits if a.report)
        regressed = sum(len(a.comparison.regressed) for a in audits if a.comparison)
        fixed = sum(len(a.comparison.fixed) for a in audits if a.comparison)
        against = f" since build {self.baseline_build}" if self.baseline_build else (" (no earlier build: every finding is new)" if self.since else "")
        terminalreporter.section("auditd")
        terminalreporter.write_line(
            f"{len(audits)} screens audited ({sum(a.visits for a in audits)} visits){against}: {new} new, {regressed} regressed, {fixed} fixed")
        for audit, finding in self.failing():
            terminalreporter.write_line(f"  {audit.name}: {finding.severity}: [{finding.rule}] {finding.message} ({finding.where})")
        for audit in audits:
            if audit.error:
                terminalreporter.write_line(f"  {audit.name}: not audited: {audit.error}")
        if self.html_path:
            terminalreporter.write_line(f"auditd report: {self.html_path}")

    @property
    def html_path(self) -> Optional[str]:
        explicit = self.config.getoption("--auditd-html")
        if explicit:
            return explicit
        junit = getattr(self.config.option, "xmlpath", None)  # --junitxml
        if junit:
            return os.path.splitext(junit)[0] + ".auditd.html"
        return "auditd-report.html"

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus) -> None:
        self.unwatch()
        audits = list(self.auditor.screens.values())
        if self.html_path:
            write_html(self.html_path, audits, app=self.auditor.app, build=self.auditor.build, against=self.baseline_build, gate=self.gate)
        failing = self.failing()
        not_audited = [a for a in audits if a.error]
        if (failing or not_audited) and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_configure(config: pytest.Config) -> None:
    if not config.getoption("--auditd-app", None):
        return
    try:
        plugin = AuditdPlugin(config)
    except DaemonError as error:
        raise pytest.UsageError(f"auditd: {error}") from error
    plugin.watch_drivers()
    config.pluginmanager.register(plugin, "auditd-run")


@pytest.fixture
def auditd(request: pytest.FixtureRequest) -> AppiumAuditor:
    """The run's auditor: `auditd.audit_screen(driver, "Cart")` audits one screen now."""
    plugin = request.config.pluginmanager.get_plugin("auditd-run")
    if plugin is None:
        pytest.skip("auditd: give --auditd-app to audit screens")
    return plugin.auditor


__all__ = ["AuditdPlugin", "SEVERITIES"]
