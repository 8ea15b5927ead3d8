// AuditCore is the whole library as one import: every layer below re-exports the ones it
// builds on (model → parsing → rules → rule sets → reporting → engine; docs/EXTENDING.md).
@_exported import AuditEngine
