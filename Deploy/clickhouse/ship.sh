#!/usr/bin/env bash
# Ships a daemon's new journal records to ClickHouse (docs/DEPLOYMENT.md): asks the daemon
# which journal it writes (Journal-Id), asks ClickHouse for the last seq it holds from this
# host and that journal, reads the records after it from the daemon (GET /v1/findings?since=
# SEQ, read from the journal's files, rotated ones included), and inserts them with the
# host's name and the journal's. A new journal (lost, begun again at seq 1) is shipped from
# its beginning; records rotated away before they were shipped stop it loudly (exit 1, the
# daemon's 410 on standard error), never skipped in silence. Run it from a timer (every
# minute) or after each CI job; running it twice ships nothing twice (and the table keeps
# one row per host, journal and seq).
#
#   Deploy/clickhouse/ship.sh SOCKET HOST [clickhouse-client options…]
set -euo pipefail
socket=$1; host=$2; shift 2
case "$host" in *[!A-Za-z0-9._-]*) echo "ship.sh: HOST may hold letters, digits, . _ - only" >&2; exit 2 ;; esac
# The journal's identity, from the headers of an answer with nothing in it.
journal=$(curl -sS --fail-with-body --unix-socket "$socket" -D - -o /dev/null "http://localhost/v1/findings?since=9223372036854775807" \
    | tr -d '\r' | sed -n 's/^[Jj]ournal-[Ii]d: *//p')
case "$journal" in ""|*[!0-9a-f]*) echo "ship.sh: the daemon at $socket names no journal (Journal-Id) (an auditd from before journals were named)" >&2; exit 1 ;; esac
since=$(clickhouse-client "$@" -q "SELECT max(seq) FROM auditd.journal WHERE host = '$host' AND journal = '$journal'")
batch=$(mktemp)
trap 'rm -f "$batch"' EXIT
if ! curl -sS --fail-with-body --unix-socket "$socket" "http://localhost/v1/findings?since=${since:-0}" > "$batch"; then
    echo "ship.sh: the daemon refused the records after seq ${since:-0} of journal $journal:" >&2
    cat "$batch" >&2
    exit 1
fi
sed -i "s/^{/{\"host\":\"$host\",\"journal\":\"$journal\",/" "$batch"
# Nothing new: nothing to insert (ClickHouse refuses an empty insert).
[ -s "$batch" ] || exit 0
clickhouse-client "$@" --input_format_skip_unknown_fields=1 -q "INSERT INTO auditd.journal FORMAT JSONEachRow" < "$batch"
echo "ship.sh: $(wc -l < "$batch") records from $host (journal $journal) after seq ${since:-0}" >&2
