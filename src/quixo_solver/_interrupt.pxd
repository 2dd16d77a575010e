# Ctrl-C inside kernels that run without the GIL.
#
# Python's SIGINT handler only notes the signal; KeyboardInterrupt is raised the next time the
# main thread runs Python code, which a kernel in a nogil loop never does until it finishes
# (hours, for a deep perft). So while a kernel runs, `watch_interrupts` puts a C handler in
# front of Python's: it raises a flag that the kernels poll (`interrupted`, a plain load) at
# each chunk or every few thousand nodes, and passes the signal on to Python's handler.
# `stop_watching` restores the previous handler and, if the flag was raised, raises
# KeyboardInterrupt: a kernel that was cut short never returns its partial result.
#
# The flag and the saved handler are static, so each extension module that cimports this has
# its own; watches nest (a counter), and are begun and ended with the GIL held. Where
# sigaction is missing (Windows) nothing is watched and kernels run to their end.
cdef extern from *:
    """
    #include <signal.h>
    #include <string.h>
    #if defined(_WIN32)
    static volatile int quixo_interrupt_flag = 0;
    static int quixo_interrupt_begin(void) { quixo_interrupt_flag = 0; return 0; }
    static int quixo_interrupt_end(void) { return 0; }
    #else
    static volatile sig_atomic_t quixo_interrupt_flag = 0;
    static struct sigaction quixo_interrupt_saved;
    static int quixo_interrupt_watchers = 0;

    static void quixo_interrupt_handler(int signum) {
        quixo_interrupt_flag = 1;
        if (!(quixo_interrupt_saved.sa_flags & SA_SIGINFO)
                && quixo_interrupt_saved.sa_handler != SIG_DFL
                && quixo_interrupt_saved.sa_handler != SIG_IGN) {
            quixo_interrupt_saved.sa_handler(signum);
        }
    }

    /* Returns 1 when the signal was already ignored: the watch then changes nothing. */
    static int quixo_interrupt_begin(void) {
        struct sigaction action;
        if (quixo_interrupt_watchers++ > 0) return 0;
        quixo_interrupt_flag = 0;
        memset(&action, 0, sizeof action);
        action.sa_handler = quixo_interrupt_handler;
        sigemptyset(&action.sa_mask);
        if (sigaction(SIGINT, &action, &quixo_interrupt_saved) != 0) return 0;
        if (quixo_interrupt_saved.sa_handler == SIG_IGN
                && !(quixo_interrupt_saved.sa_flags & SA_SIGINFO)) {
            sigaction(SIGINT, &quixo_interrupt_saved, NULL);
            return 1;
        }
        return 0;
    }

    /* Returns 1 if a SIGINT arrived during the watch. Where the default action was in force
       (no Python handler), the signal is raised again once restored, as it would have been. */
    static int quixo_interrupt_end(void) {
        if (--quixo_interrupt_watchers > 0) return quixo_interrupt_flag;
        sigaction(SIGINT, &quixo_interrupt_saved, NULL);
        if (quixo_interrupt_flag && !(quixo_interrupt_saved.sa_flags & SA_SIGINFO)
                && quixo_interrupt_saved.sa_handler == SIG_DFL) {
            raise(SIGINT);
        }
        return quixo_interrupt_flag;
    }
    #endif
    """
    int quixo_interrupt_flag
    int quixo_interrupt_begin() noexcept
    int quixo_interrupt_end() noexcept
    int PyErr_CheckSignals() except -1


cdef inline bint interrupted() noexcept nogil:
    return quixo_interrupt_flag != 0


cdef inline void watch_interrupts() noexcept:
    quixo_interrupt_begin()


cdef inline int stop_watching() except -1:
    """End the watch; KeyboardInterrupt if Ctrl-C arrived during it."""
    if quixo_interrupt_end():
        PyErr_CheckSignals()          # Python's own handler: KeyboardInterrupt on the main thread
        raise KeyboardInterrupt()     # elsewhere, the kernel's result is still not to be used
    return 0
