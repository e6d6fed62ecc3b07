#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel's symbols load on a second thread from the kernel MMAP on, the
# file parsed in segments by that thread and the first one.  With one CPU
# (taskset) it is all done in order: both must resolve every kernel sample
# to what perf 6.1 resolves it to, with a kallsyms file big enough to be
# cut in segments, with aliases at one address, weak, local, data and
# skipped types, and module symbols in order or not.
. "$(dirname "$0")/lib.sh"

test_lazy_prereq TWOCPUS 'test "$(nproc)" -ge 2 && command -v taskset'
test_lazy_prereq PERL 'command -v perl'

# 78% of its samples are in the kernel, with DWARF callchains through it
F=$DATA_DIR/kdab-zstd-sched-switch-dwarf/perf.data.zstd

# gen [reverse] <IPS: a kallsyms with a symbol at each kernel address sampled
# (aliases at some), _text where the recording had it, module symbols (in
# reverse order with "reverse") and lines of skipped types between them, so
# that its segments are cut between symbols that samples hit
gen() {
	perl -e '
	use strict; use warnings; no warnings "portable";
	my $rev = $ARGV[0];
	my @ips = sort { $a <=> $b } map { hex } grep { /^ffffffff/ } map { (split)[0] // "" } <STDIN>;
	my (%seen, @mods, $n);
	my $last = 0;
	printf("%016x T _stext\n%016x T _text\n", 0xffffffffada00000, 0xffffffffada00000);
	for my $a (grep { !$seen{$_}++ } @ips) {
		$n++;
		printf("%016x t k_%x\n", $a - 0x10, $a & 0xffffff) if $n % 3 == 0 && $a - 0x10 > $last;
		$last = $a;
		printf("%016x %s k_%x\n", $a, $n % 2 ? "T" : "t", $a & 0xffffff);
		printf("%016x W weak_%x\n", $a, $a & 0xffffff) if $n % 4 == 0;
		printf("%016x r skipped_%x_%d\n", $a + 1, $a & 0xffffff, $_) for 1 .. 400;
		push @mods, sprintf("%016x t mfn_%d\t[mod%d]\n", 0xffffffffc0000000 + $n * 0x40,
			$n, $n / 40);
	}
	@mods = reverse @mods if $rev;
	print @mods;' "$@"
}

test_expect_success PERL 'kallsyms files for the kernel addresses of the fixture' '
	tperf script -i "$F" -F ip --symfs=/nonexistent --kallsyms=/dev/null >ips &&
	gen <ips >"$TRASH/sorted.txt" &&
	gen reverse <ips >"$TRASH/unsorted.txt" &&
	test $(wc -c <"$TRASH/sorted.txt") -gt 1000000 &&
	! cmp -s "$TRASH/sorted.txt" "$TRASH/unsorted.txt"
'

test_expect_success TWOCPUS,PERL 'a second CPU loads them on a thread, one CPU does not' '
	tperf report -v -i "$F" --stdio --kallsyms="$TRASH/sorted.txt" 2>err >out &&
	grep -q "\[k\] k_" out &&
	grep -q "kernel.s symbols load on a second thread" err &&
	taskset -c 0 "$TPERF" report -v -i "$F" --stdio --kallsyms="$TRASH/sorted.txt" 2>err >/dev/null &&
	! grep -q "symbols load on a second thread" err
'

notip() { grep -v '^# (Tip: ' "$@"; }

test_expect_success TWOCPUS,PERL 'report and script print the same with one CPU and with two' '
	for k in sorted unsorted; do
		for o in "" "--no-children --sort sym" "--no-children --sort dso,sym -g caller" \
			 "--sort sym -g folded" "--stats"; do
			args="-i $F --stdio --symfs=/nonexistent --kallsyms=$TRASH/$k.txt $o" &&
			{ tperf report $args >two 2>&1; echo "exit $?" >>two; } &&
			{ taskset -c 0 "$TPERF" report $args >one 2>&1; echo "exit $?" >>one; } &&
			notip two >a && notip one >b &&
			test_cmp b a || { echo "differs: $k $o"; exit 1; }
		done &&
		args="-i $F --symfs=/nonexistent --kallsyms=$TRASH/$k.txt" &&
		{ tperf script $args >two 2>&1; echo "exit $?" >>two; } &&
		{ taskset -c 0 "$TPERF" script $args >one 2>&1; echo "exit $?" >>one; } &&
		grep -q " k_" two && test_cmp one two || { echo "script differs: $k"; exit 1; }
	done
'

test_expect_success PERF,PERL 'the kernel symbols are the ones perf 6.1 finds' '
	for k in sorted unsorted; do
		for o in "--no-children --sort sym" "" "--sort sym -g folded"; do
			args="-i $F --stdio --symfs=/nonexistent --kallsyms=$TRASH/$k.txt $o" &&
			perf report $args 2>/dev/null | notip >expect &&
			tperf report $args | notip >actual &&
			grep -q "\[k\] weak_" actual && ! grep -q "\[k\] 0x" actual &&
			test_cmp expect actual || { echo "differs: $k $o"; exit 1; }
		done
	done
'

test_done
