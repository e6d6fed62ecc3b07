#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stat -M, --metric-only, --metric-no-group, --metric-no-merge against
# perf 6.1 with its Skylake-X metrics (PERF_CPUID=GenuineIntel-6-55-4).
# In a fake sysfs tree the "cpu" PMU has type 1 (the software PMU) and puts
# event/umask into config1, which the software PMU ignores: every Intel
# event opens as cpu-clock with real counts, under perf and tperf alike.
# tperf's metric table is made at test time from `perf list --details`'s
# output for the metrics used (nothing of perf's is kept in the tree).
# Numbers differ between runs: the outputs are compared with every number
# as N, field by field; the values are checked against the counts of the
# same run with each metric's formula.
. "$(dirname "$0")/lib.sh"

FAKE_SYSFS=/work/shared/tools/with-fake-sysfs
CPUID=GenuineIntel-6-55-4
test_lazy_prereq UNSHARE "[ -x $FAKE_SYSFS ] && unshare -m true" 'needs root and unshare -m (mount namespaces)'
test_lazy_prereq SKX "PERF_CPUID=$CPUID command perf list --details metric 2>/dev/null | grep -q '^  C3_Core_Residency\$'" \
	"perf 6.1 has no Skylake-X metric table"

M=$TRASH/m
mkdir -p "$M"

