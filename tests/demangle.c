// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for symbol__demangle(): C++ and Rust names as perf 6.1 shows them. */
#include <stdlib.h>

#include "tests/tests.h"
#include "util/symbol/symbol.h"

static int check(const char *mangled, const char *expected)
{
	char *d = symbol__demangle(mangled);
	int ok = (!d && !expected) || (d && expected && !strcmp(d, expected));

	if (!ok)
		TEST_FAILED_AT("'%s': got '%s', expected '%s'", mangled, d ? d : "(null)",
			       expected ? expected : "(null)");
	free(d);
	return ok;
}

TPERF_TEST(demangle_cpp, "demangle: C++ names without parameters, as perf shows them")
{
	char *probe = symbol__demangle("_ZN3foo3barEv");

	if (!probe)
		return test_skip("built without libiberty (Debian package libiberty-dev)");
	free(probe);
	TEST_ASSERT_VAL("namespace", check("_ZN3foo3barEv", "foo::bar"));
	TEST_ASSERT_VAL("overloads are one name", check("_ZN3foo3barEi", "foo::bar"));
	TEST_ASSERT_VAL("template", check("_ZNSt6vectorIiSaIiEE9push_backERKi",
					  "std::vector<int, std::allocator<int> >::push_back"));
	TEST_ASSERT_VAL("operator", check("_ZN3FooplERKS_", "Foo::operator+"));
	TEST_ASSERT_VAL("lambda", check("_ZZ4mainENKUlvE_clEv", "main::{lambda()#1}::operator()"));
	TEST_ASSERT_VAL("C name", check("main", NULL));
	TEST_ASSERT_VAL("not a mangling", check("_Zfoo", NULL));
	return TEST_OK;
}

TPERF_TEST(demangle_rust, "demangle: Rust legacy (hash removed) and v0 names")
{
	char *probe = symbol__demangle("_ZN3foo3barEv");

	if (!probe)
		return test_skip("built without libiberty (Debian package libiberty-dev)");
	free(probe);
	TEST_ASSERT_VAL("legacy, hash removed",
			check("_ZN4core3fmt5write17h1234567890abcdefE", "core::fmt::write"));
	TEST_ASSERT_VAL("legacy escapes",
			check("_ZN1r12Acc$LT$T$GT$5total17h73f4a264338ce552E", "r::Acc<T>::total"));
	TEST_ASSERT_VAL("legacy trait impl",
			check("_ZN79_$LT$hashbrown..raw..RawTable$LT$T$C$A$GT$$u20$as$u20$core..ops..drop..Drop$GT$4drop17h5a3cbe32dbda107fE",
			      "<hashbrown::raw::RawTable<T,A> as core::ops::drop::Drop>::drop"));
	TEST_ASSERT_VAL("legacy with an LLVM suffix",
			check("_ZN9hashbrown3raw21RawTable$LT$T$C$A$GT$14reserve_rehash17h477217d1bccf7f1cE.llvm.13404514464115716570",
			      "hashbrown::raw::RawTable<T,A>::reserve_rehash"));
	TEST_ASSERT_VAL("v0 path", check("_RNvCs15kBYyAo9fc_7mycrate7example", "mycrate::example"));
	TEST_ASSERT_VAL("v0 inherent impl", check("_RNvMNtCs1234_4core3fmtNtB2_9Formatter3pad",
						  "<core::fmt::Formatter>::pad"));
	TEST_ASSERT_VAL("v0 generic",
			check("_RINvMNtCsgEmfK2I1SDS_4core3stre18trim_start_matchesReECsgY6Mt91CT9J_14rustc_demangle",
			      "<str>::trim_start_matches::<&str>"));
	TEST_ASSERT_VAL("bad v0", check("_RNvC", NULL));
	return TEST_OK;
}
