/* The ompP paper's Figure 4: P() runs A(), B(), C() five times; A() calls
 * X() and Y(), C() calls Z(). Built with -finstrument-functions. Expected
 * predecessor lists at the end (tests/integration/regions_check.py):
 * A (P:1, C:4), X (A:5), Y (X:5), B (A:5), C (B:5), Z (C:5). */
#include <stdio.h>

volatile int sink;

__attribute__((noinline)) void X(void) { sink += 1; }
__attribute__((noinline)) void Y(void) { sink += 2; }
__attribute__((noinline)) void Z(void) { sink += 3; }
__attribute__((noinline)) void A(void) { X(); Y(); }
__attribute__((noinline)) void B(void) { sink += 4; }
__attribute__((noinline)) void C(void) { Z(); }

__attribute__((noinline)) void P(void) {
    for (int i = 0; i < 5; i++) {
        A();
        B();
        C();
    }
}

int main(void) {
    P();
    printf("%d\n", sink);
    return 0;
}
