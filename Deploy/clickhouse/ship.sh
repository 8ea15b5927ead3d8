#!/usr/bin/env bash
# Ships a daemon's new journal records to ClickHouse (docs/DEPLOYMENT.md): asks ClickHouse
# for the last seq it holds from this host, reads the records after it from the daemon
# (GET /v1/findings?since=SEQ, read from the journal's files, rotated ones included), and
# inserts them with the host's name. Run it from a timer (every minute) or after each CI
# job; running it twice ships nothing twice (and the table keeps one row per host and seq).
#
#   Deploy/clickhouse/ship.sh SOCKET HOST [clickhouse-client options…]
set -euo pipefail
socket=$1; host=$2; shift 2
case "$host" in *[!A-Za-z0-9._-]*) echo "ship.sh: HOST may hold letters, digits, . _ - only" >&2; exit 2 ;; esac
since=$(clickhouse-client "$@" -q "SELECT max(seq) FROM auditd.journal WHERE host = '$host'")
batch=$(mktemp)
trap 'rm -f "$batch"' EXIT
curl -sf --unix-socket "$socket" "http://localhost/v1/findings?since=${since:-0}" | sed "s/^{/{\"host\":\"$host\",/" > "$batch"
# Nothing new: nothing to insert (ClickHouse refuses an empty insert).
[ -s "$batch" ] || exit 0
clickhouse-client "$@" --input_format_skip_unknown_fields=1 -q "INSERT INTO auditd.journal FORMAT JSONEachRow" < "$batch"
echo "ship.sh: $(wc -l < "$batch") records from $host after seq ${since:-0}" >&2
