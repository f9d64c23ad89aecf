#!/bin/sh
# Entrypoint of the neo4j:5.26-community stand-in (docker/standins/neo4j.Dockerfile). What it does is what the
# official image documents, in few lines: neo4j.conf from NEO4J_<setting> variables, the initial password from
# NEO4J_AUTH (user/password, or none), then the server in the foreground.
set -eu
home=/var/lib/neo4j
conf=$home/conf/neo4j.conf
{
    echo "server.default_listen_address=0.0.0.0"
    echo "server.directories.data=/data"
    echo "server.directories.logs=/logs"
    echo "server.directories.run=$home/run"
    # NEO4J_server_memory_heap_max__size -> server.memory.heap.max_size ('__' -> '_', then '_' -> '.')
    env | grep '^NEO4J_' | grep -v -E '^NEO4J_(AUTH|HOME|CONF)=' | while IFS='=' read -r name value; do
        key=$(printf '%s' "${name#NEO4J_}" | sed -e 's/__/\x01/g' -e 's/_/./g' -e 's/\x01/_/g')
        printf '%s=%s\n' "$key" "$value"
    done
} > "$conf"

case "${NEO4J_AUTH:-}" in
    none) echo "dbms.security.auth_enabled=false" >> "$conf" ;;
    neo4j/*)
        echo "dbms.security.auth_enabled=true" >> "$conf"
        if [ ! -f /data/dbms/auth.ini ]; then   # only before the first start, as the official image
            NEO4J_CONF=$home/conf java -cp "$home/lib/*" org.neo4j.cli.AdminTool \
                dbms set-initial-password "${NEO4J_AUTH#neo4j/}"
        fi ;;
    "") ;;
    *) echo "NEO4J_AUTH must be neo4j/<password> or none, got a value for another user" >&2; exit 1 ;;
esac

heap_max=$(sed -n 's/^server\.memory\.heap\.max_size=//p' "$conf")
heap_init=$(sed -n 's/^server\.memory\.heap\.initial_size=//p' "$conf")
# shellcheck disable=SC2046  # one JVM flag per line of jvm.flags
exec java ${heap_init:+-Xms$heap_init} ${heap_max:+-Xmx$heap_max} $(cat "$home/jvm.flags") \
    -cp "$home/lib/*" org.neo4j.server.CommunityEntryPoint --home-dir="$home" --config-dir="$home/conf" --console-mode
