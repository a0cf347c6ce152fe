// SPDX-License-Identifier: GPL-2.0
/* dl_lib: the libraries dl_loop loads in turn (built twice, -DNAME=a / b). */
#define CAT(a, b) a##b
#define FN(n) CAT(dl_compute_, n)

double FN(NAME)(long n);

__attribute__((noinline)) static double step(double x, long i)
{
	return x * 1.0000001 + (double)(i & 7);
}

double FN(NAME)(long n)
{
	double x = 1;
	long i;

	for (i = 0; i < n; i++)
		x = step(x, i);
	return x;
}
