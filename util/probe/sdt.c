// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SDT notes and argument conversion.  The note layout (the SystemTap wiki
 * "UserSpaceProbeImplementation"): owner "stapsdt", type 3, then in the
 * descriptor the probe address, the .stapsdt.base address and the
 * semaphore address (ELF-class sized each), then three NUL-terminated
 * strings: provider, name, arguments.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/probe/sdt.h"

#define NT_STAPSDT 3

static uint64_t get_addr(const unsigned char *p, bool is64)
{
	uint64_t v = 0;

	memcpy(&v, p, is64 ? 8 : 4);	/* the host is little-endian x86 */
	return v;
}

/* One descriptor into @n; -EINVAL when malformed. */
static int parse_desc(const unsigned char *d, size_t len, bool is64, struct sdt_note *n)
{
	size_t asz = is64 ? 8 : 4, off = 3 * asz;
	const char *s[3];

	if (len < off)
		return -EINVAL;
	n->pc = get_addr(d, is64);
	n->base = get_addr(d + asz, is64);
	n->semaphore = get_addr(d + 2 * asz, is64);
	for (int i = 0; i < 3; i++) {
		const char *end;

		if (off >= len)
			return -EINVAL;
		s[i] = (const char *)d + off;
		end = memchr(s[i], '\0', len - off);
		if (!end)
			return -EINVAL;
		off += (size_t)(end - s[i]) + 1;
	}
	n->provider = strdup(s[0]);
	n->name = strdup(s[1]);
	n->args = strdup(s[2]);
	if (!n->provider || !n->name || !n->args) {
		free(n->provider), free(n->name), free(n->args);
		return -ENOMEM;
	}
	return 0;
}

static int append(struct sdt_note **notes, int *nr, const struct sdt_note *n)
{
	struct sdt_note *a = realloc(*notes, (size_t)(*nr + 1) * sizeof(*a));

	if (!a)
		return -ENOMEM;
	a[(*nr)++] = *n;
	*notes = a;
	return 0;
}

#define ALIGN4(x) (((x) + 3) & ~(size_t)3)

int sdt__parse_notes(const void *buf, size_t size, bool is64,
		     struct sdt_note **notes, int *nr)
{
	const unsigned char *p = buf;
	size_t off = 0;

	while (size - off >= 12) {
		uint32_t namesz, descsz, type;
		size_t desc_off;
		struct sdt_note n;
		int err;

		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		off += 12;
		if (namesz > size - off || ALIGN4(namesz) > size - off)
			return -EINVAL;
		desc_off = off + ALIGN4(namesz);
		if (descsz > size - desc_off)
			return -EINVAL;
		if (type == NT_STAPSDT && namesz == 8 && !memcmp(p + off, "stapsdt", 8)) {
			err = parse_desc(p + desc_off, descsz, is64, &n);
			if (err == -ENOMEM)
				return err;
			if (!err && append(notes, nr, &n)) {
				free(n.provider), free(n.name), free(n.args);
				return -ENOMEM;
			}
		}
		off = desc_off + ALIGN4(descsz);
		if (off > size)
			break;
	}
	return 0;
}

void sdt__free_notes(struct sdt_note *notes, int nr)
{
	for (int i = 0; i < nr; i++) {
		free(notes[i].provider);
		free(notes[i].name);
		free(notes[i].args);
	}
	free(notes);
}

/* x86-64 register names of every width -> the uprobe (pt_regs) name. */
static const char *const regs[][5] = {
	{ "ax", "rax", "eax", "ax", "al" },	{ "bx", "rbx", "ebx", "bx", "bl" },
	{ "cx", "rcx", "ecx", "cx", "cl" },	{ "dx", "rdx", "edx", "dx", "dl" },
	{ "si", "rsi", "esi", "si", "sil" },	{ "di", "rdi", "edi", "di", "dil" },
	{ "bp", "rbp", "ebp", "bp", "bpl" },	{ "sp", "rsp", "esp", "sp", "spl" },
	{ "ip", "rip", "eip", "ip", NULL },
};

