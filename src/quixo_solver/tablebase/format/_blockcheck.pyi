# The block check (zlib's CRC-32) is cimported from _blockcheck.pxd by the other Cython
# modules; the compiled module exposes nothing to Python.
