#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the probe tests' targets into DIR: target0 / target2 (-O0 / -O2, -g)
# with their libtarget.so, and target-nodwarf (stripped of DWARF).
set -e
src=$(cd "$(dirname "$0")" && pwd)
dir=$1
mkdir -p "$dir"
cd "$dir"
for o in 0 2; do
	mkdir -p O$o
	cc -O$o -g -fPIC -shared -o O$o/libtarget.so "$src/targetlib.c"
	cc -O$o -g -o target$o "$src/target.c" "$src/targetsem.c" -LO$o -ltarget \
		-Wl,-rpath,"$dir/O$o"
done
cc -O2 -o target-nodwarf "$src/target.c" "$src/targetsem.c" -LO2 -ltarget \
	-Wl,-rpath,"$dir/O2"
cc -O2 -g -o inline2 "$src/inline.c"
