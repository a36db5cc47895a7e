/* A process that ends, multiplies or is signalled the way argv[1] says, after
 * a fixed amount of work (a memset of 64 KiB), for
 * tests/integration/clients.sh:
 *   thread-exit     a second thread calls exit(7) while main waits for it
 *   fork PROG       forks child A (exits 5), then child B, which execs PROG;
 *                   prints "pids PARENT A B"; the parent exits 0
 *   kill-self SIG   sends itself signal SIG (kill(getpid(), SIG))
 *   wait            prints "ready" and sleeps until a signal kills it
 *   handled         a handler catches SIGUSR1 and SIGTERM, sent by the
 *                   process itself; exits 0 after both ran
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char data[1 << 16];
static volatile sig_atomic_t caught;

static void* exiting_thread(void* arg) {
    (void)arg;
    memset(data, 2, sizeof data);
    exit(7);
}

static void on_signal(int sig) { caught += sig == SIGUSR1 ? 1 : 10; }

static int child_status(pid_t pid) {
    int st = 0;
    if (waitpid(pid, &st, 0) != pid) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char** argv) {
    memset(data, 1, sizeof data);
    const char* mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "thread-exit") == 0) {
        pthread_t t;
        pthread_create(&t, NULL, exiting_thread, NULL);
        pthread_join(t, NULL);
        return 1; /* not reached: the thread's exit ends the process */
    }
    if (strcmp(mode, "fork") == 0 && argc > 2) {
        fflush(stdout);
        pid_t a = fork();
        if (a == 0) {
            memset(data, 3, sizeof data);
            _exit(5);
        }
        int sa = child_status(a);
        pid_t b = fork();
        if (b == 0) {
            execl(argv[2], argv[2], (char*)NULL);
            _exit(127);
        }
        int sb = child_status(b);
        printf("pids %d %d %d status %d %d\n", (int)getpid(), (int)a, (int)b, sa, sb);
        return 0;
    }
    if (strcmp(mode, "kill-self") == 0 && argc > 2) {
        kill(getpid(), atoi(argv[2]));
        return 1; /* not reached for a fatal signal */
    }
    if (strcmp(mode, "wait") == 0) {
        puts("ready");
        fflush(stdout);
        for (;;) pause();
    }
    if (strcmp(mode, "handled") == 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigaction(SIGUSR1, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        raise(SIGUSR1);
        kill(getpid(), SIGTERM);
        printf("caught %d\n", (int)caught);
        return caught == 11 ? 0 : 1;
    }
    return 0;
}
