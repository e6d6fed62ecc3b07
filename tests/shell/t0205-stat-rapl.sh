#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# RAPL energy in tperf stat: the power PMU of a fake sysfs tree (dry run)
# and the powercap fallback read from files that change under it.
. "$(dirname "$0")/lib.sh"

FAKE=$DATA_DIR/sysfs-fake-x86
[ -d "$FAKE/bus/event_source/devices/power" ] || skip_all "no fake power PMU in $FAKE"

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

# A powercap tree (no power PMU): one package whose energy_uj grows by
# 100000 uJ every 50 ms while a writer runs.
make_powercap() {
	z=$PWD/sys/class/powercap/intel-rapl:0
	mkdir -p "$z" sys/devices/system/cpu &&
	cat /sys/devices/system/cpu/online >sys/devices/system/cpu/online &&
	echo package-0 >"$z/name" &&
	echo 5000 >"$z/energy_uj" &&
	echo 262143328850 >"$z/max_energy_range_uj"
}

start_writer() {
	(
		v=5000
		while :; do
			v=$((v + 100000))
			echo $v >"$z/energy_uj.new" && mv "$z/energy_uj.new" "$z/energy_uj"
			sleep 0.05
		done
	) &
	writer=$!
}

test_expect_success 'powercap: Joules read from energy_uj, -I rows with Watts' '
	make_powercap &&
	start_writer &&
	test_when_finished "kill $writer" &&
	TPERF_SYSFS=$PWD/sys tperf stat -a -I 200 --interval-count 3 -e power/energy-pkg/ 2>err &&
	head -1 err >first &&
	echo "#           time             counts   unit events" >expect &&
	test_cmp expect first &&
	sed 1d err >rows &&
	test $(wc -l <rows) = 3 &&
	awk "{ if (\$3 != \"Joules\" || \$4 != \"power/energy-pkg/\" || \$5 != \"#\" || \$7 != \"W\") exit 1
	       if (\$2 < 0.1 || \$2 > 0.8) exit 1
	       if (\$6 < 0.5 || \$6 > 4) exit 1 }" rows
'

test_expect_success 'powercap: the total and CSV fields' '
	make_powercap &&
	start_writer &&
	test_when_finished "kill $writer" &&
	TPERF_SYSFS=$PWD/sys tperf stat -a -x, -e power/energy-pkg/ sleep 0.5 2>err &&
	IFS=, read -r val unit name run pct mval munit <err &&
	test "$unit,$name,$pct" = "Joules,power/energy-pkg/,100.00" &&
	awk -v v="$val" "BEGIN { exit !(v >= 0.5 && v <= 1.5) }"
'

test_done
