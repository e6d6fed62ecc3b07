#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: alone (counts and timings that another test's load would change)
# RAPL energy in tperf stat: the power PMU of a fake sysfs tree (dry run)
# and the powercap fallback read from files that change under it.
. "$(dirname "$0")/lib.sh"

FAKE=$DATA_DIR/sysfs-fake-x86
[ -d "$FAKE/bus/event_source/devices/power" ] || fail_all "fixture missing: no fake power PMU in $FAKE"

test_expect_success 'power/energy-pkg/ dry run: the attr perf stat -a would open' '
	TPERF_SYSFS=$FAKE tperf stat --dry-run -vv -a -e power/energy-pkg/ 2>err &&
	cat >expect <<-EOT &&
	------------------------------------------------------------
	perf_event_attr:
	  type                             $(cat $FAKE/bus/event_source/devices/power/type)
	  size                             128
	  config                           0x2
	  sample_type                      IDENTIFIER
	  read_format                      TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING
	  disabled                         1
	  inherit                          1
	  exclude_guest                    1
	------------------------------------------------------------
	EOT
	test_cmp expect err
'

# A powercap tree (no power PMU): one package.  The workload itself moves
# energy_uj, so every value is exact whatever the scheduling.
make_powercap() {
	z=$PWD/sys/class/powercap/intel-rapl:0
	mkdir -p "$z" sys/devices/system/cpu &&
	cat /sys/devices/system/cpu/online >sys/devices/system/cpu/online &&
	echo package-0 >"$z/name" &&
	echo ${1:-5000} >"$z/energy_uj" &&
	echo 262143328850 >"$z/max_energy_range_uj"
}

test_expect_success 'powercap: Joules read from energy_uj, exact CSV fields' '
	make_powercap &&
	TPERF_SYSFS=$PWD/sys tperf stat -a -x, -e power/energy-pkg/ \
		sh -c "echo 1255000 >$z/energy_uj" 2>err &&
	echo "1.25,Joules,power/energy-pkg/,$(cut -d, -f4 err),100.00,," >expect &&
	test_cmp expect err
'

test_expect_success 'powercap: a counter that wraps at max_energy_range_uj' '
	make_powercap 262143328800 &&
	TPERF_SYSFS=$PWD/sys tperf stat -a -x, -e power/energy-pkg/ \
		sh -c "echo 99950 >$z/energy_uj" 2>err &&
	test "$(cut -d, -f1-3 err)" = "0.10,Joules,power/energy-pkg/"
'

test_expect_success 'powercap: -I rows show Joules and average Watts' '
	make_powercap &&
	TPERF_SYSFS=$PWD/sys tperf stat -a -I 100 --interval-count 2 -e power/energy-pkg/ 2>err &&
	head -1 err >first &&
	echo "#           time             counts   unit events" >expect &&
	test_cmp expect first &&
	sed 1d err >rows &&
	test $(wc -l <rows) = 2 &&
	awk "{ if (\$2 != \"0.00\" || \$3 != \"Joules\" || \$4 != \"power/energy-pkg/\" ||
		   \$5 != \"#\" || \$6 != \"0.00\" || \$7 != \"W\") exit 1 }" rows
'

test_done
