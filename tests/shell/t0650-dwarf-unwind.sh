#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# DWARF callchains: record --call-graph dwarf (attr, sizes, --user-regs,
# trimmed stack copies), unwinding at report/script time with libdw and
# libunwind, inline frames, truncation, and perf 6.1 as the oracle on the
# same files (tperf's and perf's recordings of an -O2 -fomit-frame-pointer
# workload, and the kdab fixture).
. "$(dirname "$0")/lib.sh"

W=$TESTS_DIR/workloads
test_lazy_prereq CC 'command -v cc'
test_lazy_prereq CXX 'command -v g++'
# the kernel has perf events (software events need nothing else)
test_lazy_prereq EVENTS 'test -e /proc/sys/kernel/perf_event_paranoid'
# libunwind is compiled in when pkg-config finds it (Makefile)
test_lazy_prereq LIBUNWIND 'pkg-config --exists libunwind libunwind-generic'

# callee-first chains of `script -F ip,sym` as "f1;f2;...", one per sample
folded() {
	awk 'BEGIN { RS = "" } { s = ""; n = split($0, l, "\n");
		for (i = 1; i <= n; i++) { split(l[i], f, " "); if (f[2] != "") s = s (s ? ";" : "") f[2] }
		print s }' "$1"
}

# script -F ip,sym of $1 (in "out") is libunwind's and perf's
ipsym_is_perfs() {
	if test_have_prereq LIBUNWIND; then
		tperf script -i "$1" -F ip,sym --unwinder=libunwind >lu && test_cmp out lu || return 1
	fi
	if test_have_prereq PERF; then
		perf script -i "$1" -F ip,sym >expect 2>/dev/null && test_cmp expect out || return 1
	fi
}

test_expect_success CC 'build the -O2 -fomit-frame-pointer workload' '
	cd "$TRASH" &&
	F="-O2 -fomit-frame-pointer -g" &&
	cc $F -shared -fPIC -o libdwarfspin.so $W/dwarf-unwind-lib.c &&
	cc $F -o dwarf-unwind $W/dwarf-unwind.c -L. -Wl,--no-as-needed -ldwarfspin -Wl,-rpath,"$TRASH"
'

test_expect_success 'stack sizes are checked and rounded as perf does' '
	cd "$TRASH" &&
	test_expect_code 129 tperf record --call-graph dwarf,70000 -- true 2>err &&
	echo "tperf: invalid dwarf stack size '"'"'70000'"'"': give a size from 1 to 65528 bytes" >expect &&
	test_cmp expect err &&
	test_expect_code 129 tperf record --call-graph dwarf,0 -- true 2>err &&
	echo "tperf: invalid dwarf stack size '"'"'0'"'"': give a size from 1 to 65528 bytes" >expect &&
	test_cmp expect err &&
	test_expect_code 129 tperf record --call-graph dwarf,-8 -- true 2>err &&
	test_expect_code 129 tperf record --call-graph dwarf,12k -- true 2>err
'

test_expect_success EVENTS 'dwarf,100 records a 104-byte copy; --user-regs adds registers' '
	cd "$TRASH" &&
	tperf record -q -e cpu-clock --call-graph dwarf,100 -o s.data -- true &&
	tperf evlist -v -i s.data | grep -o "sample_stack_user: [0-9]*" >actual &&
	echo "sample_stack_user: 104" >expect &&
	test_cmp expect actual &&
	tperf record -q -e cpu-clock --user-regs=ax,BX,r15 -o r.data -- true &&
	tperf evlist -v -i r.data | grep -o "sample_type: [A-Z_|]*\|sample_regs_user: 0x[0-9a-f]*" >actual &&
	printf "sample_type: IP|TID|TIME|PERIOD|REGS_USER\nsample_regs_user: 0x800003\n" >expect &&
	test_cmp expect actual
'

test_expect_success '--user-regs=? lists the registers; a bad name is a usage error' '
	cd "$TRASH" &&
	tperf record --user-regs=? 2>err &&
	echo "available registers: AX BX CX DX SI DI BP SP IP FLAGS CS SS R8 R9 R10 R11 R12 R13 R14 R15 " >expect &&
	test_cmp expect err &&
	test_expect_code 129 tperf record --user-regs=ax,foo -- true 2>err &&
	grep -q "^tperf: unknown register '"'"'foo'"'"': run '"'"'tperf record --user-regs=?'"'"' for the list$" err
'

test_expect_success PERF,EVENTS 'the attr of --call-graph dwarf is perf'"'"'s' '
	cd "$TRASH" &&
	tperf record -q -e cpu-clock --call-graph dwarf -o t0.data -- true &&
	command perf record -q -e cpu-clock --call-graph dwarf -o p0.data -- true 2>/dev/null &&
	perf evlist -v -i t0.data >actual 2>&1 &&
	perf evlist -v -i p0.data >expect 2>&1 &&
	test_cmp expect actual
'

test_expect_success CC,EVENTS 'record the workload with tperf: dwarf and fp' '
	cd "$TRASH" &&
	tperf record -q -e cpu-clock -F 4000 --call-graph dwarf -o t.data -- ./dwarf-unwind 100 &&
	tperf record -q -e cpu-clock -F 4000 -g -o fp.data -- ./dwarf-unwind 50
