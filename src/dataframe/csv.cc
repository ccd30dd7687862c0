// read_csv: the calling thread reads the header and a first block of rows, which fix each
// column's type as pandas' C parser would (Arrow's inference, restricted to pandas' missing
// and boolean spellings), then cuts the file into byte ranges of a fixed length, each moved
// to the end of the line it starts in. One launch of "dataframe.read_csv" has a point per
// range: a point reads its bytes and parses them with Arrow's single-threaded reader, the
// column types fixed, and binds each column's values as an unbound output (joined in point
// order, which is the file's order) plus a report: its row count and, per column, what it
// found (integers, floats, booleans, other text, missing values).
//
// The first block can mislead: a later range may hold a float in an integer column, a
// missing value (pandas then gives float64 with NaN), or text. Such a point parses its range
// again with Arrow's inference over the whole range and reports what it found; the calling
// thread widens those columns' types (text goes to the caller) and launches again, so the
// result is what a reading of the whole file would give.
//
// Quoted fields holding line ends defeat cutting at line ends: when the first block has one,
// or a point meets one or cannot parse its range, the file is read again by one point that
// parses it whole (correct first). A gzip file cannot be cut: one point reads it.
#include "dataframe/csv.h"

#include <arrow/api.h>
#include <arrow/csv/api.h>
#include <arrow/io/compressed.h>
#include <arrow/io/file.h>
#include <arrow/io/memory.h>
#include <arrow/util/compression.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <type_traits>

#include "tessera/errors.h"
#include "tessera/task.h"

namespace tessera::frame {
namespace {

// What a point found in a column (bits of its report).
enum Found : int64_t { kNulls = 1, kInt = 2, kFloat = 4, kBool = 8, kOther = 16 };

// How the launch reads a column: the Arrow type it parses and the dtype it writes.
enum class Kind { Int, Float, Bool };

struct ColumnPlan {
  std::string name;
  Kind kind = Kind::Float;
  DType dtype = DType::Float64;
  bool forced = false;  // the dtype was asked for (dtype=)
};

struct CsvPlan {
  std::string path;
  bool gzip = false;
  bool newlines_in_values = false;
  char delimiter = ',';
  std::vector<std::string> file_names;  // every column of the file, in order
  std::vector<std::string> null_values;
  std::vector<ColumnPlan> columns;  // the columns the launch writes
  std::vector<int64_t> starts;      // byte offsets: each range's start, and the end last (-1: the end)
};

// pandas' default missing-value strings (pandas._libs.parsers.STR_NA_VALUES).
const std::vector<std::string> kPandasNulls = {"",     "#N/A",   "#N/A N/A", "#NA",  "-1.#IND", "-1.#QNAN", "-NaN",
                                               "-nan", "1.#IND", "1.#QNAN",  "<NA>", "N/A",     "NA",       "NULL",
                                               "NaN",  "None",   "n/a",      "nan",  "null"};

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
  throw NotImplementedError("read_csv: Arrow's CSV reader does not read '" + path + "' as pandas does (" + why + ")");
}

std::shared_ptr<arrow::io::InputStream> open_stream(const std::string& path, bool gzip) {
  auto file = arrow::io::ReadableFile::Open(path);
  if (!file.ok()) throw ValueError(file.status().ToString());
  if (!gzip) return *file;
  auto codec = arrow::util::Codec::Create(arrow::Compression::GZIP);
  if (!codec.ok()) throw NotImplementedError("read_csv: " + codec.status().ToString());
  auto stream = arrow::io::CompressedInputStream::Make(codec->get(), *file);
  if (!stream.ok()) throw ValueError(stream.status().ToString());
  return *stream;
}

// The file's text (decompressed for gzip) from its start, read on demand.
class Text {
 public:
  Text(std::string path, bool gzip) : stream_(open_stream(path, gzip)) {}
  // The first n bytes (fewer at the end of the file).
  const std::string& prefix(int64_t n) {
    while (!done_ && static_cast<int64_t>(bytes_.size()) < n) {
      const int64_t want = std::clamp<int64_t>(n - static_cast<int64_t>(bytes_.size()), 1 << 20, 16 << 20);
      auto buf = stream_->Read(want);
      if (!buf.ok()) throw ValueError(buf.status().ToString());
      if ((*buf)->size() == 0) done_ = true;
      bytes_.append(reinterpret_cast<const char*>((*buf)->data()), static_cast<size_t>((*buf)->size()));
    }
    return bytes_;
  }
  bool whole() const { return done_; }

