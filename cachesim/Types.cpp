#include "Types.h"

namespace ompsim {

void error_append(ErrorText& e, const char* s) {
    size_t n = 0;
    while (n < sizeof(e.text) - 1 && e.text[n]) ++n;
    if (!e.set) { n = 0; e.set = true; }
    while (*s && n < sizeof(e.text) - 1) e.text[n++] = *s++;
    e.text[n] = 0;
}

void error_append_u64(ErrorText& e, u64 v) {
    char buf[24];
    int i = sizeof(buf) - 1;
    buf[i] = 0;
    do { buf[--i] = char('0' + v % 10); v /= 10; } while (v);
    error_append(e, buf + i);
}

}  // namespace ompsim