'

test_expect_success CC,EVENTS 'dwarf chains show the whole call tree; fp chains do not' '
	cd "$TRASH" &&
	tperf script -i t.data -F ip,sym >s &&
	folded s | sort -u >chains &&
	for c in "compute;level3;level2;level1;main;__libc_start_call_main" \
		 "lib_inner;lib_spin;level3;level2;level1;main;__libc_start_call_main" \
		 "compute;recurse;recurse;recurse;recurse;recurse;recurse;main;__libc_start_call_main" \
		 "mix;site_a;main;__libc_start_call_main" \
		 "mix;site_b;main;__libc_start_call_main"
	do
		grep -q "^$c" chains || { echo "missing: $c"; exit 1; }
	done &&
	tperf script -i fp.data -F ip,sym >sfp &&
	folded sfp | sort -u >fpchains &&
	! grep -q "^compute;level3;level2;level1;main" fpchains
'

test_expect_success CC,EVENTS 'inline frames: mix at both sites, and --no-inline drops them' '
	cd "$TRASH" &&
	tperf script -i t.data -F ip,sym >s &&
	grep -q "mix (inlined)$" s &&
	tperf script -i t.data -F ip,sym --no-inline >s2 &&
	! grep -q "(inlined)" s2 &&
	tperf report -i t.data --stdio --no-children --sort sym -g none >r &&
	! grep -q "mix (inlined)" r &&
	tperf report -i t.data --stdio --children --sort sym -g none >r &&
	test $(grep -c "\[\.\] mix (inlined)$" r) = 2
'

test_expect_success CC,EVENTS,LIBUNWIND 'libdw and libunwind give the same chains' '
	cd "$TRASH" &&
	tperf script -i t.data --unwinder=libdw >dw &&
	tperf script -i t.data --unwinder=libunwind >lu &&
	test_cmp dw lu &&
	tperf report -i t.data --stdio --children --unwinder=libunwind >lu &&
	tperf report -i t.data --stdio --children >dw &&
	test_cmp dw lu
'

test_expect_success CC,EVENTS 'the CFI rule cache gives libdw'"'"'s own chains' '
	cd "$TRASH" &&
	tperf script -i t.data >cached &&
	TPERF_UNWIND_SLOW=1 tperf script -i t.data >slow &&
	test_cmp slow cached
'

# libdw's x86_64 ABI rules keep %rax where they mean %rbx: a callee whose
# CFI leaves %rbx alone must not end the chain at a caller with CFA = %rbx + N
test_expect_success CC,EVENTS 'a caller whose CFA is %rbx + 16: chains go on through it' '
	cd "$TRASH" &&
	cat >realign.S <<-\EOF &&
	.text
	.globl realign_call
	.type realign_call, @function
	realign_call:
	.cfi_startproc
	pushq %rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	movq %rsp, %rbx
	.cfi_def_cfa_register %rbx
	andq $-64, %rsp
	subq $64, %rsp
	movq %rdi, %rax
	movq %rsi, %rdi
	call *%rax
	movq %rbx, %rsp
	.cfi_def_cfa_register %rsp
	popq %rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size realign_call, .-realign_call
	.section .note.GNU-stack,"",@progbits
	EOF
	cat >rbx.c <<-\EOF &&
	#include <stdlib.h>
	void realign_call(void (*fn)(long), long n);
	static volatile long sink;
	__attribute__((noinline)) void spin(long n) { for (long i = 0; i < n; i++) sink += i; }
	int main(int argc, char **argv) { realign_call(spin, atol(argv[1])); return 0; }
	EOF
	cc -O2 -fomit-frame-pointer -g -o rbx rbx.c realign.S &&
	! objdump -d rbx | sed -n "/<spin>:/,/^\$/p" | grep -q "bx" &&
	tperf record -q -e cpu-clock -F 2000 --call-graph dwarf -o rbx.data -- ./rbx 300000000 &&
	tperf script -i rbx.data -F ip,sym >out &&
	folded out | grep "^spin;" >chains &&
	test $(wc -l <chains) -gt 20 &&
	! grep -v "^spin;realign_call;main;" chains &&
	ipsym_is_perfs rbx.data
'

test_expect_success '--unwinder takes libdw or libunwind' '
	cd "$TRASH" &&
	test_expect_code 1 tperf report -i "$DATA_DIR/kdab-dwarf-unwind-x86_64/perf.data" --unwinder=gdb 2>err &&
	echo "tperf: unknown unwinder '"'"'gdb'"'"': use libdw or libunwind" >expect &&
	test_cmp expect err
'

