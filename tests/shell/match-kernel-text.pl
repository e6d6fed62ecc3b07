#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-or-later
# Usage: match-kernel-text.pl TRACE SCRIPT
# TRACE: a tracefs instance's `trace` file; SCRIPT: `tperf script -F
# cpu,time,event,trace` of the same events recorded at the same time.
# Each SCRIPT record is looked up among the TRACE records of the same CPU
# and event within 50 us: "matched" when one has the same payload text,
# "mismatched" when there are some but none has it, else "unmatched" (one
# side lost it).  A record the kernel lost next to another of its event
# makes a rare mismatch: an event fails when more than one and more than
# 1 in 200 of its records mismatch (a format printed wrongly mismatches
# them all, or all of those with the value it gets wrong).  Prints one line per event and
# the first mismatches; exits 1 when an event fails or nothing matched.
use strict;
use warnings;

my ($trace, $script) = @ARGV;

# Named filters, for what a perf.data cannot reproduce.  tperf prints
# what perf 6.1 prints in each case (t0600 checks that); the kernel text is
# brought to that form only where the difference is known and explained:
#  pointer    %p: the kernel prints bare hex (hash-ptr off) and NULL as
#             zeroes, libtraceevent "0x..." and "(nil)"
#  symsize    %pS: the kernel appends the function's size ("+0x16d/0x1d0");
#             the file has no symbol sizes
sub kernel_filter {
	my ($ev, $p) = @_;
	$p =~ s/=0{16}(?=\s|$)/=(nil)/g;
	$p =~ s/=([0-9a-f]{16})(?=\s|$)/=0x$1/g;
	$p =~ s/(\+0x[0-9a-f]+)\/0x[0-9a-f]+/$1/g;
	return both_filter($ev, $p);
}

# Applied to both sides (the value is not compared):
#  enum       hrtimer "mode=": the format names enums the kernel does not
#             define in it (HRTIMER_MODE_ABS): libtraceevent prints the number
#  vmemmap    mm_page_* "page=": computed from vmemmap_base, a kernel symbol
#  flagexpr   timer_start "flags=": libtraceevent 1.7 (and perf 6.1)
#             evaluate "REC->flags & (A | B | C | D)" wrongly
sub both_filter {
	my ($ev, $p) = @_;
	$p =~ s/ mode=\S+/ mode=?/ if $ev =~ /^hrtimer_/;
	$p =~ s/^page=\S+/page=?/ if $ev =~ /^mm_page_/;
	$p =~ s/ flags=\S*$/ flags=?/ if $ev eq 'timer_start';
	return $p;
}

my (%k, %seen);			# "cpu event" -> [ [usec, payload], ... ]
open(my $t, '<', $trace) or die "$trace: $!";
while (<$t>) {
	chomp;
	next if /^#/;
	next unless /\[(\d+)\]\s+\S+\s+(\d+)\.(\d{6}): (\w+): ?(.*)$/;
	push @{$k{($1 + 0) . " $4"}}, [ $2 * 1000000 + $3, kernel_filter($4, $5) ];
}
close $t;

my (%match, %mis, %un, @bad);
open(my $s, '<', $script) or die "$script: $!";
while (<$s>) {
	chomp;
	next unless /^\s*\[(\d+)\]\s+(\d+)\.(\d{6}):\s+\w+:(\w+): ?(.*)$/;
	my ($cpu, $us, $ev) = ($1 + 0, $2 * 1000000 + $3, $4);
	my $pl = both_filter($ev, $5);
	my $list = $k{"$cpu $ev"} || [];
	my ($cands, $found, $near) = (0, 0, undef);
	# binary search the first record at $us - 50
	my ($lo, $hi) = (0, scalar @$list);
	while ($lo < $hi) {
		my $mid = int(($lo + $hi) / 2);
		if ($list->[$mid][0] < $us - 50) { $lo = $mid + 1 } else { $hi = $mid }
	}
	for (my $i = $lo; $i < @$list && $list->[$i][0] <= $us + 50; $i++) {
		$cands++;
		$near //= $list->[$i][1];
		if ($list->[$i][1] eq $pl) { $found = 1; last }
	}
	if ($found) { $match{$ev}++ }
	elsif ($cands) { $mis{$ev}++; push @bad, "$ev\n  tperf:  $pl\n  kernel: $near" if ($mis{$ev} <= 2 && @bad < 40) }
	else { $un{$ev}++ }
	$seen{$ev} = 1;
}
close $s;

my ($total, $fail) = (0, 0);
for my $ev (sort keys %seen) {
	my ($m, $x) = ($match{$ev} // 0, $mis{$ev} // 0);
	printf "%-28s matched %6d  mismatched %4d  unmatched %5d\n", $ev, $m, $x, $un{$ev} // 0;
	$total += $m;
	$fail = 1 if $x > 1 && $x * 200 > $m + $x;
}
print "MISMATCH $_\n" for @bad;
exit($fail || !$total ? 1 : 0);