 private:
  std::shared_ptr<arrow::io::InputStream> stream_;
  std::string bytes_;
  bool done_ = false;
};

// The offset after `lines` line ends from `at` (quotes respected; with `skip_blank`, empty
// lines do not count), growing the prefix as needed; the end of the file if it comes first.
// `quoted_newline` is set when a line end inside quotes is passed.
int64_t after_lines(Text& text, int64_t at, int64_t lines, bool skip_blank, bool& quoted_newline) {
  bool quoted = false, empty = true;
  int64_t i = at;
  for (int64_t want = at + (1 << 16); lines > 0; want *= 2) {
    const std::string& s = text.prefix(want);
    const int64_t n = static_cast<int64_t>(s.size());
    for (; i < n && lines > 0; ++i) {
      const char c = s[static_cast<size_t>(i)];
      if (c == '"') quoted = !quoted;
      if (c == '\n') {
        if (quoted) {
          quoted_newline = true;
        } else {
          if (!(skip_blank && empty)) --lines;
          empty = true;
          continue;
        }
      }
      if (c != '\r' && c != '\n') empty = false;
    }
    if (i >= n && text.whole()) break;
  }
  return i;
}

// The offset after the last line end in s[from, limit) outside quotes (`from` when none).
int64_t last_line_end(const std::string& s, int64_t from, int64_t limit, bool& quoted_newline) {
  bool quoted = false;
  int64_t end = from;
  for (int64_t i = from; i < limit; ++i) {
    const char c = s[static_cast<size_t>(i)];
    if (c == '"') quoted = !quoted;
    else if (c == '\n') {
      if (quoted) quoted_newline = true;
      else end = i + 1;
    }
  }
  return end;
}

// The offset after the first '\n' at or after `at` in the plain file `f` (its size if none).
int64_t next_line(std::ifstream& f, int64_t at, int64_t size) {
  std::string buf(1 << 16, '\0');
  while (at < size) {
    f.clear();
    f.seekg(at);
    f.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const int64_t got = f.gcount();
    if (got <= 0) break;
    if (const void* nl = std::memchr(buf.data(), '\n', static_cast<size_t>(got)))
      return at + (static_cast<const char*>(nl) - buf.data()) + 1;
    at += got;
  }
  return size;
}

arrow::csv::ConvertOptions convert_options(const CsvPlan& plan, bool fixed) {
  arrow::csv::ConvertOptions c = arrow::csv::ConvertOptions::Defaults();
  c.null_values = plan.null_values;
  c.true_values = {"True", "TRUE", "true"};  // pandas' spellings (not 1 and 0)
  c.false_values = {"False", "FALSE", "false"};
  c.strings_can_be_null = true;
  for (const ColumnPlan& col : plan.columns) {
    c.include_columns.push_back(col.name);
    if (!fixed) continue;
    c.column_types[col.name] = col.kind == Kind::Int    ? arrow::int64()
                               : col.kind == Kind::Bool ? arrow::boolean()
                                                        : arrow::float64();
  }
  return c;
}

// Parses `bytes` (whole rows, no header) as the plan's columns; fixed types or Arrow's
// inference over all of `bytes` (one block).
arrow::Result<std::shared_ptr<arrow::Table>> parse(const CsvPlan& plan, std::shared_ptr<arrow::Buffer> bytes,
                                                   bool fixed) {
  arrow::csv::ReadOptions r = arrow::csv::ReadOptions::Defaults();
  r.use_threads = false;  // one point per worker already
  r.column_names = plan.file_names;
  r.block_size = static_cast<int32_t>(std::clamp<int64_t>(bytes->size() + 1, 1 << 20, 1 << 30));
  arrow::csv::ParseOptions p = arrow::csv::ParseOptions::Defaults();
  p.delimiter = plan.delimiter;
  p.newlines_in_values = plan.newlines_in_values;
  auto input = std::make_shared<arrow::io::BufferReader>(std::move(bytes));
  ARROW_ASSIGN_OR_RAISE(auto reader, arrow::csv::TableReader::Make(arrow::io::default_io_context(), input, r, p,
                                                                   convert_options(plan, fixed)));
  return reader->Read();
}

int64_t found(const arrow::ChunkedArray& a) {
  int64_t f = a.null_count() > 0 ? int64_t{kNulls} : int64_t{0};
  switch (a.type()->id()) {
    case arrow::Type::NA: break;
    case arrow::Type::BOOL: f |= kBool; break;
    case arrow::Type::HALF_FLOAT:
    case arrow::Type::FLOAT:
    case arrow::Type::DOUBLE: f |= kFloat; break;
    default: f |= arrow::is_integer(a.type()->id()) ? kInt : kOther;
  }
  return f;
}

// Writes `a`'s values into `out` (of `dtype`): missing values as NaN (the dtype is floating
// then; an integer or boolean column with missing values is not written: it is launched again).
void copy_column(const arrow::ChunkedArray& a, DType dtype, char* out) {
  int64_t at = 0;
  for (const std::shared_ptr<arrow::Array>& chunk : a.chunks()) {
    const int64_t n = chunk->length();
    visit_dtype(dtype, [&](auto zero) {
      using T = decltype(zero);
      if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, _Float16>) {
        T* dst = reinterpret_cast<T*>(out) + at;
        switch (chunk->type_id()) {
          case arrow::Type::INT64: {
            const int64_t* src = static_cast<const arrow::Int64Array&>(*chunk).raw_values();
            if constexpr (std::is_same_v<T, int64_t>) std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(T));
            else
              for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<T>(src[i]);
            break;
          }
          case arrow::Type::DOUBLE: {
            const double* src = static_cast<const arrow::DoubleArray&>(*chunk).raw_values();
            if constexpr (std::is_same_v<T, double>) std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(T));
            else
              for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<T>(src[i]);
            break;
          }
          case arrow::Type::BOOL: {
            const auto& b = static_cast<const arrow::BooleanArray&>(*chunk);
            for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<T>(b.Value(i));
            break;
          }
          default: break;  // all missing: NaN below
        }
        if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, _Float16>) {
          if (chunk->null_count() > 0)
            for (int64_t i = 0; i < n; ++i)
              if (chunk->IsNull(i)) dst[i] = static_cast<T>(std::numeric_limits<float>::quiet_NaN());
        }
      }
    });
    at += n;
  }
}

