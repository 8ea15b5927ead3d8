/// The version of auditd, auditctl and the AuditCore library.
public enum AuditCoreVersion {
    public static let string = "0.1.0"
}
