// Philox-4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3",
// SC'11): a counter-based generator. Ten rounds of a keyed bijection turn a
// 128-bit counter into 128 random bits; any element of a stream is computed
// directly from its counter, which is what makes draws independent of the tiling.
#pragma once

#include <array>
#include <cstdint>

namespace tessera::detail {

using PhiloxBlock = std::array<uint32_t, 4>;

/// The 128 random bits of `counter` under the 64-bit `key`.
inline PhiloxBlock philox4x32_10(PhiloxBlock c, uint64_t key) {
  constexpr uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
  constexpr uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;
  uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = uint64_t{kM0} * c[0], p1 = uint64_t{kM1} * c[2];
    const uint32_t hi0 = static_cast<uint32_t>(p0 >> 32), lo0 = static_cast<uint32_t>(p0);
    const uint32_t hi1 = static_cast<uint32_t>(p1 >> 32), lo1 = static_cast<uint32_t>(p1);
    c = {hi1 ^ c[1] ^ k0, lo1, hi0 ^ c[3] ^ k1, lo0};
    k0 += kW0;
    k1 += kW1;
  }
  return c;
}

/// The counter of block `block` of draw `draw`.
inline PhiloxBlock philox_counter(uint64_t block, uint64_t draw) {
  return {static_cast<uint32_t>(block), static_cast<uint32_t>(block >> 32), static_cast<uint32_t>(draw),
          static_cast<uint32_t>(draw >> 32)};
}

/// Word pair `i` (0 or 1) of a block as one 64-bit value.
inline uint64_t philox_u64(const PhiloxBlock& b, int i) { return uint64_t{b[2 * i]} | (uint64_t{b[2 * i + 1]} << 32); }

}  // namespace tessera::detail
