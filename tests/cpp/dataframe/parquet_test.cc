// read_parquet: a file written by Arrow with several row groups (one task point each) reads
// back the same values under every configuration; nulls follow pandas (an integer column with
// nulls is float64 with NaN, and a validity array says which rows hold values); bad input
// raises the errors pandas users know.
#include <arrow/api.h>
#include <arrow/io/file.h>
#include <gtest/gtest.h>
#include <parquet/arrow/writer.h>

#include <cmath>
#include <filesystem>

#include <unistd.h>

#include "../task/task_fixture.h"
#include "dataframe/parquet.h"

namespace tessera {
namespace {

// A bool array's values (std::vector<bool> has no contiguous storage to copy into).
std::vector<uint8_t> bools(const ndarray& a) {
  std::vector<uint8_t> v(static_cast<size_t>(a.size()));
  a.copy_to(v.data());
  return v;
}

class ParquetTest : public testing::ConfiguredTest {
 protected:
  // Columns i (int64, every 7th null), f (double), b (bool), in row groups of 1,000 rows.
  static std::string write_file(int64_t rows) {
    arrow::Int64Builder i;
    arrow::DoubleBuilder f;
    arrow::BooleanBuilder b;
    for (int64_t r = 0; r < rows; ++r) {
      if (r % 7 == 3) (void)i.AppendNull();
      else (void)i.Append(r * 3 - 100);
      (void)f.Append(0.25 * static_cast<double>(r));
      (void)b.Append(r % 3 == 0);
    }
    std::shared_ptr<arrow::Array> ia, fa, ba;
    (void)i.Finish(&ia);
    (void)f.Finish(&fa);
    (void)b.Finish(&ba);
    auto schema = arrow::schema(
        {arrow::field("i", arrow::int64()), arrow::field("f", arrow::float64()), arrow::field("b", arrow::boolean())});
    auto table = arrow::Table::Make(schema, {ia, fa, ba});
    const std::string path =
        (std::filesystem::temp_directory_path() / ("tessera_parquet_test_" + std::to_string(::getpid()) + ".parquet"))
            .string();
    auto out = arrow::io::FileOutputStream::Open(path).ValueOrDie();
    EXPECT_TRUE(parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), out, 1000).ok());
    EXPECT_TRUE(out->Close().ok());
    return path;
  }
};

TEST_P(ParquetTest, RowGroupsReadInParallelGiveTheFile) {
  const int64_t rows = 4321;
  const std::string path = write_file(rows);
  const frame::Table t = frame::read_parquet(path);
  ASSERT_EQ(t.rows, rows);
  ASSERT_EQ(t.columns.size(), 3u);
  EXPECT_EQ(t.columns[0].values.dtype(), DType::Float64);  // int64 with nulls: pandas' float64
  EXPECT_EQ(t.columns[1].values.dtype(), DType::Float64);
  EXPECT_EQ(t.columns[2].values.dtype(), DType::Bool);
  EXPECT_FALSE(t.columns[1].validity.valid());
  ASSERT_TRUE(t.columns[0].validity.valid());
  const auto i = t.columns[0].values.to_vector<double>();
  const auto valid = bools(t.columns[0].validity);
  const auto f = t.columns[1].values.to_vector<double>();
  const auto b = bools(t.columns[2].values);
  for (int64_t r = 0; r < rows; ++r) {
    const size_t k = static_cast<size_t>(r);
    if (r % 7 == 3) {
      ASSERT_TRUE(std::isnan(i[k])) << r;
      ASSERT_FALSE(valid[k]) << r;
    } else {
      ASSERT_EQ(i[k], static_cast<double>(r * 3 - 100)) << r;
      ASSERT_TRUE(valid[k]) << r;
    }
    ASSERT_EQ(f[k], 0.25 * static_cast<double>(r)) << r;
    ASSERT_EQ(b[k] != 0, r % 3 == 0) << r;
  }
  const frame::Table some = frame::read_parquet(path, {"b", "f"});
  ASSERT_EQ(some.columns.size(), 2u);
  EXPECT_EQ(some.columns[0].name, "b");
  EXPECT_EQ(some.columns[1].values.to_vector<double>(), f);
  std::filesystem::remove(path);
}

TEST_P(ParquetTest, BadInput) {
  EXPECT_THROW(frame::read_parquet("/nonexistent/file.parquet"), FileNotFoundError);
  const std::string path = write_file(10);
  EXPECT_THROW(frame::read_parquet(path, {"nope"}), ValueError);
  std::filesystem::remove(path);
}

INSTANTIATE_TEST_SUITE_P(Configs, ParquetTest, ::testing::ValuesIn(testing::kTaskConfigs));

}  // namespace
}  // namespace tessera
