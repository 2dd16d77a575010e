"""zlib's CRC-32 of a table's blocks, eight bytes a step: see _blockcheck.pxd."""
from libc.stdint cimport uint8_t, uint32_t

cdef uint32_t POLYNOMIAL = 0xEDB88320     # zlib's, reflected
cdef uint32_t TABLES[8][256]        # TABLES[k][n]: the CRC of byte n and k zero bytes


cdef void _make_tables() noexcept:
    cdef uint32_t c
    cdef int n, bit, k
    for n in range(256):
        c = n
        for bit in range(8):
            c = (c >> 1) ^ POLYNOMIAL if c & 1 else c >> 1
        TABLES[0][n] = c
    for n in range(256):
        c = TABLES[0][n]
        for k in range(1, 8):
            c = TABLES[0][c & 0xFF] ^ (c >> 8)
            TABLES[k][n] = c


_make_tables()


cdef uint32_t quixo_crc32(const uint8_t* data, size_t length) noexcept nogil:
    cdef uint32_t c = ~(<uint32_t>0), one, two
    while length >= 8:
        one = c ^ (<uint32_t>data[0] | <uint32_t>data[1] << 8 | <uint32_t>data[2] << 16
                   | <uint32_t>data[3] << 24)
        two = (<uint32_t>data[4] | <uint32_t>data[5] << 8 | <uint32_t>data[6] << 16
               | <uint32_t>data[7] << 24)
        c = (TABLES[7][one & 0xFF] ^ TABLES[6][(one >> 8) & 0xFF]
             ^ TABLES[5][(one >> 16) & 0xFF] ^ TABLES[4][one >> 24]
             ^ TABLES[3][two & 0xFF] ^ TABLES[2][(two >> 8) & 0xFF]
             ^ TABLES[1][(two >> 16) & 0xFF] ^ TABLES[0][two >> 24])
        data += 8
        length -= 8
    while length:
        c = TABLES[0][(c ^ data[0]) & 0xFF] ^ (c >> 8)
        data += 1
        length -= 1
    return ~c
