// SPDX-License-Identifier: GPL-2.0
/*
 * Option tables (util/options.c): the parser on a table of every kind, and
 * for every command of the dunwind binary ($DUNWIND, default ../out/dunwind)
 * that -h, the man page in $DW_MAN (default ../out/man) and the bash
 * completion $DW_COMPLETION (default ../out/completion/dunwind) name every
 * option of its table (as 'dunwind CMD --list-opts' prints it).
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "files.h"
#include "util/options.h"

struct args {
	int flag, set, num;
	unsigned int bits, u;
	unsigned long long ull;
	const char *str;
	int cb_calls;
	const char *opt;		/* the optional argument; "none" if left out */
};

static int count_cb(const struct dw_option *opt, const char *arg, void *a, const char *cmd)
{
	(void)opt;
	(void)cmd;
	if (!strcmp(arg, "bad"))
		return -EINVAL;
	((struct args *)a)->cb_calls++;
	return 0;
}

static int opt_cb(const struct dw_option *opt, const char *arg, void *a, const char *cmd)
{
	(void)opt;
	(void)cmd;
	((struct args *)a)->opt = arg ? arg : "none";
	return 0;
}

static const struct dw_option test_options[] = {
	OPT_BOOL('f', "flag", struct args, flag, "a flag"),
	OPT_SET_INT(0, "set", struct args, set, 7, "sets 7"),
	OPT_BIT(0, "bit", struct args, bits, 4, "sets bit 2"),
	OPT_STRING('s', "str", struct args, str, "S", "a string"),
	OPT_INT('n', "num", struct args, num, "N", 1, 10, "1 to 10"),
	OPT_UINT(0, "u", struct args, u, "U", 0, 5, "0 to 5"),
	{ .type = DW_OPT_ULL, .long_name = "addr", .argh = "A",
	  .offset = offsetof(struct args, ull), .max = ~0ULL, .flags = DW_OPTF_ANY_BASE,
	  .help = "any base" },
	OPT_CALLBACK('c', "cb", "X", count_cb, "a callback"),
	{ .type = DW_OPT_CALLBACK, .short_name = 'o', .long_name = "opt", .argh = "N",
	  .cb = opt_cb, .flags = DW_OPTF_OPTIONAL_ARG, .help = "an optional argument" },
	{ .type = DW_OPT_BOOL, .short_name = 'H', .offset = offsetof(struct args, flag),
	  .flags = DW_OPTF_HIDDEN, .help = "hidden" },
	OPT_END(),
};

static const char *const test_usage[] = { "test [options] ARGS", NULL };

static const struct dw_cmd_help test_cmd = {
	.name = "test", .summary = "a test", .usage = test_usage, .options = test_options,
};

static const struct dw_cmd_help test_cmd_stop = {
	.name = "test", .summary = "a test", .usage = test_usage, .options = test_options,
	.flags = DW_PARSE_STOP_AT_NON_OPTION,
};

