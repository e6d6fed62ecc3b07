// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JSON string escaping (RFC 8259 section 7).
 */
#include <stddef.h>

#include "util/lib/json.h"

/* Length of the well-formed UTF-8 sequence at @s (at least 2 bytes), or 0. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned int cp, min;
	size_t n;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2, cp = s[0] & 0x1f, min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3, cp = s[0] & 0x0f, min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4, cp = s[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;	/* also stops at the terminating NUL */
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/**
 * json__fprint_string - write a string as a JSON string
 * @fp: where
 * @s: the string (NULL writes "")
 */
void json__fprint_string(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	fputc('"', fp);
	while (*p) {
		size_t n;

		if (*p == '"' || *p == '\\') {
			fprintf(fp, "\\%c", *p);
		} else if (*p == '\n') {
			fputs("\\n", fp);
		} else if (*p == '\t') {
			fputs("\\t", fp);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(fp, "\\u%04x", *p);
		} else if (*p >= 0x80) {
			n = utf8_len(p);
			if (!n) {
				fprintf(fp, "\\u%04x", *p);
			} else {
				fwrite(p, 1, n, fp);
				p += n;
				continue;
			}
		} else {
			fputc(*p, fp);
		}
		p++;
	}
	fputc('"', fp);
}
