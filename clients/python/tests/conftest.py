"""Fixtures: the real auditd (the binaries under test: $AUDITD_BIN_DIR, else the package's
.build/debug) on a socket of its own, and real captures from the repository's fixtures."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

import pytest

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(HERE.parent / "src"))

from auditd import Client  # noqa: E402

SCREENS = ROOT / "Tests" / "Fixtures" / "screens" / "android"
HOME = "Abdirashid10__Warehouse__warehouse_home_360"
NETWORK = "MrMenezes__free4g__network_type_dialog"


def binaries() -> pathlib.Path:
    return pathlib.Path(os.environ.get("AUDITD_BIN_DIR") or ROOT / ".build" / "debug")


def capture(name: str) -> tuple[str, bytes]:
    return (SCREENS / f"{name}.xml").read_text(encoding="utf-8"), (SCREENS / f"{name}.png").read_bytes()


class Daemon:
    """auditd started for one test; a daemon that does not start fails the test."""

    def __init__(self):
        self.directory = pathlib.Path(tempfile.mkdtemp(prefix="auditd-py-"))
        self.socket = str(self.directory / "auditd.sock")
        self.journal = str(self.directory / "findings.jsonl")
        self.log = open(self.directory / "auditd.log", "wb")
        executable = binaries() / "auditd"
        self.process = subprocess.Popen(
            [str(executable), "--socket", self.socket, "--journal", self.journal, "--rules", str(ROOT / "Rules")],
            stdout=self.log, stderr=subprocess.STDOUT)
        client = Client(self.socket, timeout=10)
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                raise AssertionError(f"auditd exited with {self.process.returncode}: {(self.directory / 'auditd.log').read_text()}")
            try:
                client.health()
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise AssertionError(f"auditd did not answer on {self.socket} within 30 s")
                time.sleep(0.05)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)
        self.log.close()
        shutil.rmtree(self.directory, ignore_errors=True)


@pytest.fixture
def daemon():
    running = Daemon()
    yield running
    running.stop()


@pytest.fixture
def client(daemon) -> Client:
    return Client(daemon.socket)