static int parse(const struct dw_cmd_help *cmd, struct args *a, int argc, ...)
{
	char *argv[16];
	va_list ap;
	int i;

	va_start(ap, argc);
	argv[0] = "test";
	for (i = 1; i <= argc; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	argv[i] = NULL;
	memset(a, 0, sizeof(*a));
	return dw_parse_options(argc + 1, argv, cmd, a);
}

TEST(every_type_sets_its_field)
{
	struct args a;

	ASSERT_EQ(14, parse(&test_cmd, &a, 13, "-f", "--set", "--bit", "-s", "x", "--num=3",
			    "--u", "5", "--addr", "0x10", "-c", "y", "--cb=z"));
	EXPECT_EQ(1, a.flag);
	EXPECT_EQ(7, a.set);
	EXPECT_EQ(4u, a.bits);
	EXPECT_STREQ("x", a.str);
	EXPECT_EQ(3, a.num);
	EXPECT_EQ(5u, a.u);
	EXPECT_EQ(16ull, a.ull);
	EXPECT_EQ(2, a.cb_calls);
}

TEST(numbers_out_of_range_or_not_numbers_are_usage_errors)
{
	struct args a;

	EXPECT_EQ(-EINVAL, parse(&test_cmd, &a, 2, "-n", "11"));
	EXPECT_EQ(-EINVAL, parse(&test_cmd, &a, 2, "-n", "0"));
	EXPECT_EQ(-EINVAL, parse(&test_cmd, &a, 2, "-n", "-1"));
	EXPECT_EQ(-EINVAL, parse(&test_cmd, &a, 2, "-n", "3x"));
	EXPECT_EQ(-EINVAL, parse(&test_cmd, &a, 2, "--u", ""));
	EXPECT_EQ(2, dw_opt_exit(-EINVAL));
}

TEST(a_callback_refusing_is_a_usage_error)
{
	struct args a;

	EXPECT_EQ(-EINVAL, parse(&test_cmd, &a, 2, "-c", "bad"));
}

TEST(unknown_options_are_usage_errors)
{
	struct args a;

	EXPECT_EQ(-EINVAL, parse(&test_cmd, &a, 1, "--nope"));
	EXPECT_EQ(-EINVAL, parse(&test_cmd, &a, 1, "-z"));
	EXPECT_EQ(-EINVAL, parse(&test_cmd, &a, 1, "-s"));	/* no argument */
}

/* -o, --opt: NULL (shown as "none"); -o5, --opt=7: what is attached. */
TEST(an_optional_argument_is_the_attached_one_or_null)
{
	static const struct { const char *arg, *want; } cases[] = {
		{ "-o", "none" }, { "--opt", "none" }, { "-o5", "5" }, { "--opt=7", "7" },
	};
	struct args a;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ASSERT_EQ(2, parse(&test_cmd, &a, 1, cases[i].arg));
		EXPECT_STREQ(cases[i].want, a.opt) TH_LOG("%s", cases[i].arg);
	}
}

TEST(the_next_word_is_not_an_optional_argument)
{
	struct args a;

	ASSERT_EQ(2, parse(&test_cmd_stop, &a, 2, "-o", "9"));
	EXPECT_STREQ("none", a.opt);
}

TEST(help_shows_an_optional_argument_in_brackets)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ASSERT_NE(NULL, f);
	dw_options_help(f, &test_cmd);
	dw_options_man(f, &test_cmd, "v");
	fclose(f);
	EXPECT_NE(NULL, strstr(buf, "-o, --opt[=N]"));
	EXPECT_NE(NULL, strstr(buf, "[=\\fIN\\fR]"));
	free(buf);
}

TEST(arguments_are_moved_after_the_options)
{
	struct args a;
	int r = parse(&test_cmd, &a, 3, "one", "-f", "two");

	ASSERT_EQ(2, r);
	EXPECT_EQ(1, a.flag);
}

TEST(stop_at_non_option_leaves_the_command_alone)
{
	struct args a;

	ASSERT_EQ(2, parse(&test_cmd_stop, &a, 3, "-f", "cmd", "-n"));
	EXPECT_EQ(1, a.flag);
	EXPECT_EQ(0, a.num);
}

TEST(hidden_options_work_but_are_not_shown)
{
	char *buf = NULL;
	size_t len = 0;
	struct args a;
	FILE *f;

	ASSERT_EQ(2, parse(&test_cmd, &a, 1, "-H"));
	EXPECT_EQ(1, a.flag);
	f = open_memstream(&buf, &len);
	ASSERT_NE(NULL, f);
	dw_options_help(f, &test_cmd);
	dw_options_list(f, &test_cmd);
	dw_options_man(f, &test_cmd, "v");
	fclose(f);
	EXPECT_EQ(NULL, strstr(buf, "-H"));
	EXPECT_EQ(NULL, strstr(buf, "\\-H"));
	EXPECT_EQ(NULL, strstr(buf, "hidden"));
	free(buf);
}

TEST(help_wraps_within_80_columns)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ASSERT_NE(NULL, f);
	dw_options_help(f, &test_cmd);
	fclose(f);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t n = strlen(line);

		EXPECT_LE(n, 80u);
	}
	free(buf);
}

/* The output of @cmd (run with sh), or NULL. */
static char *run(const char *fmt, const char *a, const char *b)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), fmt, a, b);
	return cmd_output(cmd);
}

static char *read_all(const char *path)
{
	size_t len;

	return read_file(path, &len);
}

static const char *env_or(const char *name, const char *def)
{
	return getenv(name) ? getenv(name) : def;
}

/* Does @text name @opt ("--input" or "-i") as a word of its own? */
static int names(const char *text, const char *opt)
{
	size_t n = strlen(opt);
	const char *p;

	for (p = strstr(text, opt); p; p = strstr(p + 1, opt)) {
		char before = p == text ? ' ' : p[-1], after = p[n];

		if ((before == ' ' || before == '"' || before == '\t') &&
		    (after == ' ' || after == ',' || after == '\n' || after == '"' || after == '='))
			return 1;
	}
	return 0;
}

