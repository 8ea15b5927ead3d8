"""The client against the real daemon over its socket: typed reports, the daemon's errors as
exceptions with its message, transcripts, trends and baselines."""

from __future__ import annotations

import pytest
from conftest import HOME, NETWORK, capture

from auditd import Client, DaemonError, DaemonUnreachable


def test_an_audit_with_its_screenshot_gives_typed_findings(client):
    xml, png = capture(HOME)
    report = client.audit(xml, png, app="warehouse", build="1", screen="Home")
    assert (report.app, report.build, report.screen, report.platform) == ("warehouse", "1", "Home", "android")
    assert report.findings, "the Warehouse home screen has findings"
    contrast = [f for f in report.findings if f.rule == "contrast.text"]
    # Read from the pixels: the screenshot was sent and used.
    assert contrast and all(f.evidence.get("source") == "screenshot" for f in contrast)
    assert all(len(f.fingerprint) == 16 for f in report.findings)
    assert report.summary["error"] == len([f for f in report.findings if f.severity == "error"])


def test_the_daemons_errors_are_exceptions_with_its_message(client):
    with pytest.raises(DaemonError) as raised:
        client.audit("<hierarchy><node", app="warehouse")
    assert raised.value.status == 400 and raised.value.code == "malformed-xml"
    assert "line 1" in str(raised.value) or raised.value.message
    with pytest.raises(DaemonError) as unknown:
        client.audit(capture(HOME)[0], ruleset="nope")
    assert unknown.value.status == 422 and unknown.value.code == "unknown-ruleset"
    with pytest.raises(DaemonUnreachable) as away:
        Client("/nonexistent/auditd.sock").health()
    assert "cannot reach auditd at /nonexistent/auditd.sock" in str(away.value)


def test_transcript_trend_and_baseline(client):
    home, _ = capture(HOME)
    transcript = client.transcript(home, reader="talkback")
    assert transcript.reader == "talkback" and len(transcript.stops) > 2
    assert "Orders Tab 3 of 5, button" in transcript.speech
    xml, png = capture(NETWORK)
    client.audit(xml, png, app="free4g", build="1", screen="Network")
    edited = xml.replace('text="LTE', 'text="5G', 1)
    client.audit(edited, png, app="free4g", build="2", screen="Network")
    trend = client.trend("free4g")
    assert [b["build"] for b in trend["builds"]] == ["1", "2"]
    baseline = client.baseline("free4g", "latest", exclude="2")
    assert baseline.build == "1" and set(baseline.screens) == {"Network"}
    again = client.audit(xml, png, app="free4g", build="3", screen="Network")
    comparison = baseline.compare(again)
    assert not comparison.new and not comparison.regressed and len(comparison.unchanged) == len(again.findings)
    # An app never audited has nothing to compare with: an empty baseline, not an error.
    assert client.baseline("never-seen").screens == {}
