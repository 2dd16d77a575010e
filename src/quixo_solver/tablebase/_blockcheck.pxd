# Checking a block of a table file before a kernel reads a value from it.
#
# A table file carries the CRC-32 of every block of its values (tablebase/files.py); the
# search probes tables at random places, so it checks each block the first time it reads from
# it and marks it in the table's `checked` flags (shared with the Python probe, which checks
# with zlib). The CRC is zlib's (reflected polynomial 0xEDB88320), computed here a byte at a
# time from a 256-entry table: a 64 KiB block costs about 0.1 ms, once.
from libc.stdint cimport uint8_t, uint32_t, uint64_t

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


cdef struct CheckedBlocks:
    const uint8_t* data         # the values' bytes
    uint64_t length             # bytes of values
    uint64_t block_bytes
    const uint32_t* checksums   # one per block
    uint8_t* checked            # 1 once a block has matched its checksum


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