/* "%rdx" (length @len, '%' included) -> "dx"; NULL if unknown. */
static const char *reg_name(const char *s, size_t len, char *buf, size_t size)
{
	char r[8];

	if (len < 2 || len > sizeof(r) || s[0] != '%')
		return NULL;
	memcpy(r, s + 1, len - 1);
	r[len - 1] = '\0';
	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
		for (int j = 1; j < 5; j++)
			if (regs[i][j] && !strcmp(r, regs[i][j]))
				return regs[i][0];
	/* r8..r15 with an optional d/w/b width suffix */
	if (r[0] == 'r' && isdigit((unsigned char)r[1])) {
		char *end;
		long n = strtol(r + 1, &end, 10);

		if (n >= 8 && n <= 15 && (!*end || (strchr("dwb", *end) && !end[1]))) {
			snprintf(buf, size, "r%ld", n);
			return buf;
		}
	}
	return NULL;
}

static const char *type_name(int size, bool sign)
{
	static const char *const t[2][4] = { { "u8", "u16", "u32", "u64" },
					     { "s8", "s16", "s32", "s64" } };

	switch (size) {
	case 1: return t[sign][0];
	case 2: return t[sign][1];
	case 4: return t[sign][2];
	case 8: return t[sign][3];
	}
	return NULL;
}

/* The operand @op into @fetch: 0, 1 (no uprobe equivalent), -EINVAL. */
static int convert_operand(const char *op, char *fetch, size_t size)
{
	char buf[8], *end;
	const char *r, *open;
	long long disp = 0;

	if (op[0] == '%') {
		r = reg_name(op, strlen(op), buf, sizeof(buf));
		if (!r)
			return -EINVAL;
		snprintf(fetch, size, "%%%s", r);
		return 0;
	}
	if (op[0] == '$')
		return 1;	/* a constant */
	open = strchr(op, '(');
	if (!open || op[strlen(op) - 1] != ')')
		return -EINVAL;
	if (open != op) {
		disp = strtoll(op, &end, 0);
		if (end != open)
			return 1;	/* symbol(%rip): an address to resolve */
	}
	if (strchr(open, ','))
		return 1;	/* base + index * scale */
	r = reg_name(open + 1, strlen(open + 1) - 1, buf, sizeof(buf));
	if (!r)
		return -EINVAL;
	if (!strcmp(r, "ip"))
		return 1;
	snprintf(fetch, size, "%c%lld(%%%s)", disp < 0 ? '-' : '+',
		 disp < 0 ? -disp : disp, r);
	return 0;
}

int sdt__convert_arg(const char *arg, int idx, char *out, size_t size)
{
	const char *at = strchr(arg, '@'), *op = arg, *type = NULL;
	char fetch[64];
	int ret, n;

	if (at) {
		char *end;
		long sz = strtol(arg, &end, 10);

		if (end != at)
			return -EINVAL;
		type = type_name((int)(sz < 0 ? -sz : sz), sz < 0);
		if (!type)
			return -EINVAL;
		op = at + 1;
	}
	if (!*op || strlen(op) >= 64)
		return -EINVAL;
	ret = convert_operand(op, fetch, sizeof(fetch));
	if (ret)
		return ret;
	n = snprintf(out, size, "arg%d=%s%s%s", idx, fetch, type ? ":" : "", type ?: "");
	return n < 0 || (size_t)n >= size ? -EINVAL : 0;
}

int sdt__convert_args(const char *args, char *out, size_t size)
{
	size_t len = 0;
	int idx = 0, skipped = 0;

	if (!size)
		return -EINVAL;
	out[0] = '\0';
	while (*args) {
		char one[128], conv[160];
		size_t n = strcspn(args, " ");
		int ret;

		if (n) {
			if (n >= sizeof(one))
				return -EINVAL;
			memcpy(one, args, n);
			one[n] = '\0';
			ret = sdt__convert_arg(one, ++idx, conv, sizeof(conv));
			if (ret < 0)
				return ret;
			if (ret) {
				skipped++;
			} else {
				int w = snprintf(out + len, size - len, "%s%s", len ? " " : "", conv);

				if (w < 0 || (size_t)w >= size - len)
					return -EINVAL;
				len += (size_t)w;
			}
		}
		args += n;
		while (*args == ' ')
			args++;
	}
	return skipped;
}
