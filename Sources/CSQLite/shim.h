// SQLite 3, from Debian's libsqlite3-dev: the trend index beside the journal
// (Sources/AuditDaemonKit/Trends).
#include <sqlite3.h>
