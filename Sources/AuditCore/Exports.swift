// AuditCore's values (reports, rule parameters, evidence) are made of AuditSupport's JSON,
// byte sinks and globs, so every client of AuditCore sees them too.
@_exported import AuditSupport
