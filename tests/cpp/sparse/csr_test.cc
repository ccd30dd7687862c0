// CSR kernels on a small matrix with an empty row and a repeated, unsorted column, against
// its dense product: y = A @ x read whole and by blocks of rows with their column ranges.
// Under AddressSanitizer (.ci/sanitizers.sh) the by-blocks product once read a freed shape
// (add_csr kept a reference into the operation's arguments while adding to them).
#include "tessera/sparse.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "tessera/creation.h"
#include "tessera/runtime.h"

namespace tessera {
namespace {

class CsrTest : public ::testing::Test {
 protected:
  void SetUp() override {
    tessera::finish();
    setenv("TESSERA_CONFIG", "--cpus=2", 1);
    setenv("TESSERA_TEST", "1", 1);
    tessera::start();
  }
  void TearDown() override {
    tessera::finish();
    unsetenv("TESSERA_TEST");
    unsetenv("TESSERA_CONFIG");
  }
};

// [[1, 0, 2, 0], [0, 0, 0, 0], [0, 3, 0, 0], [5, 0, 0, 4]] with row 3 stored as
// columns 3, 0, 0 (4, 2, 3): unsorted with a repeat, as SciPy allows.
const std::vector<int64_t> kIndptr{0, 2, 2, 3, 6};
const std::vector<int64_t> kIndices{0, 2, 1, 3, 0, 0};
const std::vector<double> kData{1, 2, 3, 4, 2, 3};

ndarray int64s(const std::vector<int64_t>& v) {
  return from_host(v.data(), {static_cast<int64_t>(v.size())}, DType::Int64);
}
ndarray doubles(const std::vector<double>& v) {
  return from_host(v.data(), {static_cast<int64_t>(v.size())}, DType::Float64);
}

TEST_F(CsrTest, MatvecWholeAndByBlocksOfRows) {
  const ndarray indptr = int64s(kIndptr), indices = int64s(kIndices), data = doubles(kData);
  const ndarray x = doubles({1, 10, 100, 1000});
  const std::vector<double> want{201, 0, 30, 4005};
  EXPECT_EQ(csr_matvec(indptr, indices, data, x).to_vector<double>(), want);
  for (int64_t block : {1, 2, 3, 4}) {
    const ndarray ranges = csr_column_ranges(indptr, indices, block);
    EXPECT_EQ(csr_matvec(indptr, indices, data, x, ranges, block).to_vector<double>(), want) << "block " << block;
  }
  EXPECT_EQ(csr_column_ranges(indptr, indices, 2).to_vector<int64_t>(), (std::vector<int64_t>{0, 3, 0, 4}));
}

TEST_F(CsrTest, TodenseSumsRepeats) {
  const ndarray dense = csr_todense(int64s(kIndptr), int64s(kIndices), doubles(kData), 4);
  EXPECT_EQ(dense.to_vector<double>(), (std::vector<double>{1, 0, 2, 0, 0, 0, 0, 0, 0, 3, 0, 0, 5, 0, 0, 4}));
}

}  // namespace
}  // namespace tessera
