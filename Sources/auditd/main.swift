import AuditDaemonKit
AuditDaemon.main()
