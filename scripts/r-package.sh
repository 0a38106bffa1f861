#!/usr/bin/env bash
# Builds the R package's source tarball (`R CMD build`) into the folder OUT (default: a fresh
# temporary folder), self-contained, and prints the tarball's path.
#
# In the checkout, r/src/rust/Cargo.toml reaches the workspace's crates by path
# (`R CMD INSTALL r` builds them there). A source tarball cannot reach outside itself, so the
# package is staged in a scratch folder with the crates vendored as `cargo package` tarballs
# (workspace fields resolved) under src/rust/vendor/, its manifest pointing there and a
# [patch.crates-io] table resolving their dependencies on each other, then built.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-$(mktemp -d)}")
mkdir -p "$out"

cargo package --workspace --exclude xtask --locked --no-verify --allow-dirty --quiet
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/dptest"
tar -C r --exclude=src/rust/target --exclude='*.o' --exclude='*.so' -cf - . |
  tar -C "$stage/dptest" -xf -
vendor="$stage/dptest/src/rust/vendor"
mkdir -p "$vendor"

# The workspace crates the R library uses: the dptest-* packages of its lock file.
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
used=$(sed -n 's/^name = "\(dptest-[a-z0-9-]*\)"$/\1/p' r/src/rust/Cargo.lock | grep -vx dptest-r)
patches=()
for name in $used; do
  dir="$name-$version"
  tar -xzf "target/package/$dir.crate" -C "$vendor"
  # A tarball's lock file would make it a workspace root; its VCS note is a hidden file,
  # which R CMD check flags.
  rm -f "$vendor/$dir/Cargo.lock" "$vendor/$dir/.cargo_vcs_info.json"
  # Tarballs carry one fixed timestamp: a fresh one, or cargo would take artefacts built from
  # an earlier tarball at the same path as up to date.
  find "$vendor/$dir" -type f -exec touch {} +
  patches+=("$name = { path = \"vendor/$dir\" }")
done
manifest="$stage/dptest/src/rust/Cargo.toml"
sed -E -i "s#path = \"\\.\\./\\.\\./\\.\\./crates/([a-z0-9-]+)\"#path = \"vendor/dptest-\\1-$version\"#" \
  "$manifest"
{
  echo
  echo "[patch.crates-io]"
  printf '%s\n' "${patches[@]}"
} >>"$manifest"

# The vendored manifests list their dev-dependencies, which path dependencies add to the lock
# file: record them (the versions already locked stay as they are).
cargo metadata --format-version 1 --manifest-path "$manifest" >/dev/null

(cd "$out" && R CMD build "$stage/dptest" >&2)
ls "$out"/dptest_*.tar.gz
