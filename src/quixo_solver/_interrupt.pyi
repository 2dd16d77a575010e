# The Ctrl-C watch of the nogil kernels is cimported from _interrupt.pxd by the other Cython
# modules; the compiled module exposes nothing to Python.
