// SPDX-License-Identifier: GPL-2.0
/*
 * liblazy_bind.so: lazy_all() calls 36 libm functions, each through this
 * library's PLT, which is bound lazily (-z lazy): the first call of each
 * after every dlopen() goes through ld.so's resolver.  Built as a
 * distribution builds (no frame pointers, .eh_frame only).
 */
#include <math.h>

double lazy_all(double x)
{
	double a = 0;

	a += sin(x) + cos(x) + tan(x) + asin(x) + acos(x) + atan(x);
	a += sinh(x) + cosh(x) + tanh(x) + asinh(x) + acosh(x + 1) + atanh(x);
	a += exp(x) + exp2(x) + expm1(x) + log(x) + log2(x) + log10(x);
	a += log1p(x) + cbrt(x) + sqrt(x) + erf(x) + erfc(x) + tgamma(x);
	a += lgamma(x) + j0(x) + j1(x) + y0(x) + y1(x) + hypot(x, a);
	a += atan2(x, a) + pow(x, a) + fmod(a, x) + remainder(a, x) + fdim(a, x) + logb(a);
	return a;
}
