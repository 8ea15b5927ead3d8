-- The journals of a fleet of auditd daemons in one ClickHouse table (docs/DEPLOYMENT.md,
-- "A fleet's history in ClickHouse"). Each line of a journal is one row, as it is
-- (FORMAT JSONEachRow, unknown fields skipped), with the daemon it came from in `host` and
-- the journal in `journal` (its Journal-Id: seq counts per journal, and begins again at 1
-- when a daemon's journal is lost). Tested against ClickHouse 18.16 (Debian 12) by
-- TrendTests.
CREATE DATABASE IF NOT EXISTS auditd;

CREATE TABLE IF NOT EXISTS auditd.journal
(
    host String,
    journal String,
    seq UInt64,
    time String,
    type String,
    audit String,
    app Nullable(String),
    build Nullable(String),
    screen Nullable(String),
    rule Nullable(String),
    severity Nullable(String),
    fingerprint Nullable(String),
    defect Nullable(String),
    path Nullable(String),
    message Nullable(String)
)
ENGINE = ReplacingMergeTree()
ORDER BY (host, journal, seq);
