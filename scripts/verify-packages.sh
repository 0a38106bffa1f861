#!/usr/bin/env bash
# Package every published crate and build each from its tarball alone, reusing the dependency
# artefacts that `cargo test` already compiled (README, "Testing"). Arguments go to
# `cargo package` (`--allow-dirty` to try uncommitted changes).
#
# `cargo package` verifies each tarball in a target directory of its own, compiling every
# dependency a second time. This does the same check in one build: the tarballs are unpacked
# side by side into a scratch workspace whose internal dependencies resolve to the unpacked
# tarballs (never to the checkout), with the checkout's lock file and profiles, and that
# workspace is built into the checkout's target directory, where the dependencies are found
# already compiled. A file left out of a tarball, a path dependency without a version or a
# crate that only builds beside the checkout fails here as it fails under `cargo package`.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo package --workspace --exclude xtask --locked --no-verify "$@"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

members=()
patches=()
for tarball in target/package/*.crate; do
  dir=$(basename "$tarball" .crate)
  tar -xzf "$tarball" -C "$scratch"
  # The tarball's own lock file (a binary crate ships one) would make it a workspace root.
  rm -f "$scratch/$dir/Cargo.lock"
  # Tarballs carry one fixed timestamp: without a fresh one, cargo would take an earlier
  # verification's artefacts for this crate as up to date.
  find "$scratch/$dir" -type f -exec touch {} +
  name=${dir%-*}
  members+=("\"$dir\"")
  patches+=("$name = { path = \"$dir\" }")
done

{
  echo "[workspace]"
  echo "resolver = \"3\""
  echo "members = [$(IFS=,; echo "${members[*]}")]"
  echo
  echo "[patch.crates-io]"
  printf '%s\n' "${patches[@]}"
  echo
  # The checkout's profiles, so that the artefacts `cargo test` compiled are the ones reused.
  sed -n '/^\[profile\./,$p' Cargo.toml
} >"$scratch/Cargo.toml"
cp Cargo.lock "$scratch/Cargo.lock"

CARGO_TARGET_DIR="$PWD/target" cargo build --offline --workspace --manifest-path "$scratch/Cargo.toml"
