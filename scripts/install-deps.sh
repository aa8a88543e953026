#!/usr/bin/env bash
# Installs the Debian 12 packages redist needs, and only those that are missing. clang 14, its
# runtime libraries (ASan, UBSan, libFuzzer), llvm-symbolizer and lld (its linker, about twice as
# fast as ld on the sanitizer build's 390 programs) serve the sanitizer build of scripts/test.sh
# and the fuzzers (docs/fuzzing.md); pybind11 the Python module (docs/python.md);
# python3-jsonschema the test of the JSON Schemas (docs/schemas/); FFTW with its MPI library the
# drop-in test of tests/dropin/ (docs/dropin-tests.md).
# Usage: scripts/install-deps.sh
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config clang-format
  nlohmann-json3-dev libcli11-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  coinor-libclp-dev coinor-libcbc-dev
  openmpi-bin libopenmpi-dev libsimgrid-dev
  clang-14 libclang-rt-14-dev llvm-14 lld
  librsvg2-bin
  python3-dev python3-pybind11 python3-jsonschema
  libtrilinos-zoltan-dev
  libfftw3-dev libfftw3-mpi-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
