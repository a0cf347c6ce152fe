// SPDX-License-Identifier: GPL-2.0
/*
 * cxx_map: a C++ program for tools/names_test: word counts in a
 * std::map<std::string, int>, sorted by count with std::sort and a lambda,
 * through a class template, for SECONDS (default 2).  Built as a
 * distribution builds (-O2, no frame pointers): its names are mangled
 * (_ZNSt8_Rb_tree...) until demangled.
 *
 *   cxx_map [SECONDS]
 */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace shapes {

template <typename Key> class Counter {
public:
	__attribute__((noinline)) void add_many(unsigned seed, int n)
	{
		for (int i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			counts_[make_key(seed >> 8)]++;
		}
	}

	__attribute__((noinline)) std::vector<std::pair<Key, int>> top() const
	{
		std::vector<std::pair<Key, int>> v(counts_.begin(), counts_.end());

		std::sort(v.begin(), v.end(), [](const auto &a, const auto &b) {
			return a.second != b.second ? a.second > b.second : a.first < b.first;
		});
		return v;
	}

private:
	static Key make_key(unsigned x)
	{
		return "word-" + std::to_string(x % 20000);
	}

	std::map<Key, int> counts_;
};

} // namespace shapes

int main(int argc, char **argv)
{
	using clock = std::chrono::steady_clock;
	double secs = argc > 1 ? std::atof(argv[1]) : 2.0;
	auto end = clock::now() + std::chrono::duration<double>(secs);
	unsigned long rounds = 0, sink = 0;

	while (clock::now() < end) {
		shapes::Counter<std::string> c;

		c.add_many((unsigned)rounds, 20000);
		sink += c.top().front().second;
		rounds++;
	}
	std::printf("cxx_map: %lu rounds (%lu)\n", rounds, sink & 0xff);
	return 0;
}