std::shared_ptr<arrow::Buffer> range_bytes(const CsvPlan& plan, int r) {
  const int64_t lo = plan.starts[static_cast<size_t>(r)], hi = plan.starts[static_cast<size_t>(r) + 1];
  if (plan.gzip) {  // one point: the decompressed file from the first row
    Text text(plan.path, true);
    std::string s = text.prefix(std::numeric_limits<int64_t>::max());
    s.erase(0, static_cast<size_t>(std::min<int64_t>(lo, static_cast<int64_t>(s.size()))));
    return arrow::Buffer::FromString(std::move(s));
  }
  auto file = arrow::io::ReadableFile::Open(plan.path);
  if (!file.ok()) throw ValueError(file.status().ToString());
  auto buf = (*file)->ReadAt(lo, hi - lo);
  if (!buf.ok()) throw ValueError(buf.status().ToString());
  return *buf;
}

// A quote-aware look for a line end inside quotes (a range that starts outside quotes).
bool has_quoted_newline(const arrow::Buffer& b) {
  const char* s = reinterpret_cast<const char*>(b.data());
  const size_t n = static_cast<size_t>(b.size());
  if (!std::memchr(s, '"', n)) return false;
  bool quoted = false;
  for (size_t i = 0; i < n; ++i) {
    if (s[i] == '"') quoted = !quoted;
    else if (s[i] == '\n' && quoted) return true;
  }
  return false;
}

// Whether `b` holds a number that Arrow and pandas read differently: a leading '+' on an
// integer (Arrow: a float; pandas: an integer) or hexadecimal "0x" (Arrow: an integer; pandas:
// text). Fields that start that way are rare; the file then goes to pandas.
bool has_other_numbers(const arrow::Buffer& b, char delimiter) {
  const char* s = reinterpret_cast<const char*>(b.data());
  const size_t n = static_cast<size_t>(b.size());
  auto field_start = [&](size_t i) {
    return i == 0 || s[i - 1] == delimiter || s[i - 1] == '\n' || s[i - 1] == '"' || s[i - 1] == ' ' ||
           (s[i - 1] == '-' && (i == 1 || s[i - 2] == delimiter || s[i - 2] == '\n'));
  };
  for (const char* p = s; (p = static_cast<const char*>(std::memchr(p, '+', n - static_cast<size_t>(p - s)))); ++p) {
    const size_t i = static_cast<size_t>(p - s);
    if (i + 1 < n && (std::isdigit(static_cast<unsigned char>(s[i + 1])) || s[i + 1] == '.') && field_start(i))
      return true;
  }
  for (const char x : {'x', 'X'})
    for (const char* p = s; (p = static_cast<const char*>(std::memchr(p, x, n - static_cast<size_t>(p - s)))); ++p) {
      const size_t i = static_cast<size_t>(p - s);
      if (i >= 1 && s[i - 1] == '0' && field_start(i - 1)) return true;
    }
  return false;
}

