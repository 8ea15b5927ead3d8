// The model's values (evidence, settings, text) are made of AuditSupport's JSON, byte sinks
// and globs, so every client of the model sees them too.
@_exported import AuditSupport