# -fno-asynchronous-unwind-tables: the workload's CFI is in .debug_frame
# (.eh_frame has only the C runtime's); then again with .debug_frame only
# in a debuglinked debug file.
test_expect_success CC,EVENTS 'CFI from .debug_frame, in the binary and in its debug file' '
	cd "$TRASH" &&
	F="-O2 -fomit-frame-pointer -g -fno-asynchronous-unwind-tables -fno-unwind-tables" &&
	cc $F -o dframe $W/dwarf-unwind.c -L. -Wl,--no-as-needed -ldwarfspin -Wl,-rpath,"$TRASH" &&
	readelf -S dframe | grep -q "\.debug_frame" &&
	tperf record -q -e cpu-clock -F 4000 --call-graph dwarf -o df.data -- ./dframe 60 &&
	tperf script -i df.data -F ip,sym >s &&
	folded s | sort -u >chains &&
	grep -q "^compute;level3;level2;level1;main;__libc_start_call_main" chains &&
	objcopy --only-keep-debug dframe dframe.debug &&
	objcopy --strip-debug --add-gnu-debuglink=dframe.debug dframe &&
	! readelf -S dframe | grep -q "\.debug_frame" &&
	tperf script -i df.data -F ip,sym >s2 &&
	folded s2 | sort -u >chains2 &&
	grep -q "^compute;level3;level2;level1;main;__libc_start_call_main" chains2
'

# perf prints a tip of the day as its last lines; ours differs
untip() { grep -v "^# (Tip:" "$1"; }

for who in tperf perf; do
test_expect_success CC,EVENTS,PERF "report --children of $who's recording is perf's, row for row" '
	cd "$TRASH" &&
	if [ $who = perf ]; then
		perf record -q -e cpu-clock -F 4000 --call-graph dwarf -o p.data -- ./dwarf-unwind 100 2>/dev/null
		f=p.data
	else
		f=t.data
	fi &&
	for o in "--children --no-inline" "--no-children --no-inline" \
		 "--children --percent-limit 2" "--children -g caller,0.5,callee --no-inline"
	do
		perf report -i $f --stdio $o 2>/dev/null >expect.raw &&
		tperf report -i $f --stdio $o >actual.raw &&
		untip expect.raw >expect && untip actual.raw >actual &&
		test_cmp expect actual || exit 1
	done &&
	perf script -i $f --no-inline 2>/dev/null >expect &&
	tperf script -i $f --no-inline >actual &&
	test_cmp expect actual
'
done

# Inline frames named as perf names them (addr2line's rules, demangled): C++
# templates and STL at -O2, threads with assembler aliases (clone3), GCC's
# nested functions and memcpy/memmove (recordings in tests/data/dwarf-inline,
# their binaries put back where they were recorded); and rustc's units.
FX=/tmp/tperf-dwarf-fixture
test_lazy_prereq RUSTC 'command -v rustc'
# the libraries the recordings were made with (see the fixture's README)
test_lazy_prereq FIXLIBC '
	test "$(dpkg-query -W -f "\${Version}" libc6 libstdc++6 2>/dev/null)" = \
	     "2.36-9+deb12u1412.2.0-14+deb12u1"'

# perf's fractal remainder "[...]" is a symbol malloc()ed and not cleared:
# whether its "inlined" bit is set changes from run to run
unrem() { sed "s/\[\.\.\.\] (inlined)$/[...]/"; }

report_same() {	# $1 file, then report modes separated by ";"
	echo "$2" | tr ";" "\n" | while read -r o; do
		perf report -i $1 --stdio $o 2>/dev/null >expect.raw &&
		tperf report -i $1 --stdio $o >actual.raw &&
		untip expect.raw | unrem >expect &&
		untip actual.raw >actual &&
		test_cmp expect actual || exit 1
	done
}

same_as_perf() {	# $1 file, then report modes separated by ";"
	f=$1
	for o in "" --no-inline; do
		perf script -i $f $o 2>/dev/null >expect &&
		tperf script -i $f $o >actual &&
		test_cmp expect actual || return 1
	done
	report_same "$f" "$2"
}

# the -g modes where chains of equal period, thresholds and merged entries
# show perf's tree of chains
MODES="-g folded;--no-children -g folded;-g flat;--no-children -g flat"
MODES="$MODES;-g fractal;--no-children -g fractal;--no-children -g fractal,0.5,callee"
MODES="$MODES;--no-children -g folded,0,callee,period;--no-children -g flat,0,caller,count"
MODES="$MODES;-g folded,0,caller,count;-g fractal,0.5,callee,count"
# address keys: the source line of each frame, of each inline frame
AMODES="--no-children -g graph,0,caller,address;-g graph,0.5,callee,address"
AMODES="$AMODES;-g folded,0,caller,address;--no-children -g flat,0,caller,address --no-inline"
AMODES="$AMODES;-g fractal,0.5,callee,address"
# the dwarf-inline recordings' binaries where they were recorded ($FX); D: their folder
stage_inline_fixture() {
	D="$TESTS_DIR/data/dwarf-inline" &&
	mkdir -p $FX && cp "$D/dcxx" "$D/dthr" "$D/dmp" "$D/libdwarfspin.so" $FX
}

# srcline keys: frames the same by their source line
AMODES="$AMODES;--no-children -g graph,0,caller,srcline;-g folded,0,caller,srcline"
AMODES="$AMODES;-g fractal,0.5,callee,srcline;--no-children -g flat,0,callee,srcline"

