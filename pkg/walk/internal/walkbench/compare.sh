#!/usr/bin/env bash
# Side-by-side timing of the walker and ripgrep on one tree, robust to a
# shared, noisy machine: ROUNDS rounds, each a hyperfine run of every
# command (so the commands interleave over time), then the median over all
# runs per command and the median of the per-round ratios to the first
# command.
#
# Usage: compare.sh ROUNDS RUNS 'cmd 1' 'cmd 2' ...
# Extra hyperfine options come from $HYPERFINE_OPTS (e.g. -i for rg
# searches that exit 1 when nothing matches).
# Example (from the repository root):
#   go build -o /tmp/walkbench ./pkg/walk/internal/walkbench
#   S=$(go env GOROOT)/src
#   pkg/walk/internal/walkbench/compare.sh 10 10 "rg --files $S" "/tmp/walkbench $S"
set -euo pipefail
rounds=${1:?rounds}; runs=${2:?runs}; shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for r in $(seq 1 "$rounds"); do
  # shellcheck disable=SC2086
  hyperfine -N -w 2 -r "$runs" ${HYPERFINE_OPTS:-} --export-json "$tmp/r$r.json" "$@" >/dev/null 2>>"$tmp/hyperfine.log"
done
python3 - "$tmp" "$rounds" <<'PY'
import json, statistics, sys
d, rounds = sys.argv[1], int(sys.argv[2])
per_cmd, ratios, cpu = {}, {}, {}
order = []
for r in range(1, rounds + 1):
    res = json.load(open(f"{d}/r{r}.json"))["results"]
    base = statistics.median(res[0]["times"])
    for x in res:
        c = x["command"]
        if c not in per_cmd:
            order.append(c); per_cmd[c] = []; ratios[c] = []; cpu[c] = []
        per_cmd[c] += x["times"]
        cpu[c].append(x["user"] + x["system"])
        ratios[c].append(statistics.median(x["times"]) / base)
print(f"{'command':64s} {'runs':>5s} {'median ms':>10s} {'ratio':>6s} {'user+sys ms':>12s}")
for c in order:
    t = per_cmd[c]
    print(f"{c[:64]:64s} {len(t):5d} {statistics.median(t)*1000:10.1f} {statistics.median(ratios[c]):6.2f} {statistics.median(cpu[c])*1000:12.1f}")
print("ratio: median over rounds of (command's median / first command's median); user+sys: median over rounds of hyperfine's mean")
PY
