// Philox-4x32-10 against the known-answer vectors of Random123 (kat_vectors).
#include <gtest/gtest.h>

#include "numeric/random/cpu/philox.h"

namespace tessera::detail {
namespace {

uint64_t key(uint32_t k0, uint32_t k1) { return uint64_t{k0} | (uint64_t{k1} << 32); }

TEST(PhiloxTest, KnownAnswers) {
  EXPECT_EQ(philox4x32_10({0, 0, 0, 0}, key(0, 0)), (PhiloxBlock{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(philox4x32_10({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, key(0xffffffff, 0xffffffff)),
            (PhiloxBlock{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, key(0xa4093822, 0x299f31d0)),
            (PhiloxBlock{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

}  // namespace
}  // namespace tessera::detail