test_expect_success PERF,FIXLIBC 'inline frames of C++, threads and forked processes are perf'"'"'s, row for row' '
	cd "$TRASH" &&
	test_when_finished "rm -rf $FX" &&
	stage_inline_fixture &&
	same_as_perf "$D/cxx.data" "--children;--no-children;--children --no-inline;--children --sort sym;--children --sort dso,sym -g none" &&
	same_as_perf "$D/thr.data" "--children;--no-children;--children --no-inline;--no-children -g caller --no-inline" &&
	report_same "$D/thr.data" "$AMODES;-g fractal --no-inline" &&
	same_as_perf "$D/mp.data" "--children;--no-children;--children --sort sym;--children --sort dso,sym -g none;--children --sort pid,sym -g caller" &&
	tperf report -i "$D/mp.data" --stdio -g none >r &&
	grep -q "%  dmp  *dmp  *\[\.\] site_b$" r &&
	grep -q "%  dmp  *dmp  *\[\.\] mix (inlined)$" r &&
	grep -q "%  dmp  *libc.so.6  *\[\.\] __libc_start_main@@GLIBC_2.34$" r &&
	tperf script -i "$D/cxx.data" >s &&
	grep -q "std::.*+0x[0-9a-f]* (inlined)$" s &&
	! grep -q " _Z[A-Za-z0-9_]*+0x" s &&
	tperf script -i "$D/thr.data" >s &&
	grep -q " clone3+0x[0-9a-f]* (.*libc.so.6)$" s &&
	grep -q " cmp+0x[0-9a-f]* (inlined)$" s
'

# the rest of the matrix (make check runs the address and srcline keys on
# one file; #30 runs every -g mode on fp chains)
test_expect_success PERF,FIXLIBC,FULL 'inline frames: every -g mode and key on each file, perf'"'"'s' '
	cd "$TRASH" &&
	test_when_finished "rm -rf $FX" &&
	stage_inline_fixture &&
	report_same "$D/cxx.data" "$MODES;$AMODES" &&
	report_same "$D/thr.data" "$MODES" &&
	report_same "$D/mp.data" "$MODES"
'

