// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of util/probe/probe-event.c and util/probe/sdt.c: the definition parser
 * (fields, errors and their positions), default names, uprobe lines and
 * their safety check, SDT argument conversion and note parsing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tests.h"
#include "util/symbol/probe-cxx.h"
#include "util/probe/probe-event.h"
#include "util/probe/probe-filter.h"
#include "util/probe/sdt.h"

TPERF_TEST(probe_def_parse_full, "probe: a full definition parsed into its parts")
{
	struct probe_parse_error err;
	struct probe_def d;

	TEST_ASSERT_EQUAL("parse", probe_def__parse("g1:ev=walk@prog.c:3 x=p->name:string p[2].y $comm",
						     &d, &err), 0);
	TEST_ASSERT_STR("group", d.group, "g1");
	TEST_ASSERT_STR("event", d.event, "ev");
	TEST_ASSERT_STR("func", d.func, "walk");
	TEST_ASSERT_STR("file", d.file, "prog.c");
	TEST_ASSERT_EQUAL("line", d.line, 3);
	TEST_ASSERT_EQUAL("nr_args", d.nr_args, 3);
	TEST_ASSERT_STR("arg0 name", d.args[0].name, "x");
	TEST_ASSERT_STR("arg0 var", d.args[0].var, "p");
	TEST_ASSERT_VAL("arg0 ->", d.args[0].nr_fields == 1 && d.args[0].fields[0].ref);
	TEST_ASSERT_STR("arg0 type", d.args[0].type, "string");
	TEST_ASSERT_VAL("arg1 [2].y", d.args[1].nr_fields == 2 && !d.args[1].fields[0].name &&
			d.args[1].fields[0].index == 2 && !d.args[1].fields[1].ref);
	TEST_ASSERT_EQUAL("arg2 $comm", d.args[2].kind, PROBE_ARG_COMM);
	probe_def__exit(&d);
	return TEST_OK;
}

TPERF_TEST(probe_def_parse_forms, "probe: %return, +OFFS, ;PTN, SRC:ALN and SDT spellings")
{
	struct probe_parse_error err;
	struct probe_def d;

	TEST_ASSERT_EQUAL("%return", probe_def__parse("f%return $retval", &d, &err), 0);
	TEST_ASSERT_VAL("ret", d.retprobe && d.args[0].kind == PROBE_ARG_RETVAL);
	probe_def__exit(&d);
	TEST_ASSERT_EQUAL("+OFFS", probe_def__parse("f+0x10", &d, &err), 0);
	TEST_ASSERT_EQUAL("offset", d.offset, 16);
	probe_def__exit(&d);
	TEST_ASSERT_EQUAL(";PTN", probe_def__parse("e=f;x=a* v", &d, &err), 0);
	TEST_ASSERT_VAL("lazy", !strcmp(d.event, "e") && !strcmp(d.lazy, "x=a*") && d.nr_args == 1);
	probe_def__exit(&d);
	TEST_ASSERT_EQUAL("0xADDR", probe_def__parse("e=0x1169+4%return", &d, &err), -EINVAL);
	TEST_ASSERT_EQUAL("0xADDR", probe_def__parse("e=0x1169+4 %di", &d, &err), 0);
	TEST_ASSERT_VAL("abs", d.abs && d.addr == 0x1169 && d.offset == 4 && !d.func);
	probe_def__exit(&d);
	TEST_ASSERT_EQUAL("SRC:ALN", probe_def__parse("src/a.c:12 v", &d, &err), 0);
	TEST_ASSERT_VAL("file only", !d.func && !strcmp(d.file, "src/a.c") && d.line == 12);
	probe_def__exit(&d);
	for (int i = 0; i < 3; i++) {
		static const char *const s[] = { "sdt_prov:name", "%sdt_prov:name", "%prov:name" };

		TEST_ASSERT_EQUAL(s[i], probe_def__parse(s[i], &d, &err), 0);
		TEST_ASSERT_VAL("sdt", d.sdt && !strcmp(d.func, "prov") && !strcmp(d.file, "name"));
		probe_def__exit(&d);
	}
	return TEST_OK;
}

