#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install the Debian packages tperf's build and tests need; does nothing when
# they are all present.  Idempotent.  Needs root (or sudo) only to install.
set -e

# build: required libraries, then optional ones (compiled in when present)
BUILD="make gcc pkg-config libtraceevent-dev libtracefs-dev libdw-dev libelf-dev
zlib1g-dev libzstd-dev libunwind-dev libbabeltrace-ctf-dev libpopt-dev libiberty-dev
libdeflate-dev libcapstone-dev libprotobuf-c-dev protobuf-c-compiler"
# tests: the oracles, libtraceevent's plugins, <sys/sdt.h>, the fuzzers, man,
# codespell (make check); KernelShark's loader (libkshark), C++ programs for
# demangling, glibc's debug info for probes, the zstd program (an
# independent reading of perf 6.16's COMPRESSED2 records), babeltrace 1.5 and
# babeltrace2 (the readers of data convert's CTF), Go and pprof's sources
# (Go's pprof, built by t0752, reads data convert's pprof profiles).  (The Rust and node tests run
# when rustc and node are on the PATH, from wherever they come.)
TESTS="linux-perf trace-cmd libtraceevent1-plugin systemtap-sdt-dev clang man-db
python3 procps codespell libkshark-dev libjson-c-dev libtracecmd-dev g++
libc6-dbg zstd babeltrace babeltrace2 golang-go golang-github-google-pprof-dev"

missing=
for p in $BUILD $TESTS; do
	s=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$s" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing:$missing"
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=sudo
	else
		echo "install-deps: not root: run 'apt-get install$missing' as root" >&2
		exit 1
	fi
fi
export DEBIAN_FRONTEND=noninteractive
${SUDO:-} apt-get update -qq
# shellcheck disable=SC2086
${SUDO:-} apt-get install -y -qq --no-install-recommends $missing >/dev/null
