"""The process's Ctrl-C watch for nogil kernels: see _interrupt.pxd."""

cdef extern from *:
    """
    #include <signal.h>
    #include <string.h>
    #if defined(_WIN32)
    static volatile int quixo_interrupt_flag = 0;
    static void quixo_interrupt_begin(void) { quixo_interrupt_flag = 0; }
    static int quixo_interrupt_end(void) { return 0; }
    #else
    static volatile sig_atomic_t quixo_interrupt_flag = 0;
    static struct sigaction quixo_interrupt_saved;
    static int quixo_interrupt_watchers = 0;
    static int quixo_interrupt_installed = 0;

    static void quixo_interrupt_handler(int signum) {
        quixo_interrupt_flag = 1;
        if (!(quixo_interrupt_saved.sa_flags & SA_SIGINFO)
                && quixo_interrupt_saved.sa_handler != SIG_DFL
                && quixo_interrupt_saved.sa_handler != SIG_IGN) {
            quixo_interrupt_saved.sa_handler(signum);
        }
    }

    /* The first watch installs the handler, unless the signal is ignored (then nothing
       changes) or a handler with SA_SIGINFO is in force (then it is left alone). */
    static void quixo_interrupt_begin(void) {
        struct sigaction action;
        if (quixo_interrupt_watchers++ > 0) return;
        quixo_interrupt_flag = 0;
        quixo_interrupt_installed = 0;
        if (sigaction(SIGINT, NULL, &quixo_interrupt_saved) != 0) return;
        if (quixo_interrupt_saved.sa_flags & SA_SIGINFO) return;
        if (quixo_interrupt_saved.sa_handler == SIG_IGN) return;
        memset(&action, 0, sizeof action);
        action.sa_handler = quixo_interrupt_handler;
        sigemptyset(&action.sa_mask);
        quixo_interrupt_installed = sigaction(SIGINT, &action, NULL) == 0;
    }

    /* Returns 1 if a SIGINT arrived during the watch. Where the default action was in force
       (no Python handler), the signal is raised again once restored, as it would have been. */
    static int quixo_interrupt_end(void) {
        if (--quixo_interrupt_watchers > 0) return quixo_interrupt_flag;
        if (!quixo_interrupt_installed) return 0;
        quixo_interrupt_installed = 0;
        sigaction(SIGINT, &quixo_interrupt_saved, NULL);
        if (quixo_interrupt_flag && quixo_interrupt_saved.sa_handler == SIG_DFL) raise(SIGINT);
        return quixo_interrupt_flag;
    }
    #endif
    """
    int quixo_interrupt_flag
    void quixo_interrupt_begin() noexcept
    int quixo_interrupt_end() noexcept
    int PyErr_CheckSignals() except -1


cdef bint interrupted() noexcept nogil:
    return quixo_interrupt_flag != 0


cdef int watch_interrupts() except -1:
    """Begin a watch. A Ctrl-C that arrived just before it (Python only noted it) is raised
    now, so that the kernel does not start."""
    quixo_interrupt_begin()
    try:
        PyErr_CheckSignals()
    except BaseException:
        quixo_interrupt_end()
        raise
    return 0


cdef int stop_watching() except -1:
    """End the watch; KeyboardInterrupt if Ctrl-C arrived during it."""
    if quixo_interrupt_end():
        PyErr_CheckSignals()          # Python's own handler: KeyboardInterrupt on the main thread
        raise KeyboardInterrupt()     # elsewhere, the kernel's result is still not to be used
    return 0
