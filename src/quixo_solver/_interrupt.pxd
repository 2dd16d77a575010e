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
# One flag and one saved handler for the whole process, in the extension _interrupt.pyx that
# the kernels cimport these functions from: watches nest and may overlap across threads (a
# counter; begun and ended with the GIL held), and only the first begin saves, the last end
# restores. Where sigaction is missing (Windows) nothing is watched and kernels run to their
# end.
cdef bint interrupted() noexcept nogil
cdef int watch_interrupts() except -1
cdef int stop_watching() except -1


cdef inline unsigned long long chunk_stop(unsigned long long start, unsigned long long length,
                                         unsigned long long total) noexcept nogil:
    """Where a kernel's loop over the chunk [start, start + length) of `total` entries stops:
    at its end (or the table's), or at its first entry once Ctrl-C was pressed (the caller
    then raises KeyboardInterrupt through stop_watching, and nothing is kept)."""
    if interrupted():
        return start
    return start + length if start + length < total else total
