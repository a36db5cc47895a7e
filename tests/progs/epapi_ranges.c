/* ePAPI with the EP-Cache extensions: one event set for the whole program,
 * one restricted to array a with a 4-portion histogram, one restricted to
 * array b, and the instructions of a loop of known length
 * (tests/integration/epapi.sh derives every number). */
#include <epapi.h>
#include <stdio.h>
#include <unistd.h>

#define NA (1 << 17) /* 1 MiB of doubles */
#define NB (1 << 13) /* 64 KiB of doubles */
double a[NA] __attribute__((aligned(4096)));
double b[NB] __attribute__((aligned(4096)));

__attribute__((noinline)) double kernel(void) {
    double s = 0;
    for (int i = 0; i < NA; ++i) s += a[i]; /* READ_A */
    for (int i = 0; i < NB; ++i) b[i] = s;  /* WRITE_B */
    return s;
}

/* Exactly 3 n instructions (n >= 1) in the loop, and a ret. */
__attribute__((noinline)) void counted_loop(long n) {
    __asm__ volatile("1:\n\taddq $1, %%rax\n\tsubq $1, %0\n\tjnz 1b" : "+r"(n) : : "rax", "cc");
}

static void check(const char* what, int rc) {
    if (rc < 0) {
        printf("%s: %s (%d)\n", what, EPAPI_strerror(rc), rc);
        if (!EPAPI_is_simulated()) return;
        fflush(stdout);
        _exit(3);
    }
}

int main(void) {
    int all = EPAPI_NULL, ra = EPAPI_NULL, rb = EPAPI_NULL;
    long long v_all[3], v_a[4], v_b[3];
    if (EPAPI_library_init(EPAPI_VER_CURRENT) != EPAPI_VER_CURRENT) {
        printf("init failed\n");
        return 1;
    }
    printf("simulated=%d\n", EPAPI_is_simulated());
    check("create", EPAPI_create_eventset(&all));
    check("add L1_DCM", EPAPI_add_event(all, EPAPI_L1_DCM));
    check("add TOT_INS", EPAPI_add_named_event(all, "PAPI_TOT_INS"));
    check("add TOT_CYC", EPAPI_add_event(all, EPAPI_TOT_CYC));
    if (!EPAPI_is_simulated()) {
        /* Natively the extensions are not supported, whatever PAPI offers. */
        check("create a", EPAPI_create_eventset(&ra));
        check("range a", EPAPI_set_range(ra, a, sizeof a));
        return 0;
    }
    check("create a", EPAPI_create_eventset(&ra));
    check("add a L1_DCA", EPAPI_add_event(ra, EPAPI_L1_DCA));
    check("add a L1_DCM", EPAPI_add_event(ra, EPAPI_L1_DCM));
    check("add a L1_LDM", EPAPI_add_event(ra, EPAPI_L1_LDM));
    check("add a L1_STM", EPAPI_add_event(ra, EPAPI_L1_STM));
    check("range a", EPAPI_set_range(ra, a, sizeof a));
    check("histogram a", EPAPI_set_histogram(ra, 0, 4));
    check("create b", EPAPI_create_eventset(&rb));
    check("add b L1_DCW", EPAPI_add_event(rb, EPAPI_L1_DCW));
    check("add b L1_STM", EPAPI_add_event(rb, EPAPI_L1_STM));
    check("add b L2_DCA", EPAPI_add_event(rb, EPAPI_L2_DCA));
    check("range b", EPAPI_set_range(rb, b, sizeof b));
    /* Errors a user can make: instruction counts cannot be restricted. */
    printf("range TOT_INS: %d\n", EPAPI_add_event(rb, EPAPI_TOT_INS));
    printf("unknown name: %d\n", EPAPI_add_named_event(rb, "PAPI_NO_SUCH"));
    printf("stop before start: %d\n", EPAPI_stop(rb, v_b));

    check("start all", EPAPI_start(all));
    check("start a", EPAPI_start(ra));
    check("start b", EPAPI_start(rb));
    double s = kernel();
    check("stop b", EPAPI_stop(rb, v_b));
    check("stop a", EPAPI_stop(ra, v_a));
    check("stop all", EPAPI_stop(all, v_all));

    long long h[4];
    int nb = EPAPI_read_histogram(ra, EPAPI_L1_DCM, h, 4);
    printf("sum=%g\n", s);
    printf("a: L1_DCA=%lld L1_DCM=%lld L1_LDM=%lld L1_STM=%lld\n", v_a[0], v_a[1], v_a[2], v_a[3]);
    printf("a histogram L1_DCM (%d):", nb);
    for (int i = 0; i < nb; ++i) printf(" %lld", h[i]);
    printf("\n");
    printf("b: L1_DCW=%lld L1_STM=%lld L2_DCA=%lld\n", v_b[0], v_b[1], v_b[2]);
    printf("all: L1_DCM=%lld TOT_INS=%lld TOT_CYC=%lld\n", v_all[0], v_all[1], v_all[2]);

    int ri = EPAPI_NULL;
    long long v_i[1];
    check("create ins", EPAPI_create_eventset(&ri));
    check("add ins TOT_INS", EPAPI_add_event(ri, EPAPI_TOT_INS));
    check("start ins", EPAPI_start(ri));
    counted_loop(100000);
    check("stop ins", EPAPI_stop(ri, v_i));
    printf("loop: TOT_INS=%lld\n", v_i[0]);
    return 0;
}
