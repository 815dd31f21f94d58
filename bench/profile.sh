#!/usr/bin/env bash
# Where one call's time goes at benchmark load: starts the server over the store bench/run.sh
# seeded (run it first at the same size), drives PATH with wrk as bench/run.sh does, samples
# the server with perf meanwhile, and prints how much CPU the server and the load generator
# took and the server's hottest functions (self time).
#
# Usage: bench/profile.sh [MARKETS] [PATH] [SECONDS] [CONCURRENCY]
#        (defaults: 1000000, /api/v1/markets, 15, 32)
# Needs: perf and wrk (Debian's linux-perf and wrk), curl, python3.
set -euo pipefail
markets=${1:-1000000}
path=${2:-/api/v1/markets}
duration=${3:-15}
concurrency=${4:-32}
seed=${MARKETLENS_BENCH_SEED:-1}
port=${MARKETLENS_BENCH_PORT:-18091}
cd "$(dirname "$0")/.."

store="target/bench/synthetic-$markets-seed$seed.db"
if [ ! -f "$store.seeded" ]; then
  echo "profile: no seeded store at $store; run bench/run.sh $markets first" >&2
  exit 1
fi
for tool in perf wrk; do
  command -v "$tool" >/dev/null || { echo "profile: $tool is missing" >&2; exit 1; }
done
# Kernel samples (the system-call share) need perf_event_paranoid <= 1, or root.
if [ "$(id -u)" -ne 0 ] && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 1 ]; then
  echo "profile: perf needs root or kernel.perf_event_paranoid <= 1 (sysctl) to sample the kernel" >&2
  exit 1
fi
cargo build --release --quiet --bin marketlens
bin=target/release/marketlens
export MARKETLENS_DATABASE_URL="sqlite://$store"
export MARKETLENS_TIER_LIMITS="bench=1000000000"
# The catalogue load at start-up reads the store in long pages, which sqlx logs as slow.
export RUST_LOG=warn,sqlx=error
key=$("$bin" accounts create --tier bench --credits 1000000000 --label profile | awk '/^api key/ {print $3}')

workdir=$(mktemp -d)
profile=target/bench/profile.perf.data # kept for `perf report -i` after the run
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$workdir"; }
trap cleanup EXIT
"$bin" serve --no-sync --news-window-days 36525 --bind "127.0.0.1:$port" &
server=$!
base="http://127.0.0.1:$port"
deadline=$((SECONDS + 900))
until curl -sf "$base/readyz" | python3 -c 'import json, sys; sys.exit(0 if json.load(sys.stdin)["catalog"]["inMemory"] else 1)' 2>/dev/null; do
  kill -0 "$server" 2>/dev/null || { echo "profile: the server stopped" >&2; exit 1; }
  [ "$SECONDS" -lt "$deadline" ] || { echo "profile: the catalogue did not load in 15 minutes" >&2; exit 1; }
  sleep 0.5
done
# Warm up, and measure without the profiler: sampling with stacks costs the server time.
wrk -t2 -c"$concurrency" -d3s -H "Authorization: Bearer $key" "$base$path" >/dev/null
wrk -t2 -c"$concurrency" -d"${duration}s" --latency -H "Authorization: Bearer $key" "$base$path" >"$workdir/unprofiled.txt"

cpu_seconds() { # utime + stime of a process, in seconds
  awk -v ticks="$(getconf CLK_TCK)" '{print ($14 + $15) / ticks}' "/proc/$1/stat"
}
server_before=$(cpu_seconds "$server")
machine_before=$(awk '/^cpu / {print $2 + $3 + $4 + $7 + $8}' /proc/stat)
perf record -F 199 --call-graph dwarf,16384 -p "$server" -o "$profile" -- sleep "$duration" 2>"$workdir/perf.log" &
profiler=$!
wrk -t2 -c"$concurrency" -d"${duration}s" --latency -H "Authorization: Bearer $key" "$base$path" >"$workdir/wrk.txt"
wait "$profiler" || { echo "profile: perf failed:" >&2; cat "$workdir/perf.log" >&2; exit 1; }
server_after=$(cpu_seconds "$server")
machine_after=$(awk '/^cpu / {print $2 + $3 + $4 + $7 + $8}' /proc/stat)

echo "== $path at concurrency $concurrency over $markets markets, ${duration}s, without and with the profiler"
for run in unprofiled wrk; do
  grep -E "Requests/sec|^\s+(50|99)%" "$workdir/$run.txt" | tr -s ' ' | tr '\n' ' '
  echo
done
python3 - "$server_before" "$server_after" "$machine_before" "$machine_after" "$duration" "$(nproc)" "$(getconf CLK_TCK)" <<'PY'
import sys
server_before, server_after, machine_before, machine_after, duration = map(float, sys.argv[1:6])
cores, ticks = int(sys.argv[6]), int(sys.argv[7])
server = (server_after - server_before) / duration
machine = (machine_after - machine_before) / ticks / duration
print(f"busy cores: {machine:.2f} of {cores}; the server {server:.2f}, the rest (wrk, perf, others) {machine - server:.2f}")
PY
echo "== where the server's time goes (share of its samples, with all it calls)"
perf report -i "$profile" --children --sort symbol --stdio -g none --percent-limit 0.5 2>/dev/null |
  python3 -c '
import re, sys
parts = [
    ("all request handling (the middleware stack)", r"marketlens_api::telemetry::track"),
    ("the handler: " + sys.argv[1], r"marketlens_api::routes::[a-z_]+::[a-z_]+::\{async_fn#0\}"),
    ("  of which the JSON body", r"marketlens_api::views::json_response"),
    ("  of which the catalogue", r"marketlens_catalog::"),
    ("key check (cached)", r"\] marketlens_api::key_cache::KeyCache::lookup"),
    ("rate limit and its headers", r"\] marketlens_api::(rate_limit::|auth::add_rate_limit_headers)"),
    ("charging: the request waiting for its charge", r"\] marketlens_api::billing::charger::Charger::charge"),
    ("charging: the batch writer task (charges and ledger lines)", r"marketlens_api::billing::charger::write_batches"),
    ("the store: sqlx SQLite worker threads (mostly those writes)", r"sqlx_sqlite::connection::worker"),
    ("HTTP/1 connection handling (hyper)", r"hyper::proto::h1::dispatch::Dispatcher<D,Bs,I,T>::poll_catch"),
    ("system calls (kernel: sockets, futexes, scheduling)", r"\[k\] do_syscall_64"),
]
best = {}
for line in sys.stdin:
    match = re.match(r"\s+([\d.]+)%\s+[\d.]+%\s+(.*)", line)
    if not match:
        continue
    share, symbol = float(match.group(1)), match.group(2)
    for label, pattern in parts:
        if re.search(pattern, line):
            best[label] = max(best.get(label, 0.0), share)
for label, _ in parts:
    share = best.get(label, 0.0)
    print("%7s  %s" % ("%.1f%%" % share if share else "<0.5%", label))
' "$path" || true
echo "== hottest functions by self time"
perf report -i "$profile" --no-children --sort symbol --stdio -g none --percent-limit 1.5 2>/dev/null |
  grep -E "^\s+[0-9.]+%" | sed -E 's/ {2,}/  /g; s/  -  -\s*$//' | cut -c1-160 | head -15 || true
echo "== by shared object"
perf report -i "$profile" --no-children --sort dso --stdio -g none --percent-limit 1 2>/dev/null |
  grep -E "^\s+[0-9.]+%" | sed -E 's/ {2,}/  /g' | head -8 || true
