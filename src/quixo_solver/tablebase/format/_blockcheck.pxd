# Checking a block of a table file before a kernel reads a value from it.
#
# A table file carries the CRC-32 of every block (tablebase/format/files.py); a reader checks each
# block the first time it reads from it (_reader.pxd) and marks it in the table's `checked`
# flags. The CRC is zlib's (reflected polynomial 0xEDB88320), computed eight bytes at a time
# ("slicing by 8") from eight 256-entry tables: the first is the byte-at-a-time table, and
# table k holds the CRC of a byte followed by k zero bytes, so that the eight lookups of a
# step do not wait on each other (a random probe checks a block of about 1 KiB the first
# time, and one byte a step took about 2 us of a 5x5 probe). The tables are made once, when
# the extension _blockcheck.pyx is imported (every module that cimports this function
# imports it first); tests/test_tablebase_files.py compares the result with zlib.crc32.
from libc.stdint cimport uint8_t, uint32_t


cdef uint32_t quixo_crc32(const uint8_t* data, size_t length) noexcept nogil
