"""The pytest plugin end to end: the example Appium suite (the one docs/appium.md shows),
driven through the real Appium-Python-Client against a fake W3C WebDriver server serving
real captures, audited by the real daemon — installed with pip as users install it.

Build 1 records the screens; build 2 adds a button with no name and the session fails on the
new finding; build 3 takes it away and passes, the finding fixed."""

from __future__ import annotations

import json
import os
import re
import shutil
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest
from conftest import HERE, HOME, NETWORK, binaries, capture
from fake_appium import FakeAppium

PACKAGE = HERE.parent
SUITE = PACKAGE / "examples" / "appium_suite"
# Build 2's mistake: a share button with no name, added at the top of the screen.
SHARE = ('<node index="9" text="" resource-id="com.example.logisticsmobile:id/share" class="android.widget.ImageButton" '
         'package="com.example.logisticsmobile" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" '
         'focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" '
         'bounds="[300,60][348,108]" />')


def with_share_button(xml: str) -> str:
    """The page source with the unnamed button as the first child of the app's root."""
    edited, count = re.subn(r"(<hierarchy[^>]*><node[^>]*[^/]>)", lambda m: m.group(1) + SHARE, xml, count=1)
    assert count == 1
    return edited


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> pathlib.Path:
    """`pip install ./clients/python` into a directory of its own (no network: no build isolation)."""
    target = tmp_path_factory.mktemp("site")
    # Built from a copy: setuptools writes its build files beside the sources.
    source = tmp_path_factory.mktemp("source") / "python"
    shutil.copytree(PACKAGE, source, ignore=shutil.ignore_patterns("tests", "examples", "build", "*.egg-info", "__pycache__"))
    run = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--target", str(target), str(source)],
        capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    return target


def suite(installed, daemon, tmp_path, build: str, home_xml: str, *options: str) -> tuple[subprocess.CompletedProcess, FakeAppium, pathlib.Path]:
    home_png = capture(HOME)[1]
    network_xml, network_png = capture(NETWORK)
    fake = FakeAppium(
        screens={"home": (home_xml, home_png, "com.example.logisticsmobile.MainActivity"),
                 "network": (network_xml, network_png, "com.free4g.NetworkTypeActivity")},
        links={"home": {"open-network": "network"}}, start="home").start()
    out = tmp_path / f"build-{build}"
    out.mkdir()
    try:
        env = dict(os.environ, APPIUM_URL=fake.url, PYTHONPATH=str(installed), PYTHONDONTWRITEBYTECODE="1")
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "auditd", "-p", "no:cacheprovider", "-q", str(SUITE), "--rootdir", str(SUITE),
             "--auditd-app", "warehouse", "--auditd-build", build, "--auditd-socket", daemon.socket,
             "--junitxml", str(out / "junit.xml"), *options],
            capture_output=True, text=True, env=env, cwd=out, timeout=300)
    finally:
        fake.stop()
    return run, fake, out


def audits_of(daemon, build: str) -> list[dict]:
    records = [json.loads(line) for line in open(daemon.journal, encoding="utf-8")]
    return [r for r in records if r.get("type") == "audit" and r.get("build") == build]


def test_each_screen_once_a_new_finding_fails_and_its_fix_passes(installed, daemon, tmp_path):
    home, _ = capture(HOME)

    captures = tmp_path / "captures"
    first, fake, out = suite(installed, daemon, tmp_path, "1", home, "--auditd-fail-on", "never", "--auditd-captures", str(captures))
    assert first.returncode == 0, first.stdout + first.stderr
    # Home shown three times (each test's start, and after back), the network dialog twice;
    # the clock ticked on every read: each screen audited once, named by its first test and
    # its activity.
    screens = sorted(a["screen"] for a in audits_of(daemon, "1"))
    assert screens == ["test_warehouse.py::test_open_network_settings / MainActivity",
                       "test_warehouse.py::test_open_network_settings / NetworkTypeActivity"], screens
    assert fake.commands.count("GET source") >= 5
    assert "2 screens audited (5 visits)" in first.stdout, first.stdout
    assert (out / "junit.auditd.html").exists()
    # The screens kept, as auditctl reads them (SARIF for code scanning, in docs/appium.md's job).
    assert sorted(p.name for p in captures.iterdir()) == [
        "test_warehouse.py_test_open_network_settings_MainActivity.png", "test_warehouse.py_test_open_network_settings_MainActivity.xml",
        "test_warehouse.py_test_open_network_settings_NetworkTypeActivity.png", "test_warehouse.py_test_open_network_settings_NetworkTypeActivity.xml"]
    sarif = subprocess.run([str(binaries() / "auditctl"), "--socket", daemon.socket, "audit", "--format", "sarif", "--fail-on", "never", str(captures)],
                           capture_output=True, text=True)
    assert sarif.returncode == 0, sarif.stderr
    assert len(json.loads(sarif.stdout)["runs"][0]["results"]) > 0

    # Build 2: a share button with no name. New against build 1: the session fails.
    second, _, out = suite(installed, daemon, tmp_path, "2", with_share_button(home), "--auditd-since-build", "latest")
    assert second.returncode == 1, second.stdout + second.stderr
    assert "since build 1:" in second.stdout and "[label.missing]" in second.stdout, second.stdout
    assert "2 passed" in second.stdout, "the tests themselves passed; the audit failed the session"
    junit = ElementTree.parse(out / "junit.xml").getroot()
    properties = {(case.get("name"), p.get("name")): p.get("value") for case in junit.iter("testcase") for p in case.iter("property")}
    assert int(properties[("test_open_network_settings", "auditd_new")]) >= 1, properties
    assert int(properties[("test_open_network_settings", "auditd_screens")]) == 2, properties
    page = (out / "junit.auditd.html").read_text(encoding="utf-8")
    assert "label.missing" in page and "fails." in page and "against build 1" in page

    # Build 3: the button is gone. Against build 2 nothing is new; its findings are fixed.
    third, _, out = suite(installed, daemon, tmp_path, "3", home, "--auditd-since-build", "latest")
    assert third.returncode == 0, third.stdout + third.stderr
    assert "since build 2:" in third.stdout and "0 new, 0 regressed" in third.stdout, third.stdout
    fixed = int(third.stdout.split(" fixed")[0].rsplit(" ", 1)[-1])
    assert fixed >= 1, third.stdout
    assert "passes." in (out / "junit.auditd.html").read_text(encoding="utf-8")
