// The engine runs a rule set over a snapshot and returns its report.
@_exported import AuditReporting
