#!/usr/bin/env bash
# dptest against polars + scipy and pandas + scipy on the same CSV files, whole process,
# back to back, best of ROUNDS (docs/benchmarks.md, "Against polars and pandas").
#
#   python3 scripts/make_large.py --rows 10000000 --out /tmp/anyn
#   cargo build --release -p dptest-cli
#   benches/peers/csv_vs_peers.sh /tmp/anyn [PYTHON] [ROUNDS]
#
# PYTHON (default python3) needs scipy, polars, pandas and pyarrow. Prints one line per job:
# the best wall time, its peak RSS, and the ratio of each peer to the private dptest run.
set -euo pipefail
dir=${1:?usage: csv_vs_peers.sh DIR [PYTHON] [ROUNDS]}
python=${2:-python3}
rounds=${3:-2}
here=$(cd "$(dirname "$0")" && pwd)
dptest=${DPTEST:-$here/../../target/release/dptest}

best() { # best wall time and its peak RSS (KB) over the rounds: "SECONDS KB"
  local out best_line="" log
  log=$(mktemp)
  for _ in $(seq "$rounds"); do
    /usr/bin/time -o "$log" -f "%e %M" "$@" >/dev/null 2>&1
    out=$(tail -1 "$log")
    if [ -z "$best_line" ] || awk -v a="$out" -v b="$best_line" 'BEGIN{split(a,x," ");split(b,y," ");exit !(x[1]<y[1])}'; then
      best_line=$out
    fi
  done
  rm -f "$log"
  echo "$best_line"
}

job() { # name, then the private, public and peer commands' argument strings
  local name=$1 private public polars pandas
  private=$(best $2); public=$(best $3)
  polars=$(best "$python" "$here/csv_tests.py" "$4" polars "$5")
  pandas=$(best "$python" "$here/csv_tests.py" "$4" pandas "$5")
  awk -v n="$name" -v a="$private" -v b="$public" -v c="$polars" -v d="$pandas" 'BEGIN{
    split(a,p," "); split(b,q," "); split(c,r," "); split(d,s," ");
    printf "%s: private %.2f s %d MB | public %.2f s %d MB | polars+scipy %.2f s %d MB (%.2fx) | pandas+scipy %.2f s %d MB (%.2fx)\n",
      n, p[1], p[2]/1024, q[1], q[2]/1024, r[1], r[2]/1024, r[1]/p[1], s[1], s[2]/1024, s[1]/p[1] }'
}

uptime
job "kruskal-wallis" \
  "$dptest kruskal-wallis --input $dir/grouped.csv --group group --value value --groups A,B,C --epsilon 1" \
  "$dptest kruskal-wallis --input $dir/grouped.csv --group group --value value --public" \
  kruskal "$dir/grouped.csv"
job "wilcoxon" \
  "$dptest wilcoxon --input $dir/paired.csv --before before --after after --epsilon 1" \
  "$dptest wilcoxon --input $dir/paired.csv --before before --after after --public" \
  wilcoxon "$dir/paired.csv"
