// Rule sets configure the rules; their XPath rules read the parsed document.
@_exported import AuditParsing
@_exported import AuditRules
