#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# C++ and Rust (legacy and v0 mangling) programs: report and script show
# their demangled names as perf 6.1 does (no parameters, no Rust hash).
. "$(dirname "$0")/lib.sh"

test_lazy_prereq CXX 'command -v g++'
test_lazy_prereq RUSTC 'command -v rustc'
# libiberty's demangler is compiled in when its header is there (Makefile)
test_lazy_prereq IBERTY 'test -r /usr/include/libiberty/demangle.h'

cat >"$TRASH/w.cc" <<'EOS'
#include <chrono>
#include <vector>
namespace calc {
template <typename T> struct Acc {
	std::vector<T> v;
	__attribute__((noinline)) unsigned long total(unsigned long n) const
	{
		unsigned long s = 0;
		for (unsigned long i = 0; i < n; i++)
			s = s * 31 + (i ^ (s >> 3)) + v[i % v.size()];
		return s;
	}
};
__attribute__((noinline)) unsigned long run(const Acc<int> &a)
{
	return a.total(100000);
}
}
int main()
{
	calc::Acc<int> a{ std::vector<int>(64, 3) };
	unsigned long r = 0;
	auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(400);
	while (std::chrono::steady_clock::now() < end)
		r += calc::run(a);
	return r == 42;
}
EOS

cat >"$TRASH/w.rs" <<'EOS'
#[inline(never)]
fn hot_inner(n: u64) -> u64 { let mut s = 0u64; for i in 0..n { s = s.wrapping_mul(31).wrapping_add(i ^ (s >> 3)); } s }
struct Acc<T> { v: Vec<T> }
impl<T: Copy + Into<u64>> Acc<T> {
    #[inline(never)]
    fn total(&self) -> u64 { let mut t = 0; for x in &self.v { t += hot_inner((*x).into()); } t }
}
fn main() {
    let a = Acc { v: vec![20000u32; 200] };
    let t = std::time::Instant::now();
    let mut r = 0;
    while t.elapsed().as_millis() < 400 { r += a.total(); }
    std::process::exit((r == 42) as i32);
}
EOS

syms() {
	f=$1; shift
	tperf report -i "$f" --stdio --no-children --sort sym -g none --percent-limit 2 "$@" |
		grep -v "^#" | grep -v "^\$" | sed "s/^ *[0-9.]*%  //"
}

test_expect_success CXX,IBERTY 'C++: namespaces and templates, without parameters' '
	g++ -O2 -g -fno-omit-frame-pointer -o w "$TRASH/w.cc" &&
	tperf record -q -F 999 -g -o w.data ./w &&
	syms w.data >actual &&
	grep -qx "\[\.\] calc::Acc<int>::total" actual &&
	tperf script -i w.data >scr &&
	grep -q "calc::Acc<int>::total+0x[0-9a-f]* (.*/w)\$" scr
'

test_expect_success CXX,IBERTY '--no-demangle: the names as the symbol table has them' '
	g++ -O2 -g -fno-omit-frame-pointer -o w "$TRASH/w.cc" &&
	tperf record -q -F 999 -g -o w.data ./w &&
	syms w.data --no-demangle >raw &&
	grep -qx "\[\.\] _ZNK4calc3AccIiE5totalEm" raw &&
	! grep -q "calc::" raw &&
	tperf script -i w.data --no-demangle >scr &&
	grep -q "_ZNK4calc3AccIiE5totalEm+0x[0-9a-f]* (.*/w)\$" scr &&
	tperf report -i w.data --stdio --no-demangle --demangle --no-children -g none >back &&
	grep -q "calc::Acc<int>::total" back
'

test_expect_success RUSTC,IBERTY 'Rust legacy and v0 manglings' '
	rustc -O -g -C force-frame-pointers=yes -o wl "$TRASH/w.rs" &&
	rustc -O -g -C force-frame-pointers=yes -C symbol-mangling-version=v0 -o wv "$TRASH/w.rs" &&
	nm wl | grep -q "_ZN.*9hot_inner17h[0-9a-f]\{16\}E" &&
	nm wv | grep -q "_RNv.*9hot_inner" &&
	for b in wl wv; do
		tperf record -q -F 999 -g -o $b.data ./$b &&
		syms $b.data >actual &&
		grep -qx "\[\.\] w[lv]*::hot_inner" actual || { cat actual; exit 1; }
	done
'

same_as_perf() {
	perf report -i "$1" --stdio --no-children --sort dso,sym -g none 2>/dev/null | grep -v "^#" >expect &&
	tperf report -i "$1" --stdio --no-children --sort dso,sym -g none | grep -v "^#" >actual &&
	test_cmp expect actual &&
	perf script -i "$1" 2>/dev/null | grep -v "\[unknown\]" >expect &&
	tperf script -i "$1" | grep -v "\[unknown\]" >actual &&
	test_cmp expect actual &&
	perf report -i "$1" --stdio --no-demangle --no-children -g none 2>/dev/null | grep -v "^#" >expect &&
	tperf report -i "$1" --stdio --no-demangle --no-children -g none | grep -v "^#" >actual &&
	test_cmp expect actual &&
	perf script -i "$1" --no-demangle 2>/dev/null | grep -v "\[unknown\]" >expect &&
	tperf script -i "$1" --no-demangle | grep -v "\[unknown\]" >actual &&
	test_cmp expect actual
}

test_expect_success CXX,RUSTC,IBERTY,PERF 'the same names as perf 6.1 on the same files' '
	g++ -O2 -g -fno-omit-frame-pointer -o w "$TRASH/w.cc" &&
	rustc -O -g -C force-frame-pointers=yes -o wl "$TRASH/w.rs" &&
	rustc -O -g -C force-frame-pointers=yes -C symbol-mangling-version=v0 -o wv "$TRASH/w.rs" &&
	for b in w wl wv; do
		perf record -q -F 999 -g -o $b.data ./$b 2>/dev/null
		same_as_perf $b.data || { echo "differs on $b"; exit 1; }
	done
'

test_done
