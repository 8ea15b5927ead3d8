#!/usr/bin/env bash
# Starts a ClickHouse server of your own to try the fleet's history (docs/DEPLOYMENT.md):
# its data in DIR, listening on 127.0.0.1:PORT (clickhouse-client --port PORT), detached,
# its pid in DIR/server.pid; waits until it answers. Needs Debian's clickhouse-server and
# clickhouse-client packages (scripts/setup installs them), no root and no service.
# Stop it with: kill "$(cat DIR/server.pid)"
#
#   Deploy/clickhouse/local-server.sh DIR [PORT]
set -euo pipefail
dir=${1:?usage: local-server.sh DIR [PORT]}
port=${2:-9000}
case "$port" in *[!0-9]*) echo "local-server.sh: PORT is a number" >&2; exit 2 ;; esac
mkdir -p "$dir/data" "$dir/tmp" "$dir/files"
dir=$(cd "$dir" && pwd)
server=$(command -v clickhouse-server || ls /usr/sbin/clickhouse-server /usr/bin/clickhouse-server 2>/dev/null | head -1 || true)
[ -n "$server" ] || { echo "local-server.sh: clickhouse-server is not installed (apt-get install clickhouse-server clickhouse-client)" >&2; exit 1; }
cat > "$dir/config.xml" <<XML
<?xml version="1.0"?>
<yandex>
    <logger><level>warning</level><console>1</console></logger>
    <tcp_port>$port</tcp_port>
    <listen_host>127.0.0.1</listen_host>
    <path>$dir/data/</path>
    <tmp_path>$dir/tmp/</tmp_path>
    <user_files_path>$dir/files/</user_files_path>
    <users_config>/etc/clickhouse-server/users.xml</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <mark_cache_size>5368709</mark_cache_size>
</yandex>
XML
# Detached (--daemon), its output nowhere: whoever started it never waits on it.
(cd "$dir" && "$server" --daemon --pid-file="$dir/server.pid" --config-file="$dir/config.xml" > /dev/null 2>&1 < /dev/null)
for _ in $(seq 1 300); do
    if [ "$(clickhouse-client --port "$port" -q 'SELECT 1' 2>/dev/null)" = 1 ]; then
        echo "local-server.sh: ClickHouse answers on 127.0.0.1:$port (clickhouse-client --port $port); stop it with: kill \$(cat $dir/server.pid)" >&2
        exit 0
    fi
    sleep 0.1
done
echo "local-server.sh: ClickHouse did not answer on port $port within 30 s" >&2
exit 1
