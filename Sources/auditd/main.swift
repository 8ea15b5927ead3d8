print("auditd")
