// Rules read the model's snapshots and answer in its terms.
@_exported import AuditModel
// Rules that judge what is heard read the screen reader's transcript.
@_exported import AuditScreenReader
