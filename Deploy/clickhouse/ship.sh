#!/usr/bin/env bash
# Ships a journal's new records to ClickHouse (docs/DEPLOYMENT.md), from a running daemon or
# from the journal file alone:
#
#   Deploy/clickhouse/ship.sh SOCKET HOST [clickhouse-client options…]
#   Deploy/clickhouse/ship.sh --journal FILE HOST [clickhouse-client options…]
#
# It learns which journal it ships (its Journal-Id), asks ClickHouse for the last seq it
# holds from this host and that journal, reads the records after it, and inserts them with
# the host's name and the journal's. From a daemon, the records come from GET
# /v1/findings?since=SEQ; from a file (a CI job that kept its journal, a copy from a server,
# a daemon stopped), `auditctl export --journal FILE --since SEQ` reads them through the
# history library every journal reader uses — rotated files included. A new journal (lost,
# begun again at seq 1) is shipped from its beginning; records rotated away before they
# were shipped stop it loudly (exit 1, records-gone on standard error), never skipped in
# silence. Run it from a timer (every minute) or after each CI job; running it twice ships
# nothing twice (and the table keeps one row per host, journal and seq).
set -euo pipefail
from_file=""
if [ "${1:-}" = "--journal" ]; then from_file=$2; shift 2; else socket=$1; shift; fi
host=$1; shift
case "$host" in *[!A-Za-z0-9._-]*) echo "ship.sh: HOST may hold letters, digits, . _ - only" >&2; exit 2 ;; esac
auditctl=${AUDITCTL:-auditctl}
if [ -n "$from_file" ]; then
    journal=$("$auditctl" export --journal "$from_file" --journal-id)
else
    # The journal's identity, from the headers of an answer with nothing in it.
    journal=$(curl -sS --fail-with-body --unix-socket "$socket" -D - -o /dev/null "http://localhost/v1/findings?since=9223372036854775807" \
        | tr -d '\r' | sed -n 's/^[Jj]ournal-[Ii]d: *//p')
fi
case "$journal" in ""|*[!0-9a-f]*) echo "ship.sh: the journal names itself no Journal-Id (an auditd from before journals were named)" >&2; exit 1 ;; esac
since=$(clickhouse-client "$@" -q "SELECT max(seq) FROM auditd.journal WHERE host = '$host' AND journal = '$journal'")
batch=$(mktemp)
trap 'rm -f "$batch"' EXIT
if [ -n "$from_file" ]; then
    if ! "$auditctl" export --journal "$from_file" --since "${since:-0}" > "$batch"; then
        echo "ship.sh: the records after seq ${since:-0} of journal $journal could not be read from $from_file" >&2
        exit 1
    fi
elif ! curl -sS --fail-with-body --unix-socket "$socket" "http://localhost/v1/findings?since=${since:-0}" > "$batch"; then
    echo "ship.sh: the daemon refused the records after seq ${since:-0} of journal $journal:" >&2
    cat "$batch" >&2
    exit 1
fi
sed -i "s/^{/{\"host\":\"$host\",\"journal\":\"$journal\",/" "$batch"
# Nothing new: nothing to insert (ClickHouse refuses an empty insert).
[ -s "$batch" ] || exit 0
clickhouse-client "$@" --input_format_skip_unknown_fields=1 -q "INSERT INTO auditd.journal FORMAT JSONEachRow" < "$batch"
echo "ship.sh: $(wc -l < "$batch") records from $host (journal $journal) after seq ${since:-0}" >&2
