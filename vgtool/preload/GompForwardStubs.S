/* Part of vgpreload_ompsim-amd64-linux.so: the replacement stubs of
 * libgomp's functions (see GompForward.c). Each is named as Valgrind's
 * VG_REPLACE_FUNCTION_ZU(libgompZdsoZd1, name) names a replacement and
 * jumps to libomp's function of the same name: a tail jump, so the callee
 * sees the caller's arguments (registers and stack) and return address
 * unchanged, and the runtime's OMPT code pointers name the user's call site.
 *
 *   stub i:  r11 = ompsim_gomp_slots[i]; if r11: jmp *r11
 *            else r11d = i; jmp gomp_slow   (looks the function up first)
 *   missing: edi = i; jmp ompsim_gomp_missing (prints, exits)
 *
 * Stub i is the i-th line of GompForwardList.h, as is funcs[i]
 * in GompForward.c (__COUNTER__ numbers them here). */

        .section ompsim_unsimulated,"ax",@progbits
        .hidden ompsim_gomp_slots
        .hidden ompsim_gomp_resolve
        .hidden ompsim_gomp_missing

#define REPL(name) _vgr00000ZU_libgompZdsoZd1_##name

#define STUB(name, i)                                   \
        .globl REPL(name);                              \
        .type REPL(name), @function;                    \
        .p2align 4;                                     \
REPL(name):                                             \
        movq ompsim_gomp_slots+8*(i)(%rip), %r11;       \
        testq %r11, %r11;                               \
        jz 1f;                                          \
        jmp *%r11;                                      \
1:      movl $(i), %r11d;                               \
        jmp gomp_slow;                                  \
        .size REPL(name), .-REPL(name);

#define MISSING_STUB(name, i)                           \
        .globl REPL(name);                              \
        .type REPL(name), @function;                    \
        .p2align 4;                                     \
REPL(name):                                             \
        movl $(i), %edi;                                \
        jmp ompsim_gomp_missing;                        \
        .size REPL(name), .-REPL(name);

#define STUB_N(name, i) STUB(name, i)
#define MISSING_STUB_N(name, i) MISSING_STUB(name, i)
#define GOMP_FWD(name, version) STUB_N(name, __COUNTER__)
#define GOMP_MISSING(name) MISSING_STUB_N(name, __COUNTER__)

#include "GompForwardList.h"

/* The first call of a function: save every register that can carry an
 * argument (rdi, rsi, rdx, rcx, r8, r9, rax = vector-register count of a
 * variadic call, r10, xmm0-7), ask ompsim_gomp_resolve(r11d) for libomp's
 * function, restore, jump. Stack arguments stay where the caller put them. */
        .p2align 4
        .type gomp_slow, @function
gomp_slow:
        .cfi_startproc
        pushq %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset %rbp, -16
        movq %rsp, %rbp
        .cfi_def_cfa_register %rbp
        pushq %rdi
        pushq %rsi
        pushq %rdx
        pushq %rcx
        pushq %r8
        pushq %r9
        pushq %rax
        pushq %r10
        subq $128, %rsp
        movdqu %xmm0, 0(%rsp)
        movdqu %xmm1, 16(%rsp)
        movdqu %xmm2, 32(%rsp)
        movdqu %xmm3, 48(%rsp)
        movdqu %xmm4, 64(%rsp)
        movdqu %xmm5, 80(%rsp)
        movdqu %xmm6, 96(%rsp)
        movdqu %xmm7, 112(%rsp)
        movl %r11d, %edi
        call ompsim_gomp_resolve
        movq %rax, %r11
        movdqu 0(%rsp), %xmm0
        movdqu 16(%rsp), %xmm1
        movdqu 32(%rsp), %xmm2
        movdqu 48(%rsp), %xmm3
        movdqu 64(%rsp), %xmm4
        movdqu 80(%rsp), %xmm5
        movdqu 96(%rsp), %xmm6
        movdqu 112(%rsp), %xmm7
        addq $128, %rsp
        popq %r10
        popq %rax
        popq %r9
        popq %r8
        popq %rcx
        popq %rdx
        popq %rsi
        popq %rdi
        popq %rbp
        .cfi_def_cfa %rsp, 8
        jmp *%r11
        .cfi_endproc
        .size gomp_slow, .-gomp_slow

        .section .note.GNU-stack,"",@progbits