/* Troff's spelling of @opt in bold: "\fB" every '-' as '\-', "\fR". */
static void troff_name(char *buf, size_t len, const char *opt)
{
	size_t i = 3;

	memcpy(buf, "\\fB", 3);
	for (; *opt && i + 3 < len; opt++) {
		if (*opt == '-')
			buf[i++] = '\\';
		buf[i++] = *opt;
	}
	snprintf(buf + i, len - i, "\\fR");
}

/* Every option 'dunwind CMD --list-opts' prints, checked against @what of each command. */
static int check_commands(struct __test_metadata *_metadata, int what)
{
	const char *bin = env_or("DUNWIND", "../out/dunwind");
	char *cmds = run("%s --list-cmds%s", bin, ""), *cmd, *save = NULL;
	char *completion = read_all(env_or("DW_COMPLETION", "../out/completion/dunwind"));
	int checked = 0;

	if (!cmds)
		return -1;
	for (cmd = strtok_r(cmds, " \n", &save); cmd; cmd = strtok_r(NULL, " \n", &save)) {
		char *opts = run("%s %s --list-opts | head -n 1", bin, cmd), *opt, *osave = NULL;
		char path[512], *text = NULL, *line = NULL, tn[128];

		if (what == 0) {
			text = run("%s %s -h", bin, cmd);
		} else if (what == 1) {
			snprintf(path, sizeof(path), "%s/dunwind-%s.1",
				 env_or("DW_MAN", "../out/man"), cmd);
			text = read_all(path);
		} else if (completion) {
			/* The command's line: "\tCMD)\n\t\topts=\"...\"". */
			snprintf(path, sizeof(path), "\t%s)\n\t\topts=\"", cmd);
			line = strstr(completion, path);
			text = line ? strndup(line, strcspn(line + strlen(path), "\"") +
					      strlen(path) + 1) : NULL;
		}
		EXPECT_NE(NULL, opts);
		EXPECT_NE(NULL, text) TH_LOG("nothing for %s", cmd);
		for (opt = opts ? strtok_r(opts, " \n", &osave) : NULL; opt && text;
		     opt = strtok_r(NULL, " \n", &osave)) {
			troff_name(tn, sizeof(tn), opt);
			EXPECT_TRUE(what == 1 ? !!strstr(text, tn) : names(text, opt))
				TH_LOG("%s: %s is missing", cmd, opt);
			checked++;
		}
		free(opts);
		free(text);
	}
	free(cmds);
	free(completion);
	return checked;
}

TEST(help_names_every_option_of_every_command)
{
	EXPECT_GT(check_commands(_metadata, 0), 40);
}

TEST(man_pages_name_every_option_of_every_command)
{
	EXPECT_GT(check_commands(_metadata, 1), 40);
}

TEST(completion_names_every_option_of_every_command)
{
	EXPECT_GT(check_commands(_metadata, 2), 40);
}

/* After an option with a list of values (report --format), the completion offers them. */
TEST(completion_offers_the_values_of_an_option)
{
	const char *bin = env_or("DUNWIND", "../out/dunwind");
	char *vals = run("%s %s --list-opts | sed -n 's/^= .*--format: *//p'", bin, "report");
	char *completion = read_all(env_or("DW_COMPLETION", "../out/completion/dunwind"));
	char want[256];

	ASSERT_NE(NULL, vals);
	ASSERT_NE(NULL, completion);
	vals[strcspn(vals, "\n")] = '\0';
	EXPECT_NE(NULL, strstr(vals, "perf")) TH_LOG("report --list-opts: '%s'", vals);
	snprintf(want, sizeof(want), "--format) vals=\"%s\"", vals);
	EXPECT_NE(NULL, strstr(completion, want)) TH_LOG("no '%s' in the completion", want);
	free(vals);
	free(completion);
}

TEST(version_names_the_abi)
{
	char *v = run("%s --version%s", env_or("DUNWIND", "../out/dunwind"), "");

	ASSERT_NE(NULL, v);
	EXPECT_EQ(0, strncmp(v, "dunwind ", 8));
	EXPECT_NE(NULL, strstr(v, "(ABI "));
	free(v);
}

TEST_HARNESS_MAIN