# dwarf-dlswap: libdlswapa.so, dlclose, libdlswapb.so at the same address,
# the same code at the same addresses named a_inner then b_inner: what is
# cached per address (map, symbol, CFI rule, inline frames) must follow
# the maps.  "X_inner;Y_outer" chains would be a stale cache.
test_expect_success CC,EVENTS 'a library mapped where another was: its own frames' '
	cd "$TRASH" &&
	F="-O2 -fomit-frame-pointer -g" &&
	cc $F -shared -fPIC -o libdlswapa.so $W/dwarf-dlswap-lib.c &&
	cc $F -DSWAP_B -shared -fPIC -o libdlswapb.so $W/dwarf-dlswap-lib.c &&
	cc $F -o dwarf-dlswap $W/dwarf-dlswap.c &&
	tperf record -q -e cpu-clock -F 4000 --call-graph dwarf -o dl.data -- \
		./dwarf-dlswap "$TRASH" 6 20000000 &&
	tperf script -i dl.data --show-mmap-events | grep -o "\[0x[0-9a-f]*([^]]*\]: r-xp .*libdlswap[ab].so$" |
		sed "s/\].*libdlswap/ /" | sort -u >mmaps &&
	test $(wc -l <mmaps) = 2 && test $(cut -d" " -f1 mmaps | sort -u | wc -l) = 1 &&
	for o in "" --no-inline; do
		tperf script -i dl.data -F ip,sym $o >s &&
		folded s | grep -o "[a-z]_inner;[^;]*;[^;]*" | sort -u >chains &&
		printf "a_inner;a_outer;swap_spin\nb_inner;b_outer;swap_spin\n" >expect &&
		test_cmp expect chains || exit 1
	done &&
	tperf script -i dl.data -F ip,sym --no-inline | awk "BEGIN { RS = \"\" } { split(\$0, l, \"\n\");
		for (i = 1; i <= length(l); i++) if (split(l[i], f, \" \") >= 2) { print f[1], f[2]; break } }" |
		grep "_inner$" | sort -u | cut -d" " -f1 | uniq -d >shared &&
	test -s shared
'

test_expect_success CC,EVENTS,PERF 'a library mapped where another was: perf'"'"'s script and report' '
	cd "$TRASH" &&
	same_as_perf dl.data "--children;--no-children;--no-children --no-inline -g caller;--sort dso,sym -g none"
'

test_expect_success CC,EVENTS,LIBUNWIND 'a library mapped where another was: libunwind'"'"'s frames' '
	cd "$TRASH" &&
	tperf script -i dl.data >dw &&
	tperf script -i dl.data --unwinder=libunwind >lu &&
	test_cmp dw lu &&
	TPERF_UNWIND_SLOW=1 tperf script -i dl.data >slow &&
	test_cmp dw slow
'

# A signal handler's return address is the trampoline's start: libunwind,
# perf's unwinder, takes it as a return address (one byte back, outside
# __restore_rt), the frame the signal interrupted as an activation.
test_expect_success CC,EVENTS 'through a signal handler: the trampoline as perf shows it' '
	cd "$TRASH" &&
	cat >sig.c <<-\EOF &&
	#include <signal.h>
	#include <sys/time.h>
	static volatile long sink;
	static volatile int ticks;
	__attribute__((noinline)) static void handler_work(void) { for (long i = 0; i < 2000000; i++) sink += i; }
	static void on_alarm(int sig) { (void)sig; handler_work(); ticks++; }
	__attribute__((noinline)) static void main_work(void) { for (long i = 0; i < 1000000; i++) sink ^= i; }
	int main(void)
	{
		struct itimerval it = { { 0, 5000 }, { 0, 5000 } };
		signal(SIGALRM, on_alarm);
		setitimer(ITIMER_REAL, &it, 0);
		while (ticks < 60)
			main_work();
		return 0;
	}
	EOF
	cc -O2 -fomit-frame-pointer -g -o sig sig.c &&
	tperf record -q -e cpu-clock -F 2000 --call-graph dwarf -o sig.data -- ./sig &&
	tperf script -i sig.data -F ip,sym >out &&
	folded out | grep "^handler_work;on_alarm;" >chains &&
	test $(wc -l <chains) -gt 20 &&
	! grep -v "^handler_work;on_alarm;\[unknown\];\(main_work;\)\{0,1\}main;" chains &&
	ipsym_is_perfs sig.data &&
	if test_have_prereq PERF; then
		report_same sig.data "--children;--no-children -g caller"
	fi
'

# tperf script of $1 (in "out") is libunwind's and perf's, and so are its
# reports (perf's chains where its glue goes its own way: with libunwind)
chains_are_perfs() {
	# without libunwind (the machine's) there is no second unwinder to compare
	test_have_prereq LIBUNWIND || return 0
	tperf script -i "$1" --unwinder=libunwind >lu && test_cmp out lu || return 1
	if test_have_prereq PERF; then
		perf script -i "$1" >expect 2>/dev/null && test_cmp expect out &&
			report_same "$1" "--children;--no-children -g caller" || return 1
	fi
}

# A child of a fork keeps its parent's maps past its exec (in perf's model
# and tperf's); perf's libunwind glue bases a file's CFI on its lowest map,
# the parent's libc or ld.so when the child's lies higher, and then finds
# none there.  perf's chains are libunwind's on that wrong base.
test_expect_success CC,EVENTS 'processes a shell forks and execs: perf'"'"'s chains' '
	cd "$TRASH" &&
	tperf record -q -e cpu-clock -F 4000 --call-graph dwarf -o ex.data -- \
		sh -c "for i in 1 2 3 4 5 6 7 8 9 10 11 12; do ./dwarf-unwind 5; done" &&
	tperf script -i ex.data >out &&
	test $(grep -c "^dwarf-unwind " out) -gt 20 &&
	chains_are_perfs ex.data
'

# C++ exceptions thrown in threads: samples in libgcc's unwinder (rules the
# CFI cache does not replay), chains that end on a return address 0.
test_expect_success CXX,EVENTS 'C++ exceptions in threads: perf'"'"'s chains' '
	cd "$TRASH" &&
	cat >exc.cpp <<-\EOF &&
	#include <stdexcept>
	#include <thread>
	#include <vector>
	static int depth(int n) { if (n == 0) throw std::runtime_error("x"); return depth(n - 1) + 1; }
	static void work()
	{
		long s = 0;
		for (int i = 0; i < 20000; i++) {
			try { s += depth(i % 20); } catch (const std::exception &e) { s++; }
		}
	}
	int main()
	{
		std::vector<std::thread> t;
		for (int i = 0; i < 3; i++)
			t.emplace_back(work);
		work();
		for (auto &x : t)
			x.join();
	}
	EOF
	g++ -O2 -g -o exc exc.cpp -pthread &&
	tperf record -q -e cpu-clock -F 4000 --call-graph dwarf -o exc.data -- ./exc &&
	tperf script -i exc.data >out &&
	grep -q "_Unwind_RaiseException" out &&
	chains_are_perfs exc.data
'

# Code no file backs: perf's glue gives the sample's IP, then finds no CFI.
test_expect_success CC,EVENTS 'a sample in JIT code: its IP, as perf' '
	cd "$TRASH" &&
	cat >jit.c <<-\EOF &&
	#include <string.h>
	#include <sys/mman.h>
	/* mov %rdi,%rax; 1: dec %rax; jnz 1b; ret */
	static const unsigned char code[] = { 0x48, 0x89, 0xf8, 0x48, 0xff, 0xc8, 0x75, 0xfb, 0xc3 };
	int main(void)
	{
		unsigned char *p = mmap(0, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		memcpy(p, code, sizeof(code));
		for (int i = 0; i < 30; i++)
			((long (*)(long))p)(10000000);
		return 0;
	}
	EOF
	cc -O2 -o jit jit.c &&
	tperf record -q -e cpu-clock -F 2000 --call-graph dwarf -o jit.data -- ./jit &&
	tperf script -i jit.data -F ip,dso >out &&
	grep -q "^[[:space:]]*[0-9a-f]* (/tmp/perf-[0-9]*\.map)$" out &&
	if test_have_prereq PERF; then
		perf script -i jit.data -F ip,dso >expect 2>/dev/null &&
		test_cmp expect out &&
		report_same jit.data "--children;--no-children"
	fi
'

# script's lines of DWARF frames: each frame of an inline expansion its own
# (the call's line for the outer ones), "??:0" in a symbol without one
test_expect_success CC,EVENTS,PERF 'script -F ip,sym,srcline of DWARF chains is perf'"'"'s' '
	cd "$TRASH" &&
	tperf script -i t.data -F ip,sym,srcline >actual &&
	grep -q "^  ??:0$" actual && grep -q "(inlined)$" actual &&
	perf script -i t.data -F ip,sym,srcline >expect 2>/dev/null &&
	test_cmp expect actual
'

test_expect_success RUSTC,EVENTS 'Rust: inline frames of rustc'"'"'s units' '
	cd "$TRASH" &&
	cat >rs.rs <<-\EOF &&
	use std::collections::HashMap;
	#[inline(never)]
	fn work(n: u64) -> u64 {
	    let mut m = HashMap::new();
	    for i in 0..n { *m.entry(i % 1000).or_insert(0u64) += i; }
	    m.values().sum()
	}
	fn main() {
	    let mut s = 0u64;
	    for r in 0..200 { s = s.wrapping_add(work(20000 + r)); }
	    println!("{}", s);
	}
	EOF
	rustc -O -g -o rs rs.rs &&
	tperf record -q -e cpu-clock -F 2000 --call-graph dwarf -o rs.data -- ./rs >/dev/null &&
	tperf script -i rs.data >s &&
	grep -q "hashbrown::.*+0x[0-9a-f]* (inlined)$" s &&
	grep -q "rs::work+0x[0-9a-f]* (.*/rs)$" s
'

# The kernel copies SIZE bytes when the address space reaches that far above
# the stack pointer, but only the bytes up to the top of the stack are
# filled (dyn_size): with 65528 bytes asked, every copy of the main
# thread ends well before its size.
test_expect_success CC,EVENTS,PERF 'tperf'"'"'s file keeps only the used part of each stack copy' '
	cd "$TRASH" &&
	tperf record -q -e cpu-clock -F 4000 --call-graph dwarf,65528 -o big-t.data -- \
		./dwarf-unwind 50 &&
	tperf evlist -v -i big-t.data | grep -o "sample_stack_user: [0-9]*" >actual &&
	echo "sample_stack_user: 65528" >expect &&
	test_cmp expect actual &&
	perf report -D -i big-t.data 2>/dev/null | sed -n "s/.*ustack: size \([0-9]*\),.*/\1/p" >sizes &&
	test -s sizes &&
	test $(awk "\$1 < 32768" sizes | wc -l) -gt $(($(wc -l <sizes) * 9 / 10))
'

test_expect_success CC,EVENTS,PERF 'the file is smaller than perf'"'"'s for the same samples' '
	cd "$TRASH" &&
	perf record -q -e cpu-clock -F 4000 --call-graph dwarf,65528 -o big-p.data -- \
		./dwarf-unwind 50 2>/dev/null &&
	ts=$(stat -c %s big-t.data) tn=$(tperf report -i big-t.data --stats | sed -n "s/^ *SAMPLE events: *\([0-9]*\).*/\1/p" | head -1) &&
	ps=$(stat -c %s big-p.data) pn=$(tperf report -i big-p.data --stats | sed -n "s/^ *SAMPLE events: *\([0-9]*\).*/\1/p" | head -1) &&
	test $((ts / tn * 2)) -lt $((ps / pn)) &&
	tperf report -i big-t.data --stdio --no-inline >actual &&
	perf report -i big-t.data --stdio --no-inline 2>/dev/null >expect.raw &&
	untip expect.raw >expect && untip actual >actual.u &&
	test_cmp expect actual.u
'

test_expect_success CC,EVENTS 'a 512-byte copy truncates chains: counted, hinted, perf'"'"'s frames' '
	cd "$TRASH" &&
	tperf record -q -e cpu-clock --call-graph dwarf,512 -o small.data -- ./dwarf-unwind 200 big &&
	tperf report -i small.data --stats >stats 2>err &&
	n=$(sed -n "s/^ *TRUNCATED chains: *\([0-9]*\).*/\1/p" stats) &&
	test "$n" -gt 0 || { echo "no truncated chain:"; cat stats; exit 1; } &&
	tperf report -i small.data --stdio >/dev/null 2>err &&
	grep -q "^tperf: note: [0-9]* of [0-9]* DWARF callchains (.*) were cut short at the end of the stack copy: record with a larger size, e.g. --call-graph dwarf,1024$" err &&
	tperf record -q -e cpu-clock --call-graph dwarf,65528 -o big.data -- ./dwarf-unwind 200 big &&
	tperf script -i small.data -F ip,sym,dso | grep -v kernel.kallsyms >s &&
	if test_have_prereq LIBUNWIND; then
		# as perf: a return address read past the copy is 0 (the [unknown] frame at -1)
		grep -q "^[[:space:]]*ffffffffffffffff \[unknown\] (\[unknown\])$" s
	fi &&
	if test_have_prereq PERF && test_have_prereq LIBUNWIND; then
		perf script -i small.data -F ip,sym,dso 2>/dev/null | grep -v kernel.kallsyms >expect &&
		test_cmp expect s
	fi &&
	folded s | sed "s/;\[unknown\]$//" | sort -u >chains &&
	tperf script -i big.data -F ip,sym,dso | grep -v kernel.kallsyms >sfull &&
	folded sfull | sort -u >full &&
	grep -q "^compute;big_frame;main;" full &&
	while read c; do
		case "$c" in
		*compute*|*lib_inner*|*mix*|*site_*) grep -qF "$c" full || { echo "wrong: $c"; exit 1; } ;;
		esac
	done <chains
'

test_expect_success CC,EVENTS,PERF 'fp chains in every -g mode, address and srcline keys are perf'"'"'s' '
	cd "$TRASH" &&
	F="-O2 -fno-omit-frame-pointer -g" &&
	cc $F -o fp-unwind $W/dwarf-unwind.c -L. -Wl,--no-as-needed -ldwarfspin -Wl,-rpath,"$TRASH" &&
	perf record -q -e cpu-clock -F 4000 -g -o pfp.data -- ./fp-unwind 60 big 3 2>/dev/null &&
	report_same pfp.data "--children;--no-children;$MODES" &&
	report_same pfp.data "-g flat,0,caller,count;-g fractal,0.5,caller,count" &&
	report_same pfp.data "--no-children -g fractal,2,callee,period" &&
	report_same pfp.data "--no-children -g graph,0.5,caller,address;-g graph,0.5,callee,address" &&
	report_same pfp.data "--no-children -g flat,0,caller,address;-g folded,0.5,callee,address" &&
	report_same pfp.data "--no-children -g graph,0,caller,srcline;-g fractal,0.5,callee,srcline"
'

test_expect_success CC,EVENTS,PERF 'address and srcline keys of DWARF chains: inline frames, their lines' '
	cd "$TRASH" &&
	report_same p.data "--no-children -g graph,0.5,caller,address --percent-limit 5" &&
	report_same p.data "--no-children -g flat,0.5,callee,address --percent-limit 5" &&
	report_same p.data "-g graph,0.5,caller,srcline --percent-limit 5" &&
	tperf report -i p.data --stdio --no-children -g caller,address >out &&
	grep -q "site_a dwarf-unwind.c:[0-9]*$" out &&
	grep -q "mix dwarf-unwind.c:[0-9]* (inlined)$" out
'

K=$DATA_DIR/kdab-dwarf-unwind-x86_64
test_expect_success PERF 'the kdab DWARF fixture without its binary: perf'"'"'s report and script' '
	cd "$TRASH" &&
	for o in "--children" "--no-children" "--no-children -g none --sort comm,dso,sym" \
		 "-g folded" "--no-children -g flat" "-g fractal" "--no-children -g fractal" \
		 "--no-children -g caller,address" "-g caller,srcline"; do
		perf report -i $K/perf.data --stdio $o --symfs=/nonexistent --kallsyms=/dev/null 2>/dev/null >expect.raw &&
		tperf report -i $K/perf.data --stdio $o --symfs=/nonexistent --kallsyms=/dev/null >actual.raw 2>/dev/null &&
		untip expect.raw >expect && untip actual.raw >actual &&
		test_cmp expect actual || exit 1
	done &&
	tperf script -i $K/perf.data --symfs=/nonexistent --kallsyms=/dev/null | head -60 >actual &&
	test_cmp $K/expected-perf-script-head.txt actual
'

Z=$DATA_DIR/kdab-zstd-sched-switch-dwarf/perf.data.zstd
test_expect_success PERF 'the kdab zstd sched_switch DWARF fixture: perf'"'"'s report' '
	cd "$TRASH" &&
	for o in "--children" "--no-children" "-g folded" "-g fractal" "--no-children -g fractal" \
		 "--no-children -g caller,address" "-g caller,srcline"; do
		perf report -i $Z --stdio $o --symfs=/nonexistent --kallsyms=/dev/null 2>/dev/null >expect.raw &&
		tperf report -i $Z --stdio $o --symfs=/nonexistent --kallsyms=/dev/null >actual.raw 2>/dev/null &&
		untip expect.raw >expect && untip actual.raw >actual &&
		test_cmp expect actual || exit 1
	done
'

# perf caps the sample's own (kernel) chain and the user frames it unwinds
# at --max-stack each, counting unwound frames, not their inline frames.
test_expect_success CC,EVENTS,PERF 'kernel frames over a user stack deeper than 127: perf'"'"'s chains' '
	cd "$TRASH" &&
	cc -O2 -g -o deep-sys $W/dwarf-deep-syscall.c &&
	perf record -q -e cpu-clock -F 1000 --call-graph dwarf -o ds.data -- ./deep-sys 500 \
		>/dev/null 2>&1 &&
	tperf record -q -e cpu-clock -F 1000 --call-graph dwarf -o tds.data -- ./deep-sys 500 &&
	for f in ds.data tds.data; do
		for m in "" "--max-stack 5"; do
			perf script -i $f $m >expect 2>/dev/null &&
			tperf script -i $f $m >actual &&
			test_cmp expect actual || exit 1
		done &&
		report_same $f "--children;--no-children -G;--children --max-stack 5 -G" &&
		report_same $f "--no-children --max-stack 140" || exit 1
	done &&
	# a sample in write() keeps the 127 frames of rec below its kernel frames
	tperf script -i ds.data >s &&
	awk "BEGIN { RS = \"\"; FS = \"\\n\" } /ksys_write/ {
		n = 0; for (i = 2; i <= NF; i++) if (\$i !~ /inlined|kernel\.kallsyms/) n++; print n }" s |
		sort -n | tail -1 >nrec &&
	echo 127 >expect && test_cmp expect nrec
'

# $1 OUT, then mk-perf-data.py --dwarf arguments: samples of $TRASH/calltree
mk_dwarf() {
	out=$1; shift
	python3 "$TESTS_DIR/shell/mk-perf-data.py" $out "$TRASH/calltree" --dwarf "$@"
}

# calltree's addresses: an IP in spin, the return addresses of spin's call
# in work_one, of work_one's in run, of run's in main
calltree_addrs() {
	objdump -d --no-show-raw-insn "$TRASH/calltree" | awk '
		/^[0-9a-f]+ <[^>]*>:$/ { f = $2; gsub(/[<>:]/, "", f); next }
		/^ +[0-9a-f]+:/ {
			a = $1; sub(":", "", a)
			if (want != "") { r[want] = a; want = "" }
			if (f == "spin" && /mov +%rsp,%rbp/) want = "ip"
			if (f == "work_one" && /call.*<spin>/) want = "r1"
			if (f == "run" && /call.*<work_one>/) want = "r2"
			if (f == "main" && /call.*<run>/) want = "r3"
		}
		END { print r["ip"], r["r1"], r["r2"], r["r3"] }'
}

test_expect_success CC 'build the call tree workload, its addresses' '
	cc -O0 -g -fno-omit-frame-pointer -o "$TRASH/calltree" $W/record-calltree.c &&
	calltree_addrs >"$TRASH/addrs" &&
	test $(wc -w <"$TRASH/addrs") = 4
'

# A frame whose address (a return address one byte back) is 0 gives no
# entry in perf's chains, but counts for --max-stack: a return address 1
# at the end; the sampled IP 0 (the whole chain); a return address 0 (the
# frame at -1 that libunwind gives is shown).
test_expect_success CC 'DWARF frames at address 0 go, as perf drops them' '
	read -r ip r1 r2 r3 <"$TRASH/addrs" &&
	mk_dwarf z.data $ip,$r1,$r2,$r3,=1 =0,$r1,$r2,$r3 $ip,$r1,=1 $ip,=0,$r2 &&
	tperf script -i z.data -F ip,sym >actual &&
	printf "%s\n" "" "	$(printf %16x 0x$ip) spin" "	$(printf %16x $((0x$r1 - 1))) work_one" \
		"	$(printf %16x $((0x$r2 - 1))) run" "	$(printf %16x $((0x$r3 - 1))) main" "" \
		"" "" "" "	$(printf %16x 0x$ip) spin" "	$(printf %16x $((0x$r1 - 1))) work_one" "" \
		"" "	$(printf %16x 0x$ip) spin" "	ffffffffffffffff [unknown]" "" >expect &&
	test_cmp expect actual &&
	tperf script -i z.data --max-stack 4 -F ip,sym >actual4 &&
	test_cmp expect actual4 &&
	if test_have_prereq PERF; then
		for o in "" "--max-stack 4" "--max-stack 2" "--unwinder=libunwind"; do
			test "$o" = --unwinder=libunwind && ! test_have_prereq LIBUNWIND && continue
			perf script -i z.data ${o%--unwinder*} >expect 2>/dev/null &&
			tperf script -i z.data $o >actual &&
			test_cmp expect actual || exit 1
		done &&
		report_same z.data "--children;--no-children;--no-children -G"
	fi
'

# 130 user frames under 3 kernel frames: each part capped on its own
test_expect_success CC 'a deep DWARF chain under kernel frames: --max-stack caps each part' '
	read -r ip r1 r2 r3 <"$TRASH/addrs" &&
	deep=$ip,$r1$(printf ",$r2%.0s" $(seq 128)),$r3 &&
	mk_dwarf d.data -k ffffffff81000100,ffffffff81000200,ffffffff81000300 $deep $ip,$r1,$r2,$r3 &&
	tperf script -i d.data -F ip --kallsyms=/dev/null >s &&
	awk "BEGIN { RS = \"\" } { print NF }" s >n &&
	printf "%s\n" 130 8 >expect && test_cmp expect n &&
	tperf script -i d.data -F ip --kallsyms=/dev/null --max-stack 2 >s &&
	awk "BEGIN { RS = \"\" } { print NF }" s >n &&
	printf "%s\n" 4 4 >expect && test_cmp expect n &&
	tperf report -i d.data --stdio --kallsyms=/dev/null --no-children -G --max-stack 2 -q >r &&
	sed -n "3,6p" r | tr -d " |-" >top &&
	printf "%s\n" work_one spin 0xffffffff81000300 0xffffffff81000200 >expect &&
	test_cmp expect top &&
	if test_have_prereq PERF; then
		for m in "" "--max-stack 0" "--max-stack 2" "--max-stack 4" "--max-stack 129"; do
			perf script -i d.data --kallsyms=/dev/null $m >expect 2>/dev/null &&
			tperf script -i d.data --kallsyms=/dev/null $m >actual &&
			test_cmp expect actual || exit 1
		done &&
		for m in "" "--max-stack 2" "--max-stack 129"; do
			report_same d.data "--children $m --kallsyms=/dev/null;--no-children -G $m --kallsyms=/dev/null" ||
			exit 1
		done
	fi
'

test_expect_success '--max-stack takes no negative number in script' '
	test_expect_code 129 tperf script -i /dev/null --max-stack -1 2>err &&
	grep -q "max-stack" err
'

test_done
