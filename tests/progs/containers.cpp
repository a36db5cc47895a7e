// containers.cpp - C++ standard containers: std::vector push_back + sort,
// std::map and std::unordered_map inserts/lookups/erases, std::string
// concatenation, std::list push/sort/iterate.  Exercises libstdc++, operator
// new/delete (glibc malloc) and many small functions.  Deterministic (own
// LCG, no addresses printed, unordered_map only queried by key, never
// iterated for output order).  Prints one checksum line.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <list>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

static uint64_t lcg_state = 0xC0FFEEULL;
static uint32_t rnd()
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(lcg_state >> 33);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    return (h ^ v) * 0x100000001b3ULL + (h >> 29);
}

int main()
{
    uint64_t h = 0;

    // vector push_back + sort
    std::vector<int> v;
    for (int i = 0; i < 20000; i++)
        v.push_back(static_cast<int>(rnd() % 100000));
    std::sort(v.begin(), v.end());
    for (size_t i = 0; i < v.size(); i += 97)
        h = mix(h, static_cast<uint64_t>(v[i]));
    h = mix(h, v.size());

    // map
    std::map<int, int> m;
    for (int i = 0; i < 4000; i++)
        m[static_cast<int>(rnd() % 10000)] += i;
    uint64_t found = 0;
    for (int i = 0; i < 4000; i++) {
        auto it = m.find(i * 3);
        if (it != m.end())
            found += static_cast<uint64_t>(it->second);
    }
    for (int i = 0; i < 1000; i++)
        m.erase(i * 7);
    for (const auto &kv : m)   // ordered iteration is deterministic
        h = mix(h, static_cast<uint64_t>(kv.first) * 65536 + static_cast<uint64_t>(kv.second));
    h = mix(h, found);
    h = mix(h, m.size());

    // unordered_map
    std::unordered_map<uint32_t, uint32_t> um;
    for (uint32_t i = 0; i < 4000; i++)
        um[rnd() % 20000] = i;
    uint64_t ufound = 0;
    for (uint32_t k = 0; k < 20000; k += 3) {
        auto it = um.find(k);
        if (it != um.end())
            ufound += it->second + k;
    }
    for (uint32_t k = 0; k < 20000; k += 11)
        um.erase(k);
    h = mix(h, ufound);
    h = mix(h, um.size());

    // string concatenation
    std::string s;
    for (int i = 0; i < 2000; i++) {
        s += std::to_string(i);
        s += (i % 3 == 0) ? "-fizz" : ",";
        if (i % 100 == 0)
            s = s + std::string(static_cast<size_t>(i % 17), 'x');
    }
    std::string t = s.substr(100, 500) + "|" + s.substr(s.size() - 300);
    uint64_t sh = 0;
    for (char c : s)
        sh = sh * 131 + static_cast<unsigned char>(c);
    for (char c : t)
        sh = sh * 137 + static_cast<unsigned char>(c);
    h = mix(h, sh);
    h = mix(h, s.size());
    h = mix(h, s.find("1234"));

    // list
    std::list<int> l;
    for (int i = 0; i < 3000; i++) {
        if (i & 1)
            l.push_back(static_cast<int>(rnd() % 5000));
        else
            l.push_front(static_cast<int>(rnd() % 5000));
    }
    l.sort();
    l.unique();
    l.remove_if([](int x) { return x % 5 == 0; });
    uint64_t lh = 0;
    for (int x : l)
        lh = lh * 7 + static_cast<uint64_t>(x);
    h = mix(h, lh);
    h = mix(h, l.size());

    std::printf("containers checksum %016llx\n", static_cast<unsigned long long>(h));
    return 0;
}
