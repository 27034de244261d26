#!/usr/bin/env bash
# Starts or stops a throwaway PostgreSQL server (Debian's package) for the test suite,
# on 127.0.0.1 only, in a temporary folder.
#   start  prints the connection URL on stdout (the folder is in $PG_TEST_DIR or a new one)
#   stop   stops the server started in $PG_TEST_DIR and removes the folder
set -euo pipefail

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bindir" ]; then
  echo "PostgreSQL is not installed (run scripts/install-system-deps.sh)" >&2
  exit 1
fi

# PostgreSQL refuses to run as root; run it as the package's postgres user then.
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
  start)
    dir=${PG_TEST_DIR:-$(mktemp -d /tmp/ownvoice-pg.XXXXXX)}
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
    port=${PG_TEST_PORT:-$(( 40000 + RANDOM % 20000 ))}
    as_pg "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
    as_pg "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
      start >/dev/null
    echo "$dir" > "$dir/.dir"
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    dir=${PG_TEST_DIR:?set PG_TEST_DIR to the folder printed by start}
    if [ -d "$dir/data" ]; then
      as_pg "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