// Whether a float column holds an integer beyond int64 (pandas: uint64 or Python ints).
bool has_huge_integers(const arrow::ChunkedArray& a) {
  for (const std::shared_ptr<arrow::Array>& chunk : a.chunks()) {
    if (chunk->type_id() != arrow::Type::DOUBLE) continue;
    const double* v = static_cast<const arrow::DoubleArray&>(*chunk).raw_values();
    for (int64_t i = 0; i < chunk->length(); ++i)
      if (std::fabs(v[i]) >= 9.2e18 && std::isfinite(v[i]) && chunk->IsValid(i)) return true;
  }
  return false;
}

// One point: report [status (0 written, 1 types to widen, 2 cannot parse, 3 numbers pandas
// reads otherwise), rows, found per column].
void read_range(TaskContext& ctx) {
  const CsvPlan& plan = ctx.payload<CsvPlan>();
  const size_t ncols = plan.columns.size();
  const size_t report_arg = 1 + ncols;
  std::vector<int64_t> report(2 + ncols, 0);
  auto finish = [&] {
    std::memcpy(ctx.bind_output(report_arg, static_cast<int64_t>(report.size())), report.data(),
                report.size() * sizeof(int64_t));
  };
  std::shared_ptr<arrow::Buffer> bytes = range_bytes(plan, ctx.point());
  if (bytes->size() == 0) return finish();
  if (!plan.newlines_in_values && has_quoted_newline(*bytes)) {
    report[0] = 2;
    return finish();
  }
  if (has_other_numbers(*bytes, plan.delimiter)) {
    report[0] = 3;
    return finish();
  }
  auto table = parse(plan, bytes, true);
  if (!table.ok()) {
    auto inferred = parse(plan, bytes, false);
    report[0] = inferred.ok() ? 1 : 2;
    if (inferred.ok()) {
      report[1] = (*inferred)->num_rows();
      for (size_t k = 0; k < ncols; ++k) report[2 + k] = found(*(*inferred)->column(static_cast<int>(k)));
    }
    return finish();
  }
  const int64_t rows = (*table)->num_rows();
  report[1] = rows;
  for (size_t k = 0; k < ncols; ++k) {
    const arrow::ChunkedArray& a = *(*table)->column(static_cast<int>(k));
    report[2 + k] = found(a);
    const ColumnPlan& c = plan.columns[k];
    if (c.kind == Kind::Float && !c.forced && has_huge_integers(a)) report[0] = 3;
    copy_column(a, c.dtype, static_cast<char*>(ctx.bind_output(1 + k, rows)));
  }
  finish();
}

// The column's kind after a launch found `f` in it; false when it goes to the caller.
bool widen(ColumnPlan& c, int64_t f, const std::string& path) {
  if (c.forced) {
    const bool fits = c.kind == Kind::Int    ? (f & ~kInt) == 0
                      : c.kind == Kind::Bool ? (f & ~kBool) == 0
                                             : (f & (kOther | kBool)) == 0;
    if (!fits) refuse(path, "column '" + c.name + "' does not hold only values of its dtype " + dtype_name(c.dtype));
    return true;
  }
  if (f & kOther) return false;
  if (f & kBool) {
    if (f & (kNulls | kInt | kFloat)) return false;  // pandas: an object column
    c.kind = Kind::Bool, c.dtype = DType::Bool;
  } else if ((f & kInt) && !(f & (kFloat | kNulls))) {
    c.kind = Kind::Int, c.dtype = DType::Int64;
  } else {
    c.kind = Kind::Float, c.dtype = DType::Float64;
  }
  return true;
}

std::string python_list(const std::vector<std::string>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", '" : "'") + v[i] + "'";
  return s + "]";
}

}  // namespace

