#!/usr/bin/env bash
# Compiler launcher of the sanitizer build (REDIST_RELATIVE_PATHS, docs/fuzzing.md): runs the
# compiler with every path into the source tree written relative to the build directory, where
# Ninja runs it (`/abs/checkout/src/redist/io/json.cpp` becomes `../src/redist/io/json.cpp`).
# The file names that ASan and UBSan compile into the objects (source locations of checks and of
# globals, module names) are the names the compiler was given, and -ffile-prefix-map does not
# reach them in clang 14: with relative names the objects, hence the programs, are the same bytes
# from any checkout.
# Usage: relative-paths-launcher.sh SOURCE_DIR RELATIVE_SOURCE_DIR COMPILER [ARGS...]
# RELATIVE_SOURCE_DIR is SOURCE_DIR seen from the build directory. When it does not name the same
# directory from the working directory (a build directory reached through a symbolic link), the
# command runs unchanged.
set -euo pipefail
source_dir=${1%/}
relative=${2%/}
shift 2
if ! [ "$relative" -ef "$source_dir" ]; then
  exec "$@"
fi
args=()
for arg in "$@"; do
  for prefix in "" -I -isystem -iquote -idirafter; do
    if [ "$arg" = "$prefix$source_dir" ]; then
      arg=$prefix$relative
      break
    fi
    if [ "${arg#"$prefix$source_dir"/}" != "$arg" ]; then
      arg=$prefix$relative/${arg#"$prefix$source_dir"/}
      break
    fi
  done
  args+=("$arg")
done
exec "${args[@]}"
