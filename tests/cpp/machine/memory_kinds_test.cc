// Memory kinds: copies between kinds (memcpy between the kinds the host reaches, a CUDA copy
// for framebuffer memory, which a build without CUDA refuses), allocation by kind, and a
// rank's pools, one per kind it reserves.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "config/config.h"
#include "machine/memory_pool.h"
#include "tessera/errors.h"

namespace tessera::detail {
namespace {

constexpr MemoryKind kAll[] = {MemoryKind::Sysmem, MemoryKind::Numamem, MemoryKind::Fbmem, MemoryKind::Zcmem};

bool cuda_build() { return detect_machine().gpu_build; }

TEST(MemoryKindsTest, NamesAndWhatTheHostReaches) {
  std::vector<std::string> names;
  for (MemoryKind k : kAll) names.push_back(memory_kind_name(k));
  EXPECT_EQ(names, (std::vector<std::string>{"SYSMEM", "NUMAMEM", "FBMEM", "ZCMEM"}));
  EXPECT_TRUE(host_accessible(MemoryKind::Sysmem));
  EXPECT_TRUE(host_accessible(MemoryKind::Numamem));
  EXPECT_TRUE(host_accessible(MemoryKind::Zcmem));  // pinned host memory
  EXPECT_FALSE(host_accessible(MemoryKind::Fbmem));
  EXPECT_TRUE(buildable(MemoryKind::Sysmem));
  EXPECT_TRUE(buildable(MemoryKind::Numamem));
  EXPECT_EQ(buildable(MemoryKind::Fbmem), cuda_build());
  EXPECT_EQ(buildable(MemoryKind::Zcmem), cuda_build());
}

TEST(MemoryKindsTest, CopiesBetweenHostKindsKeepEveryByte) {
  const int64_t n = 1000;
  std::vector<int64_t> src(n), dst(n, -1);
  std::iota(src.begin(), src.end(), -300);
  for (MemoryKind to : {MemoryKind::Sysmem, MemoryKind::Numamem, MemoryKind::Zcmem})
    for (MemoryKind from : {MemoryKind::Sysmem, MemoryKind::Numamem, MemoryKind::Zcmem}) {
      std::fill(dst.begin(), dst.end(), -1);
      copy_memory(dst.data(), to, src.data(), from, n * 8);
      ASSERT_EQ(dst, src) << memory_kind_name(from) << " -> " << memory_kind_name(to);
    }
  // Zero bytes copy nothing, whatever the kinds.
  copy_memory(nullptr, MemoryKind::Fbmem, nullptr, MemoryKind::Sysmem, 0);
}

TEST(MemoryKindsTest, HostBlocksAreAlignedAndFreed) {
  for (int64_t bytes : {int64_t{64}, int64_t{1000}, int64_t{3} << 20}) {
    void* p = allocate_memory(MemoryKind::Sysmem, bytes);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
    std::memset(p, 7, static_cast<size_t>(bytes));
    free_memory(MemoryKind::Sysmem, p);
  }
}

TEST(MemoryKindsTest, FramebufferMemoryNeedsACudaBuild) {
  if (cuda_build()) GTEST_SKIP() << "a build with CUDA copies to and from FBMEM with cudaMemcpy";
  int64_t x = 5, y = 0;
  for (auto f : {+[](int64_t*d, int64_t*s) { copy_memory(d, MemoryKind::Fbmem, s, MemoryKind::Sysmem, 8); },
                 +[](int64_t*d, int64_t*s) { copy_memory(d, MemoryKind::Sysmem, s, MemoryKind::Fbmem, 8); }}) {
    try {
      f(&y, &x);
      FAIL() << "no error";
    } catch (const NotImplementedError& e) {
      EXPECT_NE(std::string(e.what()).find("FBMEM memory needs a build of tessera with CUDA"), std::string::npos)
          << e.what();
    }
  }
  EXPECT_EQ(y, 0);
  EXPECT_THROW(allocate_memory(MemoryKind::Fbmem, 64), NotImplementedError);
  EXPECT_THROW(allocate_memory(MemoryKind::Zcmem, 64), NotImplementedError);
}

TEST(MemoryKindsTest, PoolsExistForTheKindsGivenACapacity) {
  MemoryPools sysmem_only({int64_t{1} << 20, 0, 0, 0});
  ASSERT_NE(sysmem_only.get(MemoryKind::Sysmem), nullptr);
  EXPECT_EQ(sysmem_only.get(MemoryKind::Sysmem)->capacity(), int64_t{1} << 20);
  EXPECT_EQ(sysmem_only.get(MemoryKind::Numamem), nullptr);
  EXPECT_EQ(sysmem_only.get(MemoryKind::Fbmem), nullptr);
  EXPECT_EQ(sysmem_only.get(MemoryKind::Zcmem), nullptr);
  EXPECT_EQ(sysmem_only.present().size(), 1u);

  MemoryPools with_numa({int64_t{1} << 20, 4096, 0, 0});
  ASSERT_EQ(with_numa.present().size(), 2u);
  EXPECT_EQ(with_numa.present()[1]->kind(), MemoryKind::Numamem);
  EXPECT_EQ(with_numa.get(MemoryKind::Numamem)->capacity(), 4096);
  // A pool of a kind allocates that kind: a NUMAMEM block is host memory.
  MemoryPool& numa = *with_numa.get(MemoryKind::Numamem);
  AllocationInfo what;
  void* p = numa.allocate(1000, what, "");
  std::memset(p, 1, 1000);
  EXPECT_EQ(numa.used(), 1024);
  numa.release(p, 1000);

  if (!cuda_build()) {
    EXPECT_THROW(MemoryPools({int64_t{1} << 20, 0, 4096, 0}), NotImplementedError);
    EXPECT_THROW(MemoryPools({int64_t{1} << 20, 0, 0, 4096}), NotImplementedError);
  }
}

}  // namespace
}  // namespace tessera::detail
