"""docs/appium.md's examples run: its Python suite is the one the plugin's test drives, and its
JavaScript and Java calls audit a real capture through the daemon."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest
from conftest import HOME, ROOT, SCREENS

DOC = (ROOT / "docs" / "appium.md").read_text(encoding="utf-8")
SUITE = ROOT / "clients" / "python" / "examples" / "appium_suite"


def blocks(language: str) -> list[str]:
    return re.findall(r"```" + language + r"\n(.*?)```", DOC, flags=re.S)


def test_the_python_example_is_the_suite_the_tests_run():
    python = blocks("python")
    assert python[0] == "# conftest.py\n" + (SUITE / "conftest.py").read_text(encoding="utf-8")
    assert python[1] == "# test_warehouse.py\n" + (SUITE / "test_warehouse.py").read_text(encoding="utf-8")


@pytest.mark.parametrize("language, command", [("js", ["node", "audit-screen.js"]), ("java", ["java", "AuditScreen.java"])])
def test_the_http_examples_audit_a_real_capture(language, command, daemon, tmp_path):
    (code,) = blocks(language)
    assert shutil.which(command[0]), f"{command[0]} is needed (scripts/setup installs it)"
    (tmp_path / command[1]).write_text(code, encoding="utf-8")
    run = subprocess.run(command + [str(SCREENS / f"{HOME}.xml"), str(SCREENS / f"{HOME}.png")], cwd=tmp_path,
                         env=dict(os.environ, AUDITD_SOCKET=daemon.socket), capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    found = re.search(r"^(\d+) findings$", run.stdout, flags=re.M)
    assert found and int(found.group(1)) > 0, run.stdout
    if language == "js":
        assert "[contrast.text]" in run.stdout, "colours read from the screenshot sent"
