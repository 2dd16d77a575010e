# Checking a block of a table file before a kernel reads a value from it.
#
# A table file carries the CRC-32 of every block of its values (tablebase/files.py); the
# search probes tables at random places, so it checks each block the first time it reads from
# it and marks it in the table's `checked` flags (shared with the Python probe, which checks
# with zlib). The CRC is zlib's (reflected polynomial 0xEDB88320), computed here a byte at a
# time from a 256-entry table: a 64 KiB block costs about 0.1 ms, once.
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t

cdef extern from *:
    """
    #include <stddef.h>
    #include <stdint.h>
    static uint32_t quixo_crc_table[256];

    static void quixo_crc_fill(void) {
        for (uint32_t n = 0; n < 256; n++) {
            uint32_t c = n;
            for (int k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            quixo_crc_table[n] = c;
        }
    }

    static uint32_t quixo_crc32(const unsigned char* data, size_t length) {
        uint32_t c = 0xFFFFFFFFu;
        for (size_t i = 0; i < length; i++)
            c = quixo_crc_table[(c ^ data[i]) & 0xFF] ^ (c >> 8);
        return c ^ 0xFFFFFFFFu;
    }
    """
    void quixo_crc_fill() noexcept nogil
    uint32_t quixo_crc32(const uint8_t* data, size_t length) noexcept nogil


cdef enum:
    FILE_ESCAPE = 0xFF    # files.ESCAPE: the byte of a value kept among the file's escapes


cdef struct CheckedBlocks:
    const uint8_t* data         # the values' bytes
    uint64_t length             # bytes of values
    uint64_t block_bytes
    const uint32_t* checksums   # one per block
    uint8_t* checked            # 1 once a block has matched its checksum
    const uint64_t* escape_indices   # ascending: the entries whose byte is FILE_ESCAPE
    const uint16_t* escape_codes     # and their codes
    uint64_t escapes


cdef inline bint block_is_intact(CheckedBlocks* blocks, uint64_t byte_offset) noexcept nogil:
    """Whether the block holding `byte_offset` matches its checksum (checked once)."""
    cdef uint64_t block = byte_offset // blocks.block_bytes
    cdef uint64_t start = block * blocks.block_bytes
    cdef uint64_t length = blocks.block_bytes
    if blocks.checked[block]:
        return True
    if start + length > blocks.length:
        length = blocks.length - start
    if quixo_crc32(blocks.data + start, length) != blocks.checksums[block]:
        return False
    blocks.checked[block] = 1
    return True


cdef inline int escaped_code(const CheckedBlocks* blocks, uint64_t index) noexcept nogil:
    """The code of an entry whose byte is FILE_ESCAPE (binary search), -1 if it is missing."""
    cdef uint64_t low = 0, high = blocks.escapes, middle
    while low < high:
        middle = (low + high) // 2
        if blocks.escape_indices[middle] < index:
            low = middle + 1
        else:
            high = middle
    if low < blocks.escapes and blocks.escape_indices[low] == index:
        return blocks.escape_codes[low]
    return -1
