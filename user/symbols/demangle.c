// SPDX-License-Identifier: GPL-2.0
/*
 * Demangling through libstdc++'s __cxa_demangle (the Itanium C++ ABI
 * demangler GCC maintains).  Rust's legacy mangling is Itanium-shaped
 * (_ZN...17h<hash>E): the demangler gives "a::b::h0123456789abcdef" with
 * Rust's own escapes ($LT$, .., $u20$) left in, which we decode, and the
 * hash, which we drop, as rustc-demangle does.  Rust v0 names (_R...) stay
 * raw: no demangler for them is packaged for C here.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/demangle.h"

char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

static const struct { const char *esc, *s; } rust_escapes[] = {
	{ "$SP$", "@" }, { "$BP$", "*" }, { "$RF$", "&" }, { "$LT$", "<" }, { "$GT$", ">" },
	{ "$LP$", "(" }, { "$RP$", ")" }, { "$C$", "," },
};

/* Is @s "::h" + 16 hex digits at its end (a Rust legacy hash)? */
static int rust_hash_at(const char *s, size_t len)
{
	size_t i;

	if (len < 19 || memcmp(s + len - 19, "::h", 3))
		return 0;
	for (i = len - 16; i < len; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* Decode Rust's escapes in @s in place (the result is never longer). */
static void rust_unescape(char *s)
{
	char *out = s, *start = s;
	size_t i;

	while (*s) {
		/* A component that starts with an escape gets a '_' in front. */
		if (s[0] == '_' && s[1] == '$' && (out == start || (out - start >= 2 &&
							       out[-1] == ':' && out[-2] == ':'))) {
			s++;
			continue;
		}
		if (s[0] == '.' && s[1] == '.') {
			*out++ = ':';
			*out++ = ':';
			s += 2;
			continue;
		}
		if (*s == '$') {
			for (i = 0; i < sizeof(rust_escapes) / sizeof(rust_escapes[0]); i++) {
				size_t n = strlen(rust_escapes[i].esc);

				if (!strncmp(s, rust_escapes[i].esc, n)) {
					*out++ = rust_escapes[i].s[0];
					s += n;
					break;
				}
			}
			if (i < sizeof(rust_escapes) / sizeof(rust_escapes[0]))
				continue;
			if (s[1] == 'u' && isxdigit((unsigned char)s[2]) &&
			    isxdigit((unsigned char)s[3]) && s[4] == '$') {
				char hex[3] = { s[2], s[3], 0 };
				long c = strtol(hex, NULL, 16);

				if (c >= 0x20 && c < 0x7f) {
					*out++ = (char)c;
					s += 5;
					continue;
				}
			}
		}
		*out++ = *s++;
	}
	*out = '\0';
}

/**
 * dw_demangle() - the name of a symbol as people read it
 * @name:	the symbol's name as in the ELF file
 * @demangle:	0: keep it mangled (--no-demangle), only drop the version
 *
 * Context: user space.
 * Return: a malloc()ed name (the caller frees it), or NULL (ENOMEM).
 */
char *dw_demangle(const char *name, int demangle)
{
	const char *at = strchr(name, '@');
	int plt = at && !strcmp(at, "@plt");
	char *base = at ? strndup(name, (size_t)(at - name)) : strdup(name);
	char *d, *out;
	int status = -1;
	size_t len;

	/* "name@@VERSION" (default) and "name@VERSION": the version is not the name. */
	if (!base || !demangle || strncmp(base, "_Z", 2))
		goto out;
	d = __cxa_demangle(base, NULL, NULL, &status);
	if (status || !d) {
		free(d);
		goto out;
	}
	free(base);
	base = d;
	len = strlen(d);
	if (!strncmp(name, "_ZN", 3) && rust_hash_at(d, len)) {
		d[len - 19] = '\0';
		rust_unescape(d);
	}
out:
	/* Our own "func@plt" keeps its suffix. */
	if (!base || !plt || asprintf(&out, "%s@plt", base) < 0)
		return base;
	free(base);
	return out;
}
