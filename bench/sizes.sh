#!/usr/bin/env bash
# How each call's cost grows with the catalogue (issue 23): bench/run.sh at 10,000, 100,000
# and 1,000,000 markets, one after the other, then one table of every call's rate, p99 and
# share of the same run's ceiling at each size. A call whose share falls as the catalogue
# grows does work in proportion to it.
#
# Usage: bench/sizes.sh [SECONDS] [CONCURRENCY] [SIZES...]   (defaults: 10, 32, 10000 100000 1000000)
# Each size's whole report is kept in target/bench/sizes-N.txt.
set -euo pipefail
duration=${1:-10}
concurrency=${2:-32}
shift $(($# < 2 ? $# : 2))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 100000 1000000)
cd "$(dirname "$0")/.."
mkdir -p target/bench

for size in "${sizes[@]}"; do
  echo "bench: $size markets" >&2
  bench/run.sh "$size" "$duration" "$concurrency" | tee "target/bench/sizes-$size.txt" >&2
done

python3 - "${sizes[@]}" <<'PY'
import re, sys
sizes = sys.argv[1:]
runs = []
for size in sizes:
    rows = []
    for line in open(f"target/bench/sizes-{size}.txt"):
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[1].isdigit():
            rows.append(cells)
    runs.append(rows)
if len({len(rows) for rows in runs}) != 1:
    sys.exit("bench: the runs measured different calls")
print()
print("| call | " + " | ".join(f"{int(size):,} markets: req/s · p99 ms · share" for size in sizes) + " |")
print("|---|" + "---:|" * len(sizes))
for index, first in enumerate(runs[0]):
    # The rare word is chosen per store, and the ceiling's size is the store's page's: the rows
    # are named without them.
    name = re.sub(r"^(search: rare word) \(.*\)$", r"\1", first[0])
    name = re.sub(r"^ceiling: constant \d+-byte body", "ceiling: constant body of a list page's size", name)
    cells = [f"{rows[index][1]} · {rows[index][3]} · {rows[index][5]}" for rows in runs]
    print(f"| {name} | " + " | ".join(cells) + " |")
PY
