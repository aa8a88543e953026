#!/usr/bin/env bash
# Runs redist-smpi under smpirun with the project's SMPI settings (docs/mpi.md), the one place
# they are written. Usage: apps/redist-mpi/smpirun_redist.sh BUILD_DIR PLATFORM_XML HOSTFILE
#                          [--one-port-platform] DRIVER_ARGS...
# --one-port-platform: PLATFORM_XML was written with redist-smpi-platform --one-port and is loaded
# through BUILD_DIR/redist-smpi-oneport.so. The number of ranks is the hostfile's line count.
# Settings: network/model CM02 (bandwidth and latency only, no TCP factors), computation not
# simulated, every send rendezvous (send-is-detached-thresh 0), no simulated time injected per
# MPI_Test of a pending request (smpi/test 0; SMPI's MPI_Waitsome tests every posted request).
# SMPIRUN (environment) overrides the smpirun found in PATH; REDIST_SMPI_PROGRAM the program run
# (default BUILD_DIR/redist-smpi; smpi_exchange.py runs BUILD_DIR/redist-smpi-exchange), and
# REDIST_SMPI_CFG adds smpirun options (words separated by spaces, e.g.
# "--cfg=network/crosstraffic:0").
set -euo pipefail
build=$1 platform=$(realpath "$2") hosts=$(realpath "$3")
shift 3
loader=$platform
if [ "${1:-}" = --one-port-platform ]; then
  shift
  loader=$build/redist-smpi-oneport.so
fi
cd "$(dirname "$platform")"
REDIST_SMPI_PLATFORM=$platform exec "${SMPIRUN:-smpirun}" -np "$(wc -l <"$hosts")" \
  -platform "$loader" -hostfile "$hosts" --cfg=smpi/simulate-computation:no \
  --cfg=network/model:CM02 --cfg=smpi/send-is-detached-thresh:0 --cfg=smpi/test:0 \
  ${REDIST_SMPI_CFG:-} --log=root.thres:warning "${REDIST_SMPI_PROGRAM:-$build/redist-smpi}" "$@"