# mk_table FILE NAMES...: those of perf's metrics as a pmu-events JSON array
# (name, expression, description from perf list --details, groups from perf list)
mk_table() {
	out=$1; shift
	PERF_CPUID=$CPUID command perf list --details metric 2>/dev/null >"$out.list" &&
	PERF_CPUID=$CPUID command perf list 2>/dev/null | sed -n '/^Metric Groups:/,$p' |
		awk '/^[A-Za-z].*:$/ { g = substr($0, 1, length($0) - 1); next }
		     /^  [A-Za-z]/ { print $1, g }' >"$out.groups" &&
	awk -v want=" $* " -v groups="$out.groups" '
	function esc(s) { gsub(/\\/, "&&", s); gsub(/"/, "\\\"", s); return s }
	function flush() {
		if (name == "" || index(want, " " name " ") == 0)
			return
		g = ""
		while ((getline line < groups) > 0) {
			split(line, f, " ")
			if (f[1] == name)
				g = g (g == "" ? "" : ";") f[2]
		}
		close(groups)
		printf "%s{\"MetricName\": \"%s\", \"MetricExpr\": \"%s\", \"MetricGroup\": \"%s\", \"BriefDescription\": \"%s\"}", sep, name, esc(expr), g, esc(desc)
		sep = ",\n"
	}
	BEGIN { print "["; sep = "" }
	/^  [^ ]/ { flush(); name = $1; n = 0; desc = ""; expr = ""; next }
	/^       \[/ { s = $0; sub(/^ *\[/, "", s); sub(/\]$/, "", s); if (n++ == 0) desc = s; expr = s }
	END { flush(); print "\n]" }' "$out.list" >"$out" &&
	rm -f "$out.list" "$out.groups"
}

# Every number as N (a minus sign too: 0.00 and -0.00 are the same noise)
norm() {
	sed -e 's/ *-\{0,1\}[0-9][0-9.]*\(e[-+][0-9]*\)\{0,1\}/ N/g' "$@"
}

# The runs: each line of $M/cases is a set of stat options, run by perf and
# tperf in one fake sysfs namespace (one set-up for all of them)
cat >"$M/cases" <<'EOF'
-M IPC,CPI
-M IPC,CPI -x,
-M IPC,CPI -j
-M Branches
-M Branches --metric-no-merge
-M Branches --metric-no-group
-M Kernel_Utilization,IPC --metric-no-group
-M C3_Core_Residency,IPC --metric-only
-M C3_Core_Residency,IPC --metric-only -x,
-a -A -M IPC,CPI
-a -A -M IPC,CPI -x,
-a -A -M IPC -j
-a -A -M IPC --metric-only
-a -A -M IPC --metric-only -x,
-a --per-core -M IPC
-a --per-core -M IPC -x,
-a --per-socket -M IPC --metric-only
-a --per-socket -M IPC --metric-only -x,
-a --per-die -M IPC -x,
-r 2 -M IPC
-r 2 -M IPC -x,
-I 100 -M IPC
-I 100 -M IPC -x,
-I 100 -M IPC -j
-I 100 -M IPC --metric-only
-I 100 -M IPC --metric-only -x,
-I 100 -a -A -M IPC --metric-only
-I 100 -a --per-core -M IPC --metric-only
EOF

test_expect_success PERF,UNSHARE,SKX 'set-up: a fake cpu PMU, the table, every case run by perf and tperf' '
	cpu=$M/sys/bus/event_source/devices/cpu &&
	cst=$M/sys/bus/event_source/devices/cstate_core &&
	mkdir -p "$cpu/format" "$cpu/events" "$cst/format" "$cst/events" &&
	echo 1 >"$cpu/type" && echo config1:0-7 >"$cpu/format/event" &&
	echo config1:8-15 >"$cpu/format/umask" &&
	echo 1 >"$cst/type" && echo config1:0-63 >"$cst/format/event" &&
	echo event=0x1 >"$cst/events/c3-residency" &&
	branches=$(PERF_CPUID=$CPUID command perf list 2>/dev/null |
		   sed -n "/^Branches:\$/,/^[A-Za-z]/s/^  \([A-Za-z_]*\)\$/\1/p") &&
	test -n "$branches" &&
	mkdir -p "$M/pe/x86/skx" &&
	printf "Family-model,Version,Filename,EventType\nGenuineIntel-6-55-[01234],v1,skx,core\n" \
		>"$M/pe/x86/mapfile.csv" &&
	mk_table "$M/pe/x86/skx/metrics.json" IPC CPI CLKS C3_Core_Residency \
		Kernel_Utilization $branches &&
	test $(grep -c MetricName "$M/pe/x86/skx/metrics.json") -ge 10 &&
	# the Intel events of the expressions as sysfs aliases of the fake PMU, for tperf
	grep -o "[A-Z][A-Z_0-9]*\.[A-Z_0-9.]*" "$M/pe/x86/skx/metrics.json" | sort -u |
	while read -r e; do echo event=0x3c >"$cpu/events/$e" || exit 1; done &&
	# make check runs one case in two; make check-full all of them
	n=0 &&
	while read -r opts; do
		n=$((n + 1))
		test_pick $n 2 && echo "$n $opts"
	done <"$M/cases" >"$M/picked" &&
	cat >"$M/run.sh" <<-EOT &&
	while read -r n opts; do
		# two intervals for -I: at 100 ms and at the end
		case "\$opts" in -I*) cmd="sleep 0.12" ;; *) cmd=true ;; esac
		perf stat \$opts -- \$cmd >"$M/perf.\$n" 2>&1 </dev/null
		echo \$? >"$M/perf.\$n.rc"
		"$TPERF" stat \$opts -- \$cmd >"$M/tperf.\$n" 2>&1 </dev/null
		echo \$? >"$M/tperf.\$n.rc"
	done <"$M/picked"
	for o in "Branches" "Branches --metric-no-merge" "Branches --metric-no-group" \
		 "C3_Core_Residency,Kernel_Utilization,IPC,CPI"; do
		perf stat -vv -M \$o -- true 2>&1 </dev/null | grep "^Parsing metric events"
		"$TPERF" stat -v -M \$o -- true 2>&1 </dev/null | grep ": events " >&2
	done >"$M/perf.groups" 2>"$M/tperf.groups"
	for m in C3_Core_Residency Jump CallRet IpFarBranch CPI; do
		perf stat -j -M \$m -- true >"$M/perf.values.\$m" 2>&1 </dev/null
		"$TPERF" stat -j -M \$m -- true >"$M/tperf.values.\$m" 2>&1 </dev/null
	done
	EOT
	PERF_CPUID=$CPUID TPERF_PMU_EVENTS=$M/pe timeout 120 "$FAKE_SYSFS" "$M/sys" sh "$M/run.sh" &&
	test -s "$M/tperf.values.CPI"
'

