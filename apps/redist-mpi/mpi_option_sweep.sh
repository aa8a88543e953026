#!/usr/bin/env bash
# Random and hostile option combinations of redist-mpi under mpirun (docs/mpi.md, "Limits and
# extreme inputs"). Each run must either verify (exit 0, one JSON line with "verified": true) or
# be refused (exit 2, exactly one identical `error:` line per rank and nothing else); anything
# else (not verified, a crash, an abort, a hang past the timeout, extra lines) is a failure.
# Usage: [HOSTILITY=K] apps/redist-mpi/mpi_option_sweep.sh BUILD_DIR RUNS [SEED]: K = 1 (default)
# mixes hostile values in often, larger K more rarely (more runs execute). Prints one line per
# failure and the counts.
set -uo pipefail
build=$1 runs=$2 seed=${3:-1}
data=$(dirname "$0")/testdata
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_odls_base_sigkill_timeout=0
RANDOM=$seed
pick() { local a=("$@"); echo "${a[RANDOM % ${#a[@]}]}"; }
# opt P NAME VALID... -- HOSTILE...: with probability 1/P, add NAME with a value, hostile (out of
# range, malformed) with probability 1/(4 * HOSTILITY) (HOSTILITY: environment, default 1).
hostility=${HOSTILITY:-1}
opt() {
  local p=$1 name=$2 valid=() hostile=() side=valid
  shift 2
  for v in "$@"; do
    if [ "$v" = -- ]; then side=hostile; elif [ $side = valid ]; then valid+=("$v"); else hostile+=("$v"); fi
  done
  ((RANDOM % p == 0)) || return 0
  if [ ${#hostile[@]} -gt 0 ] && ((RANDOM % (4 * hostility) == 0)); then
    args+=("$name" "$(pick "${hostile[@]}")")
  else
    args+=("$name" "$(pick "${valid[@]}")")
  fi
}
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
ok=0 refused=0 failed=0
for ((i = 0; i < runs; ++i)); do
  np=$(pick 2 3 4 5)
  args=()
  case $((RANDOM % (12 * hostility))) in
    0) args+=(--instance "$(pick "$data/uni-4.json" "$data/small-loads-3.json" "$data/bidi-6.json" \
                                 "$data/newline-key-3.json" /nonexistent "$data")") ;;
    1) args+=(--random "$(pick 1 2 3 -1 x 18446744073709551615)" --instance "$data/uni-4.json") ;;
    2) ;;  # neither source
    *) args+=(--random "$((RANDOM % 50))") ;;
  esac
  opt 2 --max-items 0 1 7 300 2000 -- -3 100000001 1e3 99999999999999999999
  ((RANDOM % 3 == 0)) && args+=(--unidirectional)
  opt 3 --item-bytes 1 3 8 64 65536 -- 0 67108865 -8 x
  opt 3 --segment-items 1 2 7 1024 -- 0 -1 2147483648
  opt 4 --min-segments 1 5 64 1000 -- 0 -2 1000000
  opt 3 --window 0 2 3 16 1000000 -- 1 -1
  opt 4 --sends-in-flight 1 2 64 -- 0 65 -1
  opt 4 --repeat 1 2 3 -- 0 101 -1
  opt 3 --mode ring linear -- bogus $'ring\nlinear'
  opt 6 --strategy redist alltoallv linear -- bogus
  opt 6 --algorithm auto heuristic -- exact bogus
  ((RANDOM % 3 == 0)) && args+=(--out-of-place)
  ((RANDOM % 4 == 0)) && args+=(--one-port)
  ((RANDOM % 8 == 0)) && args+=(--calibrate)
  opt 6 --max-staging-bytes 8192 100000 -- 0 1 1073741825 -5
  opt $((12 * hostility)) --bad-target 0 1 -- -1 99
  opt $((12 * hostility)) --negative 0 1 -- 99
  opt $((12 * hostility)) --overlap-on 0 1 2 -- 99
  opt $((12 * hostility)) --bytes-on 1:4 0:0 -- x 1:-5 9:8 1: :3 1:99999999999
  ((RANDOM % (20 * hostility) == 0)) && args+=("$(pick --foo --help extra)")
  timeout 30 mpirun -q --oversubscribe -np "$np" "$build/redist-mpi" "${args[@]}" >"$out" 2>"$err"
  rc=$?
  verdict=fail
  if [ $rc -eq 0 ] && grep -q -- '--help\|^extra' <<<"${args[*]}" && [ -s "$out" ]; then
    verdict=ok  # help text
  elif [ $rc -eq 0 ] && [ "$(grep -c '"verified": true' "$out")" -eq 1 ] && [ ! -s "$err" ]; then
    verdict=ok
  elif [ $rc -eq 2 ] && [ ! -s "$out" ] && ! grep -qv '^error: ' "$err" &&
    [ "$(grep -c '^error: ' "$err")" -eq "$np" ] && [ "$(sort -u "$err" | wc -l)" -eq 1 ]; then
    verdict=refused
  fi
  case $verdict in
    ok) ok=$((ok + 1)) ;;
    refused) refused=$((refused + 1)) ;;
    *)
      failed=$((failed + 1))
      echo "FAIL rc=$rc: mpirun -np $np redist-mpi ${args[*]@Q}"
      head -c 400 "$err" | head -4
      ;;
  esac
done
echo "runs $runs: verified $ok, refused $refused, failed $failed"
[ $failed -eq 0 ]
