// SPDX-License-Identifier: GPL-2.0
/*
 * Demangling through binutils' libiberty (cplus_demangle, the demangler GCC
 * and binutils maintain): C++ (Itanium ABI), Rust legacy (_ZN...17h<hash>E,
 * hash dropped) and Rust v0 (_R...), told apart by the demangler itself
 * (DMGL_AUTO).  Symbol versions are dropped first; our "func@plt" keeps its
 * suffix.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libiberty/demangle.h>

#include "symbols/demangle.h"

/* Could @s be mangled at all?  The demangler is only asked about these. */
static int looks_mangled(const char *s)
{
	return s[0] == '_' && (s[1] == 'Z' || s[1] == 'R');
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

	/* "name@@VERSION" (default) and "name@VERSION": the version is not the name. */
	if (base && demangle && looks_mangled(base)) {
		d = cplus_demangle(base, DMGL_AUTO | DMGL_PARAMS | DMGL_ANSI);
		if (d) {
			free(base);
			base = d;
		}
	}
	/* Our own "func@plt" keeps its suffix. */
	if (!base || !plt || asprintf(&out, "%s@plt", base) < 0)
		return base;
	free(base);
	return out;
}
