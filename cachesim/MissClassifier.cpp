#include "MissClassifier.h"

namespace ompsim {

bool MissClassifier::init(u64 lines, const Allocator& a) {
    clear();
    bool ok = seen_.init(a);
    ok = shadow_.init(lines, a) && ok;
    if (!ok) {
        // Both were initialised (their pointers set), so both can be released.
        seen_.destroy();
        shadow_.destroy();
        return false;
    }
    active_ = true;
    return true;
}

void MissClassifier::destroy() {
    if (active_) {
        seen_.destroy();
        shadow_.destroy();
    }
    clear();
}

void MissClassifier::clear() {
    active_ = false;
}

}  // namespace ompsim
