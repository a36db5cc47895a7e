// C++ containers (bench): std::vector, std::map and std::unordered_map
// inserts, lookups and iteration over N keys, ROUNDS times.
//   containers N ROUNDS
#include <cstdio>
#include <cstdlib>
#include <map>
#include <unordered_map>
#include <vector>

int main(int argc, char** argv) {
    long n = argc > 1 ? std::atol(argv[1]) : 100000;
    int rounds = argc > 2 ? std::atoi(argv[2]) : 4;
    unsigned long long x = 88172645463325252ull, sum = 0;
    for (int r = 0; r < rounds; ++r) {
        std::vector<long> keys;
        std::map<long, long> tree;
        std::unordered_map<long, long> hash;
        for (long i = 0; i < n; ++i) {  // inserts: random keys
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            long k = (long)(x % (unsigned long long)(4 * n));
            keys.push_back(k);
            tree[k] += i;
            hash.emplace(k, i);
        }
        for (long i = 0; i < n; ++i) {  // lookups: half hits, half misses
            long k = (i & 1) ? keys[(size_t)(i * 7919) % keys.size()] : keys[(size_t)i] + 1;
            auto t = tree.find(k);
            if (t != tree.end()) sum += (unsigned long long)t->second;
            auto h = hash.find(k);
            if (h != hash.end()) sum += (unsigned long long)h->second;
        }
        for (const auto& kv : tree) sum += (unsigned long long)kv.first;  // iteration
        for (const auto& kv : hash) sum ^= (unsigned long long)kv.second;
        for (long k : keys) sum += (unsigned long long)k;
        for (long i = 0; i < n; i += 2) tree.erase(keys[(size_t)i]);  // erases
    }
    std::printf("%llu\n", sum);
    return 0;
}
