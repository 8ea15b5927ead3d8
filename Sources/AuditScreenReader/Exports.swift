// The screen reader's model reads the snapshot model.
@_exported import AuditModel
