#!/usr/bin/env bash
# The GPU check for a session that is lent the NVIDIA H200 device machine (see
# docs/benchmarks.md "GPU engine"). Nothing can be downloaded or compiled from crates.io there,
# so release binaries are built here and carried.
#
#   1. here:   scripts/h200-bench.sh prepare          (builds .device-bin/, fetches .gl/*.deb)
#   2. device: run command "bash scripts/h200-bench.sh run", carry [".gl", ".device-bin"],
#              timeout_s 540; results come back in $OUT (epsilon.txt, bench.json, tables-*, logs).
#   3. copy the numbers into docs/benchmarks.md with the adapter name, then give_back.
#
# The run refuses to report GPU speed when wgpu picked a CPU adapter (llvmpipe).
set -euo pipefail
cd "$(dirname "$0")/.."

prepare() {
  grep -qx '/.gl/' .git/info/exclude 2>/dev/null || echo '/.gl/' >> .git/info/exclude
  grep -qx '/.device-bin/' .git/info/exclude 2>/dev/null || echo '/.device-bin/' >> .git/info/exclude
  mkdir -p .gl .device-bin /tmp/amd64/partial
  local o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
  # shellcheck disable=SC2086
  apt-get $o update -qq
  # shellcheck disable=SC2086
  (cd .gl && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
  cargo build --release -p xtask
  cp target/release/xtask .device-bin/
  cargo test --release -p dptest-refdist-gpu --no-run --message-format=json 2>/dev/null \
    | python3 -c 'import json,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["kind"] == ["test"]:
        print(m["executable"])' \
    | while read -r exe; do cp "$exe" ".device-bin/test-$(basename "$exe" | sed 's/-[0-9a-f]*$//')"; done
  du -sh .gl .device-bin
}

run() {
  : "${OUT:?run this on the device machine (OUT is set there)}"
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
  if [ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]; then
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  fi
  export WGPU_BACKEND=vulkan DPTEST_REQUIRE_GPU=1 XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$(mktemp -d)}
  local bin=.device-bin
  nvidia-smi --query-gpu=name,driver_version --format=csv > "$OUT/gpu.txt" || true
  { for t in "$bin"/test-*; do echo "== $t"; "$t" --test-threads=1; done; } > "$OUT/tests.log" 2>&1
  "$bin/xtask" bench --gpu-epsilon --draws 10000000 > "$OUT/epsilon.txt" 2>&1
  "$bin/xtask" bench --draws 10000000 --json --out "$OUT/bench.json" > "$OUT/bench.log" 2>&1
  for backend in gpu cpu; do
    /usr/bin/time -f "$backend wilcoxon table: %e s" "$bin/xtask" tables --test wilcoxon \
      --reference normal --backend "$backend" --force --out "$OUT/tables-$backend" \
      >> "$OUT/tables.log" 2>&1
    /usr/bin/time -f "$backend KWabs n=1000 g=3: %e s" "$bin/xtask" tables --test kruskal-wallis \
      --n 1000 --groups 3 --epsilon 1 --backend "$backend" --force --out "$OUT/kw-$backend" \
      >> "$OUT/tables.log" 2>&1
  done
  tail -n 3 "$OUT/tests.log" "$OUT/tables.log"
}

case "${1:-}" in
  prepare) prepare ;;
  run) run ;;
  *) echo "usage: $0 prepare|run" >&2; exit 2 ;;
esac