# A few lines are perf-only and say nothing about -M: its warning about a
# group over PMUs of different cpumasks, and its rusage times.  Of -I's
# intervals the first only (whether the last short one is printed depends
# on when the command ends).
strip() {
	grep -v -e "WARNING: grouped events cpus do not match" -e "anon group {" \
		-e "seconds user" -e "seconds sys" "$1" |
	awk '{ t = match($0, /[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]/) ?
		    substr($0, RSTART, RLENGTH) : "" }
	     t == "" || first == "" || t == first { print }
	     t != "" && first == "" { first = t }' | norm
}

n=0
while read -r opts; do
	n=$((n + 1))
	pre=PERF,UNSHARE,SKX
	test_pick $n 2 || pre=$pre,FULL
	test_expect_success $pre "stat $opts: perf's lines and fields" "
		strip $M/perf.$n >expect && strip $M/tperf.$n >actual &&
		test_cmp expect actual &&
		test_cmp $M/perf.$n.rc $M/tperf.$n.rc
	"
done <"$M/cases"

# perf -vv's event strings without their metric-id terms, and tperf -v's
test_expect_success PERF,UNSHARE,SKX 'the events'"'"' groups and their order are perf'"'"'s (-vv), merged or not' '
	sed -e "s/.*events '"'"'//" -e "s/'"'"'\$//" \
	    -e "s#,metric-id=[^/]*/#/#g" -e "s#/metric-id=[^/]*/\([a-z]*\)#:\1#g" \
	    -e "s/:\([,}]\)/\1/g" -e "s/:\$//" $M/perf.groups >expect &&
	sed -e "s/.*events '"'"'//" -e "s/'"'"'\$//" $M/tperf.groups >actual &&
	test $(wc -l <expect) -ge 10 &&
	test_cmp expect actual
'

# metric = formula(counts) for the metric lines of a -j output of one
# metric (its events once each), to 1e-5 relative; "NAME ok" for each
check_values() {
	awk '
	BEGIN { n = 0 }
	/"counter-value"/ {
		match($0, /"counter-value" : "[^"]*"/); v = substr($0, RSTART + 19, RLENGTH - 20)
		match($0, /"event" : "[^"]*"/); e = substr($0, RSTART + 11, RLENGTH - 12)
		c[e] = v + 0; next
	}
	/"metric-unit"/ && !/"event"/ {
		match($0, /"metric-value" : [-0-9.e]*/); val[n] = substr($0, RSTART + 17, RLENGTH - 17) + 0
		match($0, /"metric-unit" : "[^"]*"/); name[n++] = substr($0, RSTART + 17, RLENGTH - 18)
	}
	END {
		all = c["BR_INST_RETIRED.ALL_BRANCHES"]; tk = c["BR_INST_RETIRED.NEAR_TAKEN"]
		cond = c["BR_INST_RETIRED.CONDITIONAL"]; nt = c["BR_INST_RETIRED.NOT_TAKEN"]
		call = c["BR_INST_RETIRED.NEAR_CALL"]; inst = c["INST_RETIRED.ANY"]
		for (i = 0; i < n; i++) {
			m = name[i]; v = val[i]
			if (m == "C3_Core_Residency") want = c["cstate_core/c3-residency/"] / c["msr/tsc/"] * 100
			else if (m == "Jump") want = (tk - (cond - nt) - 2 * call) / all
			else if (m == "CallRet") want = (call + c["BR_INST_RETIRED.NEAR_RETURN"]) / all
			else if (m == "IpFarBranch") want = inst / c["BR_INST_RETIRED.FAR_BRANCH:u"]
			else if (m == "CPI") want = c["CPU_CLK_UNHALTED.THREAD"] / inst
			else { print m, "unknown"; continue }
			d = v - want; if (d < 0) d = -d
			s = want < 0 ? -want : want
			print m, (d <= 1e-5 * (s > 1 ? s : 1) + 1e-6 ? "ok" : "off: " v " want " want)
		}
	}' "$@"
}

test_expect_success PERF,UNSHARE,SKX 'the metrics are their formulas over the counts of the same run' '
	for m in C3_Core_Residency Jump CallRet IpFarBranch CPI; do
		check_values $M/perf.values.$m >>expect &&
		check_values $M/tperf.values.$m >>actual || exit 1
	done &&
	test $(wc -l <actual) = 5 &&
	! grep -v " ok\$" expect &&
	test_cmp expect actual
'

