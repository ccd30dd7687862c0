// read_csv: files cut into byte ranges of any length (rows split anywhere) read back the same
// values under every configuration; the last line may lack its line end, lines may end in
// CRLF; a range that disagrees with the first block's types widens the column (integers with
// a missing value become float64 with NaN, text goes to the caller); quoted line ends and gzip
// files are read whole; bad input raises the errors pandas users know.
#include <arrow/api.h>
#include <arrow/io/compressed.h>
#include <arrow/io/file.h>
#include <arrow/util/compression.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "../task/task_fixture.h"
#include "dataframe/csv.h"

namespace tessera {
namespace {

class CsvTest : public testing::ConfiguredTest {
 protected:
  std::string path(const std::string& tag) const {
    return (std::filesystem::temp_directory_path() /
            ("tessera_csv_test_" + std::to_string(::getpid()) + "_" + tag + ".csv"))
        .string();
  }
  std::string write(const std::string& tag, const std::string& text) const {
    const std::string p = path(tag);
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  static const frame::Column& column(const frame::Table& t, const std::string& name) {
    for (const frame::Column& c : t.columns)
      if (c.name == name) return c;
    throw std::runtime_error("no column " + name);
  }
};

// Columns i (int64), f (double), b (bool), s (text): `rows` rows, lines ended by `eol`.
std::string numbers(int64_t rows, const std::string& eol, bool last_eol) {
  std::string s = "i,f,b,s" + eol;
  for (int64_t r = 0; r < rows; ++r) {
    s += std::to_string(r * 37 - 500) + "," + std::to_string(r) + ".25," + (r % 3 ? "False" : "True") + ",x" +
         std::to_string(r % 5);
    if (r + 1 < rows || last_eol) s += eol;
  }
  return s;
}

void expect_numbers(const frame::Table& t, int64_t rows) {
  ASSERT_EQ(t.rows, rows);
  ASSERT_EQ(t.columns.size(), 4u);
  const auto i = t.columns[0].values.to_vector<int64_t>();
  const auto f = t.columns[1].values.to_vector<double>();
  std::vector<uint8_t> b(static_cast<size_t>(rows));
  t.columns[2].values.copy_to(b.data());
  for (int64_t r = 0; r < rows; ++r) {
    ASSERT_EQ(i[static_cast<size_t>(r)], r * 37 - 500) << r;
    ASSERT_EQ(f[static_cast<size_t>(r)], static_cast<double>(r) + 0.25) << r;
    ASSERT_EQ(b[static_cast<size_t>(r)], r % 3 == 0) << r;
  }
  EXPECT_FALSE(t.columns[3].values.valid());  // text: the caller's
}

TEST_P(CsvTest, RangesSplittingRowsAnywhereGiveTheFile) {
  for (const std::string eol : {"\n", "\r\n"})
    for (bool last_eol : {true, false}) {
      const std::string p = write("ranges", numbers(997, eol, last_eol));
      for (int64_t range : {1, 7, 64, 333, 4096, 0}) {
        frame::CsvOptions o;
        o.range_bytes = range;
        expect_numbers(frame::read_csv(p, o), 997);
      }
      std::filesystem::remove(p);
    }
}

TEST_P(CsvTest, OptionsSelectAndShapeTheColumns) {
  const std::string p = write("options", "skip me\nx;y;z\n1;2;3\n4;NA;6\n7;8;-\n");
  frame::CsvOptions o;
  o.delimiter = ';';
  o.skiprows = 1;
  o.usecols = {"z", "x"};
  o.na_values = {"-"};
  o.range_bytes = 4;
  frame::Table t = frame::read_csv(p, o);
  ASSERT_EQ(t.rows, 3);
  ASSERT_EQ(t.columns.size(), 2u);  // file order
  EXPECT_EQ(t.columns[0].name, "x");
  EXPECT_EQ(t.columns[0].values.to_vector<int64_t>(), (std::vector<int64_t>{1, 4, 7}));
  const auto z = t.columns[1].values.to_vector<double>();
  EXPECT_EQ(z[0], 3);
  EXPECT_TRUE(std::isnan(z[2]));
  o.usecols = {};
  o.nrows = 1;
  o.dtypes = {{"y", DType::Float32}};
  t = frame::read_csv(p, o);
  ASSERT_EQ(t.rows, 1);
  EXPECT_EQ(column(t, "y").values.dtype(), DType::Float32);
  EXPECT_EQ(column(t, "z").values.to_vector<int64_t>(), (std::vector<int64_t>{3}));
  o = {};
  o.header = false;
  o.skiprows = 2;
  o.range_bytes = 5;
  t = frame::read_csv(write("noheader", "a,b\nc,d\n1,2\n3,4\n"), o);
  EXPECT_EQ(t.columns[1].name, "1");
  EXPECT_EQ(t.columns[1].values.to_vector<int64_t>(), (std::vector<int64_t>{2, 4}));
  std::filesystem::remove(p);
  std::filesystem::remove(path("noheader"));
}

TEST_P(CsvTest, LaterRangesWidenTheColumns) {
  // The first block (1 MiB) holds only integers; the last rows hold a missing value, a float
  // and text.
  std::string s = "a,b,c,d\n";
  const int64_t rows = 120000;
  for (int64_t r = 0; r < rows; ++r)
    s += std::to_string(r) + "," + std::to_string(r) + "," + std::to_string(r) + ",1\n";
  s += "1,,2.5,word\n";
  const std::string p = write("widen", s);
  frame::CsvOptions o;
  o.range_bytes = 1 << 18;
  frame::Table t = frame::read_csv(p, o);
  ASSERT_EQ(t.rows, rows + 1);
  EXPECT_EQ(column(t, "a").values.dtype(), DType::Int64);
  const auto b = column(t, "b").values.to_vector<double>();  // an integer column with a missing value
  EXPECT_EQ(b[77], 77.0);
  EXPECT_TRUE(std::isnan(b.back()));
  const auto c = column(t, "c").values.to_vector<double>();
  EXPECT_EQ(c.back(), 2.5);
  EXPECT_EQ(c[5], 5.0);
  EXPECT_FALSE(column(t, "d").values.valid());
  EXPECT_EQ(column(t, "d").arrow_type, "string");
  std::filesystem::remove(p);
}

TEST_P(CsvTest, EmptyFilesQuotedLineEndsAndGzip) {
  frame::Table t = frame::read_csv(write("empty", "a,b\n"));
  EXPECT_EQ(t.rows, 0);
  ASSERT_EQ(t.columns.size(), 2u);
  EXPECT_EQ(t.columns[1].name, "b");

  // A quoted field with line ends: the file is read whole, whatever the ranges.
  std::string q = "n,s\n";
  for (int r = 0; r < 50; ++r) q += std::to_string(r) + ",\"two\nlines " + std::to_string(r) + "\"\n";
  const std::string p = write("quoted", q);
  frame::CsvOptions o;
  o.range_bytes = 10;
  t = frame::read_csv(p, o);
  ASSERT_EQ(t.rows, 50);
  const auto n = t.columns[0].values.to_vector<int64_t>();
  for (int r = 0; r < 50; ++r) EXPECT_EQ(n[static_cast<size_t>(r)], r);

  // gzip: one point.
  const std::string gz = path("gzip") + ".gz";
  {
    auto file = arrow::io::FileOutputStream::Open(gz).ValueOrDie();
    auto codec = arrow::util::Codec::Create(arrow::Compression::GZIP).ValueOrDie();
    auto out = arrow::io::CompressedOutputStream::Make(codec.get(), file).ValueOrDie();
    const std::string text = numbers(2000, "\n", false);
    ASSERT_TRUE(out->Write(text.data(), static_cast<int64_t>(text.size())).ok());
    ASSERT_TRUE(out->Close().ok());
  }
  o.gzip = true;
  expect_numbers(frame::read_csv(gz, o), 2000);
  std::filesystem::remove(gz);
  std::filesystem::remove(p);
  std::filesystem::remove(path("empty"));
}

TEST_P(CsvTest, BadInput) {
  EXPECT_THROW(frame::read_csv("/nonexistent/file.csv"), FileNotFoundError);
  const std::string p = write("bad", "a,b\n1,2\n");
  frame::CsvOptions o;
  o.usecols = {"a", "nope"};
  try {
    frame::read_csv(p, o);
    FAIL() << "no error";
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "Usecols do not match columns, columns expected but not found: ['nope']");
  }
  // Rows of other lengths: pandas reads them otherwise.
  EXPECT_THROW(frame::read_csv(write("ragged", "a,b\n1,2\n3\n")), NotImplementedError);
  std::filesystem::remove(p);
  std::filesystem::remove(path("ragged"));
}

INSTANTIATE_TEST_SUITE_P(Configs, CsvTest, ::testing::ValuesIn(testing::kTaskConfigs));

}  // namespace
}  // namespace tessera