Table read_csv(const std::string& path, const CsvOptions& options) {
  register_dataframe_library();
  static const Task task("dataframe.read_csv", read_range);
  if (!std::filesystem::exists(path)) throw FileNotFoundError("[Errno 2] No such file or directory: '" + path + "'");
  if (options.gzip && options.nrows >= 0) refuse(path, "nrows= of a gzip file");
  CsvPlan plan;
  plan.path = path;
  plan.gzip = options.gzip;
  plan.delimiter = options.delimiter;
  plan.null_values = kPandasNulls;
  plan.null_values.insert(plan.null_values.end(), options.na_values.begin(), options.na_values.end());

  // The header, the first row and the first block, from the start of the text.
  Text text(path, options.gzip);
  bool quoted_newline = false;
  const int64_t header_start = after_lines(text, 0, options.skiprows, false, quoted_newline);
  const int64_t data_start = options.header ? after_lines(text, header_start, 1, true, quoted_newline) : header_start;
  int64_t data_end = -1;  // the end of the file
  if (options.nrows >= 0) data_end = after_lines(text, data_start, options.nrows, true, quoted_newline);
  // The first block: whole lines of about 1 MiB (one line at least), or the whole text.
  const int64_t block = 1 << 20;
  int64_t block_end;
  {
    const std::string& s = text.prefix(data_start + block + 1);
    if (text.whole() && static_cast<int64_t>(s.size()) <= data_start + block) {
      block_end = static_cast<int64_t>(s.size());
      after_lines(text, data_start, std::numeric_limits<int64_t>::max(), false, quoted_newline);
    } else {
      block_end = last_line_end(s, data_start, data_start + block, quoted_newline);
      if (block_end == data_start) block_end = after_lines(text, data_start, 1, false, quoted_newline);
    }
    if (data_end >= 0) block_end = std::min(block_end, data_end);
  }
  plan.newlines_in_values = quoted_newline;

  // Names and first types: Arrow's inference over the header and the first block.
  std::shared_ptr<arrow::Table> first;
  {
    const std::string& s = text.prefix(block_end);
    std::string head = s.substr(static_cast<size_t>(header_start), static_cast<size_t>(block_end - header_start));
    arrow::csv::ReadOptions r = arrow::csv::ReadOptions::Defaults();
    r.use_threads = false;
    r.block_size = static_cast<int32_t>(std::max<int64_t>(static_cast<int64_t>(head.size()) + 1, 1 << 20));
    if (!options.names.empty()) {
      r.column_names = options.names;
      r.skip_rows = options.header ? 1 : 0;
    } else if (!options.header) {
      r.autogenerate_column_names = true;
    }
    arrow::csv::ParseOptions p = arrow::csv::ParseOptions::Defaults();
    p.delimiter = options.delimiter;
    p.newlines_in_values = quoted_newline;
    CsvPlan all = plan;  // every column, no types fixed
    arrow::csv::ConvertOptions c = convert_options(all, false);
    auto reader = arrow::csv::TableReader::Make(
        arrow::io::default_io_context(),
        std::make_shared<arrow::io::BufferReader>(arrow::Buffer::FromString(std::move(head))), r, p, c);
    if (!reader.ok()) refuse(path, reader.status().ToString());
    auto t = (*reader)->Read();
    if (!t.ok()) refuse(path, t.status().ToString());
    first = *t;
  }
  plan.file_names = first->schema()->field_names();
  if (!options.header && options.names.empty())
    for (size_t i = 0; i < plan.file_names.size(); ++i) plan.file_names[i] = std::to_string(i);
  if (options.header && options.names.empty())
    for (size_t i = 0; i < plan.file_names.size(); ++i)
      if (plan.file_names[i].empty()) plan.file_names[i] = "Unnamed: " + std::to_string(i);  // pandas' name
  if (std::set<std::string>(plan.file_names.begin(), plan.file_names.end()).size() != plan.file_names.size())
    refuse(path, "repeated column names");
  std::vector<std::string> missing;
  for (const std::string& u : options.usecols)
    if (std::find(plan.file_names.begin(), plan.file_names.end(), u) == plan.file_names.end()) missing.push_back(u);
  if (!missing.empty())
    throw ValueError("Usecols do not match columns, columns expected but not found: " + python_list(missing));

  Table result;
  std::vector<size_t> native;  // result column of each plan column
  for (size_t f = 0; f < plan.file_names.size(); ++f) {
    const std::string& name = plan.file_names[f];
    if (!options.usecols.empty() &&
        std::find(options.usecols.begin(), options.usecols.end(), name) == options.usecols.end())
      continue;
    Column col;
    col.name = name;
    col.arrow_type = first->column(static_cast<int>(f))->type()->ToString();
    const bool host = std::find(options.host.begin(), options.host.end(), name) != options.host.end();
    ColumnPlan c;
    c.name = name;
    auto d = options.dtypes.find(name);
    if (d == options.dtypes.end()) d = options.dtypes.find("");
    if (d != options.dtypes.end() && !host) {
      c.forced = true;
      c.dtype = d->second;
      c.kind = c.dtype == DType::Bool ? Kind::Bool : dtype_kind(c.dtype) == DKind::Float ? Kind::Float : Kind::Int;
      if (c.dtype == DType::Float16 || (dtype_kind(c.dtype) != DKind::Float && dtype_kind(c.dtype) != DKind::Int &&
                                        dtype_kind(c.dtype) != DKind::UInt && c.dtype != DType::Bool))
        refuse(path, std::string("dtype ") + dtype_name(c.dtype));
    }
    if (!host && (c.forced || widen(c, found(*first->column(static_cast<int>(f))), path))) {
      native.push_back(result.columns.size());
      plan.columns.push_back(c);
    }
    result.columns.push_back(std::move(col));
  }
  result.rows = -1;
  if (plan.columns.empty()) return result;

  // Byte ranges: a fixed length each (one, for a gzip file or quoted line ends), each
  // starting after the first line end at or after its offset.
  const int64_t range = options.range_bytes > 0 ? options.range_bytes : int64_t{32} << 20;
  plan.starts = {data_start};
  const int64_t size =
      plan.gzip ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(std::filesystem::file_size(path));
  const int64_t end = data_end >= 0 ? data_end : size;
  if (!plan.gzip && !plan.newlines_in_values) {
    std::ifstream f(path, std::ios::binary);
    for (int64_t at = data_start + range; at < end; at += range) {
      const int64_t b = std::min(next_line(f, at - 1, size), end);  // at - 1: a line ending just before `at`
      if (b > plan.starts.back() && b < end) plan.starts.push_back(b);
    }
    plan.starts.push_back(end);
  } else {
    plan.starts.push_back(end);
  }

  for (int attempt = 0;; ++attempt) {
    if (attempt == 4) refuse(path, "the column types did not settle");
    const size_t ranges = plan.starts.size() - 1;
    std::vector<Argument> args{space({static_cast<int64_t>(ranges)})};
    for (const ColumnPlan& c : plan.columns) args.push_back(unbound(c.dtype));
    args.push_back(unbound(DType::Int64));
    LaunchOptions launch_options;
    launch_options.name = "read_csv";
    for (size_t r = 0; r < ranges; ++r) {
      launch_options.points.emplace_back(args.size(), Rect());
      launch_options.points.back()[0] = Rect({static_cast<int64_t>(r)}, {static_cast<int64_t>(r) + 1});
    }
    auto shared = std::make_shared<const CsvPlan>(plan);
    launch_options.payload = Payload(shared);
    std::vector<ndarray> outs = launch(task, std::move(args), {}, {}, std::move(launch_options));
    const size_t ncols = plan.columns.size();
    std::vector<int64_t> report = outs.back().to_vector<int64_t>();
    int status = 0;
    int64_t rows = 0;
    std::vector<int64_t> seen(ncols, 0);
    for (size_t r = 0; r < ranges; ++r) {
      const int64_t* p = report.data() + r * (2 + ncols);
      status = std::max(status, static_cast<int>(p[0]));
      rows += p[1];
      for (size_t k = 0; k < ncols; ++k) seen[k] |= p[2 + k];
    }
    if (status == 3) refuse(path, "numbers it reads otherwise: a leading '+', hexadecimal, beyond int64");
    if (status == 2) {
      if (ranges == 1 && plan.newlines_in_values) refuse(path, "Arrow cannot parse it");
      // Quoted line ends (or rows Arrow refuses): the whole file on one point, which parses
      // line ends inside quotes.
      plan.newlines_in_values = true;
      plan.starts = {plan.starts.front(), plan.starts.back()};
      continue;
    }
    std::vector<ColumnPlan> widened;
    std::vector<size_t> kept;
    bool changed = false;
    for (size_t k = 0; k < ncols; ++k) {
      ColumnPlan c = plan.columns[k];
      if (rows > 0 && !widen(c, seen[k], path)) {
        changed = true;
        result.columns[native[k]].arrow_type = "string";
        continue;
      }
      changed |= c.kind != plan.columns[k].kind;
      widened.push_back(c);
      kept.push_back(native[k]);
    }
    if (status == 0 && !changed) {
      result.rows = rows;
      for (size_t k = 0; k < ncols; ++k) result.columns[native[k]].values = outs[k];
      return result;
    }
    plan.columns = std::move(widened);
    native = std::move(kept);
    if (plan.columns.empty()) return result;
  }
}

}  // namespace tessera::frame
