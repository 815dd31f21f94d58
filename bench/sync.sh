#!/usr/bin/env bash
# Sync throughput: a full `marketlens sync` of both exchanges from the replay server (the
# recorded payloads, repeated COPIES times with fresh ids; a walk reaches the 258 markets per
# copy nested in events, as on the real APIs) over loopback, release build,
# SQLite. Prints markets normalized and stored per second and the sync's peak memory.
#
# Usage: bench/sync.sh [COPIES]     (default 200: the walks reach 51,600 markets and 62,600 events)
set -euo pipefail
copies=${1:-200}
port=${MARKETLENS_BENCH_REPLAY_PORT:-18090}
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin marketlens --bin marketlens-replay
workdir=$(mktemp -d)
replay=""
cleanup() { [ -n "$replay" ] && kill "$replay" 2>/dev/null; rm -rf "$workdir"; }
trap cleanup EXIT

target/release/marketlens-replay --port "$port" --copies "$copies" > "$workdir/replay.log" 2>&1 &
replay=$!
for _ in $(seq 600); do grep -q "kalshi" "$workdir/replay.log" 2>/dev/null && break; sleep 0.1; done

export MARKETLENS_DATABASE_URL="sqlite://$workdir/sync.db"
export MARKETLENS_POLYMARKET_URL="http://127.0.0.1:$port/polymarket"
export MARKETLENS_KALSHI_URL="http://127.0.0.1:$port/kalshi/trade-api/v2"
export MARKETLENS_POLYMARKET_PAGE_SIZE=500 MARKETLENS_KALSHI_PAGE_SIZE=200
export MARKETLENS_POLYMARKET_RPS=1000 MARKETLENS_KALSHI_RPS=1000 RUST_LOG=error

/usr/bin/time -v target/release/marketlens sync --full > "$workdir/sync.out" 2> "$workdir/time.out"
cat "$workdir/sync.out"
python3 - "$workdir/sync.out" "$workdir/time.out" <<'PY'
import re, sys
summary, timing = open(sys.argv[1]).read(), open(sys.argv[2]).read()
markets = sum(int(n) for n in re.findall(r"markets (\d+) new", summary))
events = sum(int(n) for n in re.findall(r"events (\d+) new", summary))
seconds = sum(float(s) for s in re.findall(r"errors; ([\d.]+) s", summary))
wall = timing.split("Elapsed (wall clock) time (h:mm:ss or m:ss): ")[1].split()[0]
rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", timing).group(1))
print(f"{markets:,} markets and {events:,} events in {seconds:.1f} s of sync "
      f"({markets / seconds:,.0f} markets/s normalized and stored); wall {wall} including the final rematch; "
      f"peak memory {rss_kb / 1024:.0f} MiB")
PY
