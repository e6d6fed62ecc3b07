// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The C++ program of the probe tests: a method in a namespace with two
 * overloads, a namespace function, a function template with two instances.
 * It prints what it computed: "TOTAL TWICE MAXOF_INT MAXOF_DOUBLE".
 */
#include <cstdio>

namespace ns {
class Counter {
public:
	Counter(int start) : total(start) {}
	__attribute__((noinline)) int add(int v)
	{
		total += v;
		return total;
	}
	__attribute__((noinline)) int add(int v, int w)
	{
		total += v * w;
		return total;
	}
	int total;
};

__attribute__((noinline)) long twice(long x)
{
	return 2 * x;
}
}

template <typename T> __attribute__((noinline)) T maxof(T a, T b)
{
	return a > b ? a : b;
}

int main()
{
	ns::Counter c(10);

	for (int i = 0; i < 3; i++)
		c.add(i);
	c.add(2, 3);
	printf("%d %ld %d %g\n", c.total, ns::twice(21), maxof(3, 4), maxof(1.5, 0.5));
	return 0;
}