test_expect_success PERF,SKX 'a name not in the table: perf'"'"'s message, the default events, exit 0' '
	mkdir -p pe/x86/skx &&
	printf "Family-model,Version,Filename,EventType\nGenuineIntel-6-55-[01234],v1,skx,core\n" \
		>pe/x86/mapfile.csv &&
	echo "[{\"MetricName\": \"IPC\", \"MetricExpr\": \"a / b\"}]" >pe/x86/skx/m.json &&
	PERF_CPUID=$CPUID perf stat -x, -M IPC,nosuch -- true >out.perf 2>&1 &&
	PERF_CPUID=$CPUID TPERF_PMU_EVENTS=$PWD/pe tperf stat -x, -M IPC,nosuch -- true >out.tperf 2>&1 &&
	head -1 out.perf >expect && echo "Cannot find metric or group \`nosuch'"'"'" >>expect &&
	head -1 out.tperf >actual && echo "Cannot find metric or group \`nosuch'"'"'" >>actual &&
	test_cmp expect actual &&
	cut -d, -f3 out.perf >expect && cut -d, -f3 out.tperf >actual &&
	test_cmp expect actual
'

test_expect_success 'no table for this CPU: -M is said once to have no effect, the default events are counted' '
	mkdir -p pe/x86 &&
	printf "Family-model,Version,Filename,EventType\nGenuineIntel-6-55-4,v1,skx,core\n" >pe/x86/mapfile.csv &&
	PERF_CPUID=AuthenticAMD-26-2-1 TPERF_PMU_EVENTS=$PWD/pe tperf stat -x, -M IPC -M CPI -- true 2>err &&
	echo "tperf: warning: -M '"'"'IPC,CPI'"'"' has no effect: no metric table for CPUID '"'"'AuthenticAMD-26-2-1'"'"' in '"'"'$PWD/pe/x86/mapfile.csv'"'"'" >expect &&
	head -1 err >actual &&
	test_cmp expect actual &&
	tail -n +2 err | cut -d, -f3 >actual &&
	printf "%s\n" task-clock context-switches cpu-migrations page-faults cycles instructions branches branch-misses >expect &&
	test_cmp expect actual &&
	tperf stat -x, -M IPC -- true 2>err &&
	echo "tperf: warning: -M '"'"'IPC'"'"' has no effect: no metric table: set TPERF_PMU_EVENTS to a pmu-events tree (perf'"'"'s tools/perf/pmu-events/arch layout)" >expect &&
	head -1 err >actual &&
	test_cmp expect actual
'

test_expect_success 'a table that cannot be read is an error naming the file' '
	mkdir -p pe/x86/skx &&
	printf "GenuineIntel-6-55-4,v1,skx,core\n" >pe/x86/mapfile.csv &&
	echo "[{\"MetricName\": 7}]" >pe/x86/skx/bad.json &&
	PERF_CPUID=GenuineIntel-6-55-4 TPERF_PMU_EVENTS=$PWD/pe tperf stat -x, -M IPC -- true 2>err &&
	echo "tperf: warning: -M '"'"'IPC'"'"' has no effect: '"'"'$PWD/pe/x86/skx/bad.json'"'"': entry 0: a metric'"'"'s fields must be strings" >expect &&
	head -1 err >actual &&
	test_cmp expect actual
'

# A table of this machine's events (software ones), whatever its CPUID
mk_sw_table() {
	mkdir -p pe/x86/m &&
	printf "Family-model,Version,Filename,EventType\n.*,v1,m,core\n" >pe/x86/mapfile.csv &&
	cat >pe/x86/m/m.json <<-\EOT
	[
	 {"MetricName": "ms_per_s", "MetricExpr": "task\\-clock / duration_time / 1e6", "MetricGroup": "Time"},
	 {"MetricName": "pf_pct", "MetricExpr": "page\\-faults / (page\\-faults + context\\-switches)",
	  "ScaleUnit": "100%", "MetricGroup": "Time"},
	 {"MetricName": "bad", "MetricExpr": "NOSUCH.EVENT / 2"}
	]
	EOT
}

