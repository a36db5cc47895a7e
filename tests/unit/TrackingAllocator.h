// An Allocator (cachesim/Types.h) for the hosted tests of profilers/: the
// profilers never free their tables (in the tool they live as long as the
// run), so the test owns every block they allocate and frees what is left
// when it goes out of scope. Without it LeakSanitizer (the sanitizer pass of
// ./quickstart check) reports every table of every test as a leak.
#ifndef OMPSIM_TESTS_TRACKINGALLOCATOR_H
#define OMPSIM_TESTS_TRACKINGALLOCATOR_H

#include <cstdlib>
#include <unordered_set>

#include "Types.h"

class TrackingAllocator {
public:
    TrackingAllocator() = default;
    TrackingAllocator(const TrackingAllocator&) = delete;
    TrackingAllocator& operator=(const TrackingAllocator&) = delete;
    ~TrackingAllocator() {
        for (void* p : live_) std::free(p);
    }

    // Declare the TrackingAllocator before the profiler that uses it, so that
    // it is destroyed after it.
    ompsim::Allocator get() { return ompsim::Allocator{alloc, release, this}; }

private:
    static void* alloc(void* ctx, size_t n) {
        void* p = std::malloc(n);
        if (p) static_cast<TrackingAllocator*>(ctx)->live_.insert(p);
        return p;
    }
    static void release(void* ctx, void* p) {
        static_cast<TrackingAllocator*>(ctx)->live_.erase(p);
        std::free(p);
    }

    std::unordered_set<void*> live_;
};

#endif
