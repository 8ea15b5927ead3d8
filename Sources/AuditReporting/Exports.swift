// Reports are made of the rules' findings over the model, and describe rule sets.
@_exported import AuditRuleSets