TPERF_TEST(probe_def_parse_cxx, "probe: C++ names: qualified, templates, overloads")
{
	struct probe_parse_error err;
	struct probe_def d;
	char ev[64];

	TEST_ASSERT_EQUAL("parse", probe_def__parse("ns::C::add(int,long*):2 v", &d, &err), 0);
	TEST_ASSERT_STR("func", d.func, "ns::C::add(int,long*)");
	TEST_ASSERT_VAL("line, arg", d.line == 2 && d.nr_args == 1);
	probe_def__exit(&d);
	TEST_ASSERT_EQUAL("template", probe_def__parse("e=maxof<int>%return", &d, &err), 0);
	TEST_ASSERT_VAL("ret", d.retprobe && !strcmp(d.func, "maxof<int>"));
	probe_def__exit(&d);
	TEST_ASSERT_EQUAL("@SRC", probe_def__parse("a::b@x.cc+4", &d, &err), 0);
	TEST_ASSERT_VAL("src", !strcmp(d.func, "a::b") && !strcmp(d.file, "x.cc") &&
			d.offset == 4);
	probe_def__exit(&d);
	TEST_ASSERT_VAL("qualified", probe_cxx__qualified("a::b") && probe_cxx__qualified("f<int>") &&
			!probe_cxx__qualified("add"));
	probe_cxx__event_name("ns::C<a::b>::add(int, x::y)", ev, sizeof(ev));
	TEST_ASSERT_STR("event", ev, "add");
	probe_cxx__event_name("ns::~C", ev, sizeof(ev));
	TEST_ASSERT_STR("dtor event", ev, "_C");
	if (!probe_cxx__can_demangle())
		return test_skip("built without libiberty");
	TEST_ASSERT_VAL("match", probe_cxx__match("C::add", "_ZN2ns1C3addEii"));
	TEST_ASSERT_VAL("full", probe_cxx__match("ns::C::add", "_ZN2ns1C3addEii"));
	TEST_ASSERT_VAL("not a tail at ::", !probe_cxx__match("s::C::add", "_ZN2ns1C3addEii"));
	TEST_ASSERT_VAL("overload", probe_cxx__match("add(int, int)", "_ZN2ns1C3addEii") &&
			!probe_cxx__match("add(int)", "_ZN2ns1C3addEii"));
	TEST_ASSERT_VAL("template", probe_cxx__match("maxof<int>(int,int)", "_Z5maxofIiET_S0_S0_"));
	TEST_ASSERT_VAL("clone", probe_cxx__match("ns::C::add", "_ZN2ns1C3addEi.isra.0"));
	TEST_ASSERT_VAL("C name", !probe_cxx__match("ns::add", "add"));
	return TEST_OK;
}

TPERF_TEST(probe_def_parse_errors, "probe: bad definitions: message and position")
{
	static const struct { const char *def; int pos; const char *msg; } cases[] = {
		{ "f a:u7", 4, "unknown type 'u7' (use u8..u64, s8..s64, x8..x64 or string)" },
		{ "9e=f", 0, "invalid event name '9e' (letters, digits and '_', not starting with a digit)" },
		{ "f\nx", 1, "unexpected character '\\n'" },
		{ "f a;b", 3, "unexpected character ';'" },
		{ "f;", 2, "expected a line pattern after ';'" },
		{ "f:0", 2, "line number out of range" },
		{ "f+z", 2, "expected a byte offset" },
		{ "f $foo", 2, "unknown special variable (use $retval, $comm, $params or $vars)" },
		{ "f a->", 5, "expected a member name" },
		{ "f a[x]", 4, "expected a non-negative index and ']'" },
		{ "f:3%return", 2, "expected a line number" },
		{ "a.c", 3, "expected ':LINE' or ';PTN' after the source file" },
		{ "", 0, "empty probe definition" },
		{ "f $comm:u8", 7, "'$comm' takes no type" },
		{ "f a`b`", 3, "unexpected character '`'" },
		{ "ns::", 4, "expected a name after '::'" },
		{ "0x12:3", 4, "expected '+OFFS' or '%return' after the address" },
		{ "0xzz", 0, "expected a hexadecimal address" },
		{ "ns::f<int", 9, "expected '>'" },
		{ "ns::f(int", 9, "expected ')' after the parameters" },
		{ "f<a;b>", 3, "unexpected ';' in the template arguments" },
		{ "f(a+b)", 3, "unexpected '+' in the parameters" },
		{ "f (x)", 2, "unexpected character '('" },
	};
	struct probe_parse_error err;
	struct probe_def d;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		TEST_ASSERT_EQUAL(cases[i].def, probe_def__parse(cases[i].def, &d, &err), -EINVAL);
		TEST_ASSERT_STR(cases[i].def, err.msg, cases[i].msg);
		TEST_ASSERT_EQUAL(cases[i].def, err.pos, cases[i].pos);
	}
	return TEST_OK;
}

