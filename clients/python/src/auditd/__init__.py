"""auditd's Python client: the daemon over its socket, an Appium hook that audits every
screen a test visits, and a pytest plugin (`pytest -p auditd --auditd-app APP`).
Standard library only; the hook needs Appium-Python-Client (or Selenium), the plugin pytest."""

from .appium import AppiumAuditor, ScreenAudit
from .client import Client, DaemonError, DaemonUnreachable, default_socket
from .report import AuditReport, Baseline, Comparison, Finding, Incomplete, Transcript
from .screens import digest, location

__all__ = [
    "AppiumAuditor", "AuditReport", "Baseline", "Client", "Comparison", "DaemonError", "DaemonUnreachable", "Finding", "Incomplete",
    "ScreenAudit", "Transcript", "default_socket", "digest", "location",
]
__version__ = "0.1.0"
