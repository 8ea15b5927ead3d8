// Parsing builds the model's snapshots: its clients use the model.
@_exported import AuditModel
