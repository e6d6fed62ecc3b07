// SPDX-License-Identifier: GPL-2.0-or-later
// DWARF callchains of C++ at -O2 (t0650): STL templates inlined into main
// (std::sort with a lambda, std::map<std::string, int>::operator[]), a
// function template, virtual calls.  Inline frames here are named by
// linkage names, by DW_AT_name alone (template instances) and, for the
// innermost one, by the ELF symbol, as addr2line names them.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace ns {
template <typename T> struct acc {
	T v{};
	void add(T x) { v += std::sqrt(x * x + 1); }
};

template <typename T> __attribute__((noinline)) T fold(const std::vector<T> &a)
{
	acc<T> s;

	for (auto x : a)
		s.add(x);
	return s.v;
}

struct shape {
	virtual double area() const = 0;
	virtual ~shape() {}
};
struct square : shape {
	double s;
	explicit square(double x) : s(x) {}
	double area() const override { return s * s; }
};
struct circle : shape {
	double r;
	explicit circle(double x) : r(x) {}
	double area() const override { return 3.14159 * r * r; }
};
} // namespace ns

static volatile double sink;

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 100;
	std::vector<double> v(20000);
	std::map<std::string, int> m;
	std::vector<ns::shape *> shapes;

	for (size_t i = 0; i < v.size(); i++)
		v[i] = (double)(i % 97);
	for (int i = 0; i < 1000; i++)
		shapes.push_back(i % 2 ? (ns::shape *)new ns::square(i) : new ns::circle(i));
	for (int r = 0; r < rounds; r++) {
		std::vector<double> c(v.begin(), v.begin() + 3000);

		sink += ns::fold(v);
		std::sort(c.begin(), c.end(), [](double a, double b) { return a > b; });
		for (int i = 0; i < 200; i++)
			m[std::to_string(i * r % 500)] += i;
		for (auto *s : shapes)
			sink += s->area();
	}
	printf("%zu\n", m.size());
	for (auto *s : shapes)
		delete s;
	return 0;
}