TPERF_TEST(probe_names_and_lines, "probe: default group, uprobe line and its safety check")
{
	struct probe_site s = { .group = "probe_prog", .event = "add", .offset = 0x1143,
				.ref_offset = 0x3040 };
	char buf[256];

	probe__default_group("/usr/lib/x86_64-linux-gnu/libc.so.6", buf, sizeof(buf));
	TEST_ASSERT_STR("libc", buf, "probe_libc");
	probe__default_group("/bin/my-prog", buf, sizeof(buf));
	TEST_ASSERT_STR("dash", buf, "probe_my_prog");
	s.path = (char *)"/bin/prog";
	s.fetchargs = (char *)"a=-4(%bp):s32";
	TEST_ASSERT_VAL("line", probe_site__line(&s, buf, sizeof(buf)) > 0);
	TEST_ASSERT_STR("line", buf, "p:probe_prog/add /bin/prog:0x1143(0x3040) a=-4(%bp):s32");
	TEST_ASSERT_EQUAL("safe", probe_site__check(&s), 0);
	s.path = (char *)"/bin/pr og";
	TEST_ASSERT_EQUAL("space in path", probe_site__check(&s), -EINVAL);
	s.path = (char *)"/bin/prog";
	s.fetchargs = (char *)"a=1\n-:x";
	TEST_ASSERT_EQUAL("newline", probe_site__check(&s), -EINVAL);
	TEST_ASSERT_VAL("name", probe_name__valid("a_1") && !probe_name__valid("a-1") &&
			!probe_name__valid("") && !probe_name__valid("1a"));
	return TEST_OK;
}

TPERF_TEST(probe_sdt_args, "probe: SDT arguments converted as perf converts them")
{
	static const struct { const char *in, *out; int ret; } cases[] = {
		{ "-4@%edi", "arg1=%di:s32", 0 },
		{ "8@-16(%rbp)", "arg1=-16(%bp):u64", 0 },
		{ "-8@8(%rsp)", "arg1=+8(%sp):s64", 0 },
		{ "1@%r8b", "arg1=%r8:u8", 0 },
		{ "-2@(%rax)", "arg1=+0(%ax):s16", 0 },
		{ "4@$5", "", 1 },
		{ "-8@8(%rsp,%rdx,8)", "", 1 },
		{ "8@sym(%rip)", "", 1 },
		{ "3@%eax", "", -EINVAL },
		{ "4@%foo", "", -EINVAL },
		{ "4@", "", -EINVAL },
	};
	char out[128];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		out[0] = '\0';
		TEST_ASSERT_EQUAL(cases[i].in, sdt__convert_arg(cases[i].in, 1, out, sizeof(out)),
				  cases[i].ret);
		if (!cases[i].ret)
			TEST_ASSERT_STR(cases[i].in, out, cases[i].out);
	}
	TEST_ASSERT_EQUAL("skipped", sdt__convert_args("-4@%edi 4@$5 8@%rdx", out, sizeof(out)), 1);
	TEST_ASSERT_STR("args", out, "arg1=%di:s32 arg3=%dx:u64");
	return TEST_OK;
}

