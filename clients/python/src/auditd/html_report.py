"""The run's HTML report: one self-contained page — each screen the tests showed, the test
that first showed it, its findings with their state against the baseline build, and the
ones fixed since."""

from __future__ import annotations

import html
from typing import Iterable, Optional

from .appium import ScreenAudit
from .report import at_least


def _row(finding, state: str, gate: str) -> str:
    failing = state in ("new", "regressed") and at_least(finding.severity, gate)
    return (f'<tr class="{html.escape(finding.severity)}{" failing" if failing else ""}"><td>{html.escape(state)}</td>'
            f"<td>{html.escape(finding.severity)}</td><td><code>{html.escape(finding.rule)}</code></td>"
            f"<td>{html.escape(finding.message)}</td><td>{html.escape(finding.where)}</td></tr>")


def render(audits: Iterable[ScreenAudit], *, app: str, build: Optional[str], against: Optional[str], gate: str) -> str:
    audits = list(audits)
    title = f"Accessibility of {app}" + (f" build {build}" if build else "")
    failing = sum(len(audit.failing(gate)) for audit in audits)
    out = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">', f"<title>{html.escape(title)}</title>",
        "<style>body{font:15px/1.4 system-ui,sans-serif;margin:2rem;color:#1a1a1a}table{border-collapse:collapse;width:100%}"
        "th,td{border-bottom:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}"
        ".failing td:first-child{font-weight:bold;color:#a00000}.verdict{font-size:1.1rem}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f'<p class="verdict">{len(audits)} screens audited' + (f" against build {html.escape(against)}" if against else "")
        + f": {failing} new or regressed findings at {html.escape(gate)} or above — {'fails' if failing else 'passes'}.</p>",
    ]
    for index, audit in enumerate(audits):
        out.append(f'<section aria-labelledby="screen-{index}"><h2 id="screen-{index}">{html.escape(audit.name)}</h2>')
        out.append(f"<p>First shown by <code>{html.escape(audit.test or '—')}</code>, seen {audit.visits} times.</p>")
        if audit.error:
            out.append(f"<p>Not audited: {html.escape(audit.error)}</p></section>")
            continue
        rows = []
        if audit.comparison is not None:
            for state, findings in (("new", audit.comparison.new), ("regressed", audit.comparison.regressed),
                                    ("unchanged", audit.comparison.unchanged), ("fixed", audit.comparison.fixed)):
                rows += [_row(finding, state, gate) for finding in findings]
        else:
            rows = [_row(finding, "new", gate) for finding in audit.report.findings]
        if rows:
            out.append(f'<table aria-labelledby="screen-{index}"><thead><tr><th scope="col">state</th><th scope="col">severity</th>'
                       '<th scope="col">rule</th><th scope="col">message</th><th scope="col">element</th></tr></thead><tbody>')
            out += rows
            out.append("</tbody></table>")
        else:
            out.append("<p>No findings.</p>")
        out.append("</section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def write_html(path: str, audits: Iterable[ScreenAudit], **details) -> None:
    with open(path, "w", encoding="utf-8") as file:
        file.write(render(audits, **details))