test_expect_success 'duration_time is each interval'"'"'s length; ScaleUnit scales and names the unit' '
	mk_sw_table &&
	TPERF_PMU_EVENTS=$PWD/pe tperf stat -I 100 -x, -M ms_per_s -- sleep 0.25 2>out &&
	awk -F, "
		\$4 == \"task-clock\" { ms = \$2; len = \$1 - prev; prev = \$1; next }
		\$7 == \"ms_per_s\" { n++; want = ms / len; d = \$6 - want
			if (d < 0) d = -d
			if (d > 0.006 + 0.005 / len) { print \"off:\", \$0, want; bad = 1 } }
		END { if (!n || bad) exit 1 }" out &&
	TPERF_PMU_EVENTS=$PWD/pe tperf stat -x, -M pf_pct -- true 2>out &&
	awk -F, "\$3 == \"page-faults\" { pf = \$1 } \$3 == \"context-switches\" { cs = \$1 }
		 \$6 == \"%  pf_pct\" { v = \$5 } END { printf \"%.1f\\n%.1f\\n\", v, 100 * pf / (pf + cs) }" out >vals &&
	test $(sort -u vals | wc -l) = 1 &&
	TPERF_PMU_EVENTS=$PWD/pe tperf stat -M pf_pct -- true 2>out &&
	grep "^                                                  #  *[0-9][0-9]*\.[0-9] %  pf_pct  *\$" out
'

test_expect_success 'a metric whose events do not parse: the error, then the default events' '
	mk_sw_table &&
	TPERF_PMU_EVENTS=$PWD/pe tperf stat -x, -M Time,bad -- true 2>out &&
	echo "tperf: metric '"'"'bad'"'"': cannot parse the events '"'"'{NOSUCH.EVENT}:W'"'"': unknown event '"'"'NOSUCH.EVENT'"'"'" >expect &&
	head -1 out >actual &&
	test_cmp expect actual &&
	tail -n +2 out | cut -d, -f3 >actual &&
	printf "%s\n" task-clock context-switches cpu-migrations page-faults cycles instructions branches branch-misses >expect &&
	test_cmp expect actual
'

# (in the order of perf's hash map, as the perf tests above check it)
test_expect_success 'MetricConstraint NO_GROUP_EVENTS: that metric'"'"'s events are not grouped' '
	mkdir -p pe/x86/m &&
	printf "Family-model,Version,Filename,EventType\n.*,v1,m,core\n" >pe/x86/mapfile.csv &&
	cat >pe/x86/m/m.json <<-\EOT &&
	[
	 {"MetricName": "a", "MetricExpr": "task\\-clock / page\\-faults", "MetricConstraint": "NO_GROUP_EVENTS"},
	 {"MetricName": "b", "MetricExpr": "context\\-switches + cpu\\-migrations"}
	]
	EOT
	TPERF_PMU_EVENTS=$PWD/pe tperf stat -v -M a,b -x, -- true 2>out &&
	grep ": events " out >actual &&
	cat >expect <<-\EOT &&
	metrics without a group: events '"'"'page-faults,task-clock'"'"'
	metric '"'"'b'"'"': events '"'"'{cpu-migrations,context-switches}:W'"'"'
	EOT
	test_cmp expect actual
'

test_expect_success '--metric-only without -M: the heading alone' '
	tperf stat --metric-only -x, -- true 2>out &&
	echo >expect &&
	test_cmp expect out
'

test_expect_success PERF,UNSHARE,SKX 'list metric and list metricgroup: perf'"'"'s lines for the metrics of the table' '
	PERF_CPUID=$CPUID TPERF_PMU_EVENTS=$M/pe tperf list --details metric >actual &&
	names=$(sed -n "s/^  //p" actual | grep -v "^ ") &&
	PERF_CPUID=$CPUID command perf list --details metric 2>/dev/null |
	awk -v want=" $(echo $names) " "
		/^  [^ ]/ { keep = index(want, \" \" \$1 \" \") > 0 }
		/^ / && !keep { next }
		{ print }" >expect &&
	test_cmp expect actual &&
	PERF_CPUID=$CPUID TPERF_PMU_EVENTS=$M/pe tperf list metricgroup >actual &&
	printf "\nMetric Groups:\n\n" >expect &&
	grep -o "\"MetricGroup\": \"[^\"]*\"" $M/pe/x86/skx/metrics.json | cut -d\" -f4 |
		tr ";" "\n" | LC_ALL=C sort -u >>expect &&
	test_cmp expect actual
'

test_done
