/* Tasks ordered by depend clauses instead of taskwait:
 *   chain    t1 -> t2 -> t3 -> t4: each task reads what the previous wrote
 *            (inout on the same variable), so they run one after the other;
 *   diamond  top -> (left, right) -> bottom: left and right only read top's
 *            result and may run at the same time; bottom waits for both.
 * The runtime reports each task's dependences and the pairs it found
 * (TASK_DEPENDENCES / TASK_DEPENDENCE events). */
#include <stdio.h>

static long chain_value;
static long top, left, right, bottom;

int main(void) {
#pragma omp parallel
#pragma omp single
    {
        for (int k = 1; k <= 4; ++k) {
#pragma omp task depend(inout : chain_value) firstprivate(k)
            chain_value = chain_value * 10 + k;
        }

#pragma omp task depend(out : top)
        top = 5;
#pragma omp task depend(in : top) depend(out : left)
        left = top + 1;
#pragma omp task depend(in : top) depend(out : right)
        right = top * 2;
#pragma omp task depend(in : left, right) depend(out : bottom)
        bottom = left + right;
#pragma omp taskwait
    }
    printf("chain %ld (expected 1234), diamond %ld (expected 16)\n", chain_value, bottom);
    return chain_value == 1234 && bottom == 16 ? 0 : 1;
}
