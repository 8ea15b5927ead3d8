"""The daemon's answers as typed values (docs/findings.md, docs/transcripts.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

SEVERITIES = ("notice", "warning", "error")


def at_least(severity: str, gate: str) -> bool:
    """Whether `severity` is at or above `gate` (`never`: nothing is)."""
    if gate == "never":
        return False
    return SEVERITIES.index(severity) >= SEVERITIES.index(gate)


@dataclass(frozen=True)
class Finding:
    """One finding: its rule and result, severity, where it is, what it says, and the
    fingerprint that keeps its identity from build to build."""

    rule: str
    severity: str
    message: str
    fingerprint: str
    result: Optional[str] = None
    element: Optional[str] = None
    path: Optional[str] = None
    line: Optional[int] = None
    column: Optional[int] = None
    frame: Optional[tuple] = None
    wcag: tuple = ()
    defect: Optional[str] = None
    evidence: dict = field(default_factory=dict, hash=False, compare=False)

    @classmethod
    def from_json(cls, item: dict) -> "Finding":
        return cls(
            rule=item["rule"], severity=item["severity"], message=item.get("message", ""), fingerprint=item.get("fingerprint", ""),
            result=item.get("result"), element=item.get("element"), path=item.get("path"), line=item.get("line"),
            column=item.get("column"), frame=tuple(item["frame"]) if item.get("frame") else None, wcag=tuple(item.get("wcag", ())),
            defect=item.get("defect"), evidence=item.get("evidence") or {})

    @property
    def where(self) -> str:
        """The element as a person finds it: its id, else its path."""
        return self.element or self.path or "the screen"


@dataclass(frozen=True)
class Incomplete:
    """A check that could not judge, and why."""

    rule: str
    reason: str
    element: Optional[str] = None


@dataclass
class AuditReport:
    """The daemon's report of one snapshot."""

    audit: str
    app: Optional[str]
    build: Optional[str]
    screen: Optional[str]
    platform: Optional[str]
    ruleset: str
    findings: list[Finding]
    incomplete: list[Incomplete]
    summary: dict
    raw: dict = field(repr=False)

    @classmethod
    def from_json(cls, answer: dict) -> "AuditReport":
        snapshot = answer.get("snapshot") or {}
        return cls(
            audit=answer.get("audit", ""), app=snapshot.get("app"), build=snapshot.get("build"), screen=snapshot.get("screen"),
            platform=snapshot.get("platform"), ruleset=answer.get("ruleset", ""),
            findings=[Finding.from_json(item) for item in answer.get("findings", [])],
            incomplete=[Incomplete(item.get("rule", ""), item.get("reason", ""), item.get("element")) for item in answer.get("incomplete", [])],
            summary=answer.get("summary", {}), raw=answer)

    def at_least(self, gate: str) -> list[Finding]:
        return [finding for finding in self.findings if at_least(finding.severity, gate)]


@dataclass
class Transcript:
    """What the screen reader says, stop by stop."""

    reader: str
    stops: list[dict]
    raw: dict = field(repr=False)

    @classmethod
    def from_json(cls, answer: dict) -> "Transcript":
        return cls(reader=answer.get("reader", ""), stops=answer.get("stops", []), raw=answer)

    @property
    def speech(self) -> list[str]:
        return [stop.get("speech", "") for stop in self.stops]


@dataclass
class Comparison:
    """One audit against its screen in the baseline build: new, regressed (back from an
    earlier build), unchanged, and the baseline's findings that are gone (fixed)."""

    new: list[Finding]
    regressed: list[Finding]
    unchanged: list[Finding]
    fixed: list[Finding]

    def failing(self, gate: str) -> list[Finding]:
        """What fails the gate: new and regressed findings at or above it."""
        return [finding for finding in self.new + self.regressed if at_least(finding.severity, gate)]


@dataclass
class Baseline:
    """An app's screens as of one build (GET /v1/trends/baseline): each screen's findings
    by fingerprint, and the fingerprints it showed in earlier builds and not in this one."""

    build: Optional[str]
    screens: dict[str, tuple[dict[str, Finding], set[str]]]

    @classmethod
    def from_json(cls, answer: dict) -> "Baseline":
        screens: dict[str, tuple[dict[str, Finding], set[str]]] = {}
        for report in answer.get("reports", []):
            screen = (report.get("snapshot") or {}).get("screen")
            if screen is None:
                continue
            findings = {item["fingerprint"]: Finding.from_json(item) for item in report.get("findings", []) if item.get("fingerprint")}
            screens[screen] = (findings, set(report.get("earlier", [])))
        return cls(build=answer.get("build"), screens=screens)

    def compare(self, report: AuditReport) -> Comparison:
        before, earlier = self.screens.get(report.screen or "", ({}, set()))
        now = {finding.fingerprint for finding in report.findings}
        comparison = Comparison(new=[], regressed=[], unchanged=[], fixed=[])
        for finding in report.findings:
            if finding.fingerprint in before:
                comparison.unchanged.append(finding)
            elif finding.fingerprint in earlier:
                comparison.regressed.append(finding)
            else:
                comparison.new.append(finding)
        comparison.fixed = [finding for fingerprint, finding in before.items() if fingerprint not in now]
        return comparison
