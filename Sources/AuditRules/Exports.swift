// Rules read the model's snapshots and answer in its terms.
@_exported import AuditModel
