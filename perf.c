// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tperf: the entry point.  Global options, the dispatch table, help.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtin.h"
#include "util/lib/config.h"
#include "util/lib/debug.h"
#include "util/lib/levenshtein.h"
#include "util/lib/pager.h"
#include "util/lib/parse-options.h"

/* The one dispatch table: `tperf --list-cmds` prints it. */
const struct cmd_struct commands[] = {
	{ "annotate", cmd_annotate, CMD_USE_PAGER,
	  "Read perf.data and display the annotated code of its symbols" },
	{ "evlist", cmd_evlist, 0, "List the event names in a perf.data file" },
	{ "ftrace", cmd_ftrace, 0, "Record, show and report the kernel's ftrace buffer" },
	{ "help", cmd_help, 0, "Display help information about tperf" },
	{ "list", cmd_list, CMD_USE_PAGER, "List all symbolic event types" },
	{ "report", cmd_report, CMD_USE_PAGER, "Read perf.data and display the profile" },
	{ "script", cmd_script, CMD_USE_PAGER, "Read perf.data and display the trace output" },
	{ "probe", cmd_probe, 0, "Define new dynamic tracepoints" },
	{ "record", cmd_record, 0, "Run a command and record its profile into perf.data" },
	{ "stat", cmd_stat, 0, "Run a command and gather performance counter statistics" },
	{ "test", cmd_test, 0, "Run the built-in self tests" },
	{ "version", cmd_version, 0, "Display the version of tperf" },
};
const int nr_commands = sizeof(commands) / sizeof(commands[0]);

static const char tperf_usage[] =
	"tperf [--version] [-v|--verbose] [--debug VAR[=N]] [--no-pager]\n"
	"             [--buildid-dir DIR] [-h|--help] COMMAND [ARGS]";

static const struct cmd_struct *find_command(const char *name)
{
	for (int i = 0; i < nr_commands; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* Print the version line (and with @build_options the compiled-in features). */
static void print_version(int build_options)
{
	printf("tperf version %s\n", TPERF_VERSION);
	if (!build_options)
		return;
	static const struct { const char *name; int on; const char *what; } feats[] = {
		{ "libtraceevent", 1, "tracepoint formats" },
		{ "libtracefs", 1, "tracefs access" },
		{ "libdw", 1, "DWARF, CFI and line tables; the default unwinder" },
		{ "libelf", 1, "ELF symbols" },
		{ "zlib", 1, "zlib compression" },
		{ "zstd", 1, "zstd compression" },
		{ "capstone", 1, "x86 instruction boundaries of probe offsets (loaded when used)" },
#ifdef HAVE_LIBUNWIND
		{ "libunwind", 1, "second DWARF unwinder: --unwinder=libunwind" },
#else
		{ "libunwind", 0, "second DWARF unwinder: --unwinder=libunwind" },
#endif
#ifdef HAVE_LIBDEFLATE
		{ "libdeflate", 1, "fast inflating of compressed debug info" },
#else
		{ "libdeflate", 0, "fast inflating of compressed debug info" },
#endif
#ifdef HAVE_LIBBABELTRACE
		{ "libbabeltrace", 1, "CTF export" },
#else
		{ "libbabeltrace", 0, "CTF export" },
#endif
	};
	for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++)
		printf("%22s: [ %s ]  # %s\n", feats[i].name, feats[i].on ? "on " : "OFF",
		       feats[i].what);
}

static void list_commands(void)
{
	printf("\n Usage: %s\n\n The most commonly used tperf commands are:\n", tperf_usage);
	for (int i = 0; i < nr_commands; i++)
		printf("   %-12s %s\n", commands[i].name, commands[i].summary);
	printf("\n See 'tperf help COMMAND' for more information on a specific command.\n\n");
}

/*
 * The man page that belongs to this binary: PREFIX/share/man/man1/PAGE.1 for
 * an installed PREFIX/bin/tperf (relocatable), else Documentation/PAGE.1 in
 * a build tree.  0 with its path in @buf, or -1.
 */
static int local_man_page(const char *page, char *buf, size_t size)
{
	static const char *const rel[] = { "../share/man/man1", "Documentation" };
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		if ((size_t)snprintf(buf, size, "%s/%s/%s.1", exe, rel[i], page) >= size)
			continue;
		if (access(buf, R_OK) == 0)
			return 0;
	}
	return -1;
}

static int run_status(const char *const argv[])
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * `tperf help CMD`: the man page installed beside this binary (or in its
 * build tree), else the one man(1) finds, else the usage generated from the
 * command's option table.
 */
static int show_help(const struct cmd_struct *cmd)
{
	char page[64], path[PATH_MAX];
	int status;
	pid_t pid;

	snprintf(page, sizeof(page), "%s%s", cmd ? "tperf-" : "tperf", cmd ? cmd->name : "");
	fflush(stdout);
	const char *force = getenv("TPERF_HELP_MAN");

	if (force ? *force != 0 : isatty(STDOUT_FILENO)) {
		const char *const whatis[] = { "man", "-w", page, NULL };

		/* this binary's own page first: a system one may be another version */
		if (local_man_page(page, path, sizeof(path)) == 0)
			execlp("man", "man", "-l", path, (char *)NULL);
		if (run_status(whatis) == 0)
			execlp("man", "man", page, (char *)NULL);
	}
	if (!cmd) {
		list_commands();
		return 0;
	}
	/* no man page: the generated usage, and success */
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		const char *argv[] = { cmd->name, "-h", NULL };

		dup2(STDOUT_FILENO, STDERR_FILENO);
		exit(cmd->fn(2, argv));
	}
	waitpid(pid, &status, 0);
	return 0;
}