TPERF_TEST(probe_sdt_notes, "probe: .note.stapsdt parsed, malformed notes refused")
{
	unsigned char buf[128] = { 0 };
	const char desc_str[] = "prov\0name\0-4@%edi";
	uint32_t namesz = 8, descsz = 24 + sizeof(desc_str), type = 3;
	uint64_t pc = 0x1173, base = 0x2004, sem = 0x4040;
	struct sdt_note *notes = NULL;
	int nr = 0;
	size_t off = 0;

	memcpy(buf, &namesz, 4), memcpy(buf + 4, &descsz, 4), memcpy(buf + 8, &type, 4);
	memcpy(buf + 12, "stapsdt", 8);
	off = 20;
	memcpy(buf + off, &pc, 8), memcpy(buf + off + 8, &base, 8), memcpy(buf + off + 16, &sem, 8);
	memcpy(buf + off + 24, desc_str, sizeof(desc_str));
	off += (descsz + 3) & ~3u;
	TEST_ASSERT_EQUAL("parse", sdt__parse_notes(buf, off, true, &notes, &nr), 0);
	TEST_ASSERT_EQUAL("one note", nr, 1);
	TEST_ASSERT_VAL("fields", notes[0].pc == pc && notes[0].base == base &&
			notes[0].semaphore == sem && !strcmp(notes[0].provider, "prov") &&
			!strcmp(notes[0].name, "name") && !strcmp(notes[0].args, "-4@%edi"));
	sdt__free_notes(notes, nr);
	notes = NULL, nr = 0;
	descsz = 1000;	/* beyond the section */
	memcpy(buf + 4, &descsz, 4);
	TEST_ASSERT_EQUAL("truncated", sdt__parse_notes(buf, off, true, &notes, &nr), -EINVAL);
	TEST_ASSERT_EQUAL("none", nr, 0);
	return TEST_OK;
}

TPERF_TEST(probe_filter_expr, "probe: name filters: globs with !, &, |, () as perf's")
{
	static const struct { const char *expr, *name; bool match; } cases[] = {
		{ "!_* & !*@plt", "main", true }, { "!_* & !*@plt", "_init", false },
		{ "!_* & !*@plt", "printf@plt", false }, { "a* | m* & !a*", "add", true },
		{ "a* | m* & !a*", "main", true }, { "(a*|v*) & !*d*", "add", false },
		{ "(a*|v*) & !*d*", "visit", true }, { "!!a*", "add", true },
		{ " ( v* ) ", "visit", true }, { "*[._]*", "completed.0", true },
	};
	static const struct { const char *expr; int pos; } bad[] = {
		{ "", 0 }, { "(a*", 3 }, { "a* m*", 3 }, { "a* |", 4 }, { "()", 1 }, { "a&", 2 },
	};
	struct probe_filter *f = NULL;
	int pos;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		TEST_ASSERT_EQUAL(cases[i].expr, probe_filter__add(&f, cases[i].expr, &pos), 0);
		TEST_ASSERT_EQUAL(cases[i].name, probe_filter__match(f, cases[i].name),
				  cases[i].match);
		probe_filter__delete(f);
		f = NULL;
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		TEST_ASSERT_EQUAL(bad[i].expr, probe_filter__add(&f, bad[i].expr, &pos), -EINVAL);
		TEST_ASSERT_EQUAL(bad[i].expr, pos, bad[i].pos);
		TEST_ASSERT_VAL("nothing made", f == NULL);
	}
	{	/* deep nesting is refused, not a stack overflow */
		char deep[5002];

		memset(deep, '!', 5000);
		strcpy(deep + 5000, "a");
		TEST_ASSERT_EQUAL("deep", probe_filter__add(&f, deep, &pos), -EINVAL);
		memset(deep, '(', 5001);
		TEST_ASSERT_EQUAL("deep (", probe_filter__add(&f, deep, &pos), -EINVAL);
	}
	TEST_ASSERT_EQUAL("a*", probe_filter__add(&f, "a*", &pos), 0);
	TEST_ASSERT_EQUAL("or v*", probe_filter__add(&f, "v*", &pos), 0);
	TEST_ASSERT_VAL("or-ed", probe_filter__match(f, "add") && probe_filter__match(f, "visit") &&
			!probe_filter__match(f, "main"));
	TEST_ASSERT_EQUAL("bad", probe_filter__add(&f, "(", &pos), -EINVAL);
	TEST_ASSERT_VAL("kept", f && probe_filter__match(f, "add"));
	probe_filter__delete(f);
	return TEST_OK;
}
