#!/usr/bin/env bash
# Runs a libFuzzer target so that a seeded run of a fixed number of inputs tries the same inputs
# from any checkout, any build directory, any caller's environment and under any load
# (docs/fuzzing.md, "Same inputs from any checkout"). libFuzzer feeds the values the program
# compares back into its mutations, pointers included, so every address must be reproducible:
# - a fresh work directory, WORK_DIR (new inputs in WORK_DIR/corpus/): nothing from earlier runs;
# - the fuzzer starts in WORK_DIR with the same arguments and the same environment every time
#   (the seed and artifact directories reached through links of fixed names), so that the initial
#   stack does not move with the length of a path or of the caller's environment;
# - no address space randomization (setarch -R), when the system allows it;
# - the seed files in sorted order (a directory listing's order belongs to the file system);
# - no timer that changes the program's state: no corpus reloads (-reload=0), no periodic purge of
#   the allocator (-purge_allocator_interval=-1, allocator_release_to_os_interval_ms=-1), and
#   libFuzzer's -rss_limit_mb=N is enforced by ASan (hard_rss_limit_mb=N, a thread started before
#   main that allocates nothing) instead of libFuzzer's thread, whose start allocates at a moment
#   that depends on the scheduler; -malloc_limit_mb stays at N.
# Usage: fuzz/run_fuzzer.sh WORK_DIR FUZZER ARTIFACT_DIR SEED_DIR... -- [libFuzzer flags...]
# The libFuzzer flags must not name paths (they would make the arguments differ again).
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 WORK_DIR FUZZER ARTIFACT_DIR SEED_DIR... -- [libFuzzer flags...]" >&2
  exit 2
fi
work=$1 fuzzer=$2 artifacts=$3
shift 3
seed_dirs=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  seed_dirs+=("$1")
  shift
done
[ $# -gt 0 ] && shift

# libFuzzer's default memory limit, unless the flags name one.
rss_limit_mb=2048
malloc_limit=()
flags=()
for flag in "$@"; do
  case $flag in
    -rss_limit_mb=*) rss_limit_mb=${flag#-rss_limit_mb=} ;;
    -malloc_limit_mb=*) malloc_limit=("$flag") ;;
    *) flags+=("$flag") ;;
  esac
done
if [ ${#malloc_limit[@]} -eq 0 ]; then
  malloc_limit=("-malloc_limit_mb=$rss_limit_mb")
fi

name=$(basename "$fuzzer")
rm -rf "$work"
mkdir -p "$work/corpus" "$artifacts"
ln -s "$(realpath "$fuzzer")" "$work/$name"
ln -s "$(realpath "$artifacts")" "$work/artifacts"
seed_links=()
for i in "${!seed_dirs[@]}"; do
  ln -s "$(realpath "${seed_dirs[$i]}")" "$work/seed$i"
  seed_links+=("seed$i")
done
symbolizer=$(command -v llvm-symbolizer-14 llvm-symbolizer | head -n 1 || true)
if [ -n "$symbolizer" ]; then
  ln -s "$symbolizer" "$work/llvm-symbolizer"
fi

cd "$work"
seed_flag=()
if [ ${#seed_links[@]} -gt 0 ]; then
  find -L "${seed_links[@]}" -type f | LC_ALL=C sort > seeds.txt
  if grep -q , seeds.txt; then
    echo "run_fuzzer.sh: a seed file's name holds a comma (libFuzzer's list separator):" >&2
    grep , seeds.txt >&2
    exit 2
  fi
  paste -sd, seeds.txt | tr -d "\n" > seed_inputs.txt
  seed_flag=(-seed_inputs=@seed_inputs.txt)
fi

no_aslr=()
if setarch -R true 2>/dev/null; then
  no_aslr=("$(command -v setarch)" -R)
else
  echo "run_fuzzer.sh: setarch -R refused, addresses are randomized: this run's statistics may" \
       "differ from another's" >&2
fi
echo "run_fuzzer.sh: $name in $PWD" >&2
exec env -i PATH=/usr/bin:/bin \
  ASAN_OPTIONS="detect_leaks=1:hard_rss_limit_mb=$rss_limit_mb:allocator_release_to_os_interval_ms=-1" \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ASAN_SYMBOLIZER_PATH=./llvm-symbolizer \
  "${no_aslr[@]}" "./$name" corpus "${seed_flag[@]}" -artifact_prefix=artifacts/ -reload=0 \
  -purge_allocator_interval=-1 -rss_limit_mb=0 "${malloc_limit[@]}" "${flags[@]}"