int cmd_help(int argc, const char **argv)
{
	const struct cmd_struct *cmd;

	if (argc < 2) {
		list_commands();
		return 0;
	}
	cmd = find_command(argv[1]);
	if (!cmd) {
		const char *names[64];

		for (int i = 0; i < nr_commands && i < 64; i++)
			names[i] = commands[i].name;
		const char *best = closest_match(argv[1], names, (size_t)nr_commands);

		ui__error("'%s' is not a tperf command%s%s%s (perf: '%s' is not a perf-command)", argv[1],
		      best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "", argv[1]);
		return PARSE_OPT_USAGE_EXIT;
	}
	return show_help(cmd);
}

int cmd_version(int argc, const char **argv)
{
	bool build_options = false;
	const struct option options[] = {
		OPT_BOOLEAN(0, "build-options", &build_options,
			    "display the optional libraries compiled in"),
		OPT_END()
	};
	const char *const usage[] = { "tperf version [<options>]", NULL };

	argc = parse_options(argc, argv, options, usage, 0);
	if (argc)
		usage_with_options_msg(usage, options, "unexpected argument '%s'", argv[0]);
	print_version(build_options);
	return 0;
}

static int unknown_command(const char *name)
{
	const char *names[64];
	const char *best;

	for (int i = 0; i < nr_commands && i < 64; i++)
		names[i] = commands[i].name;
	best = closest_match(name, names, (size_t)nr_commands);
	if (best)
		ui__error("'%s' is not a tperf command; did you mean '%s'? (perf: '%s' is not a perf-command)",
		      name, best, name);
	else
		ui__error("'%s' is not a tperf command; see 'tperf help' (perf: '%s' is not a perf-command)",
		      name, name);
	return PARSE_OPT_USAGE_EXIT;
}

/* The value of "--opt=VAL" or "--opt VAL" (which takes the next argument). */
static const char *global_value(int *argc, const char ***argv, const char *opt)
{
	const char *arg = (*argv)[0];
	size_t n = strlen(opt);

	if (arg[n] == '=')
		return arg + n + 1;
	if (*argc < 2) {
		if (!strcmp(opt, "--debug"))
			die_usage("option '--debug' requires a value (VAR[=N])");
		die_usage("option '%s' requires a value (DIR)", opt);
	}
	(*argv)++;
	(*argc)--;
	return (*argv)[0];
}

/* Global options come before the command; parsed by hand, as git does. */
static int handle_global_options(int *argc, const char ***argv)
{
	while (*argc > 0 && (*argv)[0][0] == '-') {
		const char *arg = (*argv)[0];

		if (!strcmp(arg, "--version")) {
			print_version(0);
			exit(0);
		} else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			list_commands();
			exit(0);
		} else if (!strcmp(arg, "-v") || !strcmp(arg, "--verbose")) {
			tperf_config.verbose++;
		} else if (!strcmp(arg, "--no-pager")) {
			tperf_config.no_pager = true;
		} else if (!strcmp(arg, "--buildid-dir") || !strncmp(arg, "--buildid-dir=", 14)) {
			tperf_config.buildid_dir = global_value(argc, argv, "--buildid-dir");
		} else if (!strcmp(arg, "--list-cmds")) {
			for (int i = 0; i < nr_commands; i++)
				printf("%s\n", commands[i].name);
			exit(0);
		} else if (!strcmp(arg, "--debug") || !strncmp(arg, "--debug=", 8)) {
			const char *val = global_value(argc, argv, "--debug");

			if (debug_parse_var(val))
				exit(PARSE_OPT_USAGE_EXIT);
		} else {
			ui__error("unknown option '%s'", arg);
			fprintf(stderr, "\n Usage: %s\n\n", tperf_usage);
			exit(PARSE_OPT_USAGE_EXIT);
		}
		(*argv)++;
		(*argc)--;
	}
	return 0;
}

static int check_stdout(void)
{
	/* a closed or full stdout is an error */
	if (fflush(stdout) || ferror(stdout)) {
		ui__error("cannot write output: %s", strerror(errno ? errno : EIO));
		return 1;
	}
	return 0;
}

int main(int argc, const char **argv)
{
	const struct cmd_struct *cmd;
	int ret;

	argv++;
	argc--;
	handle_global_options(&argc, &argv);
	if (argc == 0) {
		list_commands();
		return PARSE_OPT_USAGE_EXIT;
	}
	cmd = find_command(argv[0]);
	if (!cmd)
		return unknown_command(argv[0]);
	tperf_config.cmd = cmd->name;
	if (argc == 2 && !strcmp(argv[1], "--help"))
		return show_help(cmd);
	if (cmd->flags & CMD_USE_PAGER)
		setup_pager();
	ret = cmd->fn(argc, argv);
	if (check_stdout() && !ret)
		ret = 1;
	return ret;
}
