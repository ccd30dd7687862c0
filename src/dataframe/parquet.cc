// read_parquet: the file's metadata is read once, on the calling thread (row counts, the
// schema, null counts from the column statistics, which decide each column's dtype as pandas
// would); then one launch of the registered task "dataframe.read_parquet" with a point per
// row group, each naming the rows [start, end) of every column as its boxes. A point opens
// the file itself and reads its row group with Arrow's single-threaded reader (the runtime
// already runs one point per worker), copying every chunk into its rows.
#include "dataframe/parquet.h"

#include <arrow/api.h>
#include <arrow/io/file.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/schema.h>
#include <parquet/file_reader.h>
#include <parquet/metadata.h>
#include <parquet/statistics.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <type_traits>

#include "tessera/errors.h"
#include "tessera/task.h"

namespace tessera::frame {
namespace {

// How a file's column becomes a tessera array.
struct ColumnPlan {
  int field = -1;  // the index of the column in the file's Arrow schema (flat schemas only)
  std::string name;
  std::string arrow_type;
  DType dtype = DType::Float64;
  bool nulls = false;  // some value is null: the column gets a validity array
};

struct ReadPlan {
  std::string path;
  std::vector<ColumnPlan> columns;
  std::vector<int64_t> starts;  // the first row of each row group, and the row count last
};

void check(const arrow::Status& s, const std::string& path) {
  if (s.ok()) return;
  if (s.IsIOError() && !std::filesystem::exists(path))
    throw FileNotFoundError("[Errno 2] Failed to open local file '" + path +
                            "'. Detail: [errno 2] No such file or directory");
  throw ValueError(s.ToString());
}

template <class T>
T unwrap(arrow::Result<T> r, const std::string& path) {
  check(r.status(), path);
  return std::move(r).ValueOrDie();
}

std::unique_ptr<parquet::arrow::FileReader> open_reader(const std::string& path) {
  if (!std::filesystem::exists(path))
    throw FileNotFoundError("[Errno 2] Failed to open local file '" + path +
                            "'. Detail: [errno 2] No such file or directory");
  std::shared_ptr<arrow::io::ReadableFile> file = unwrap(arrow::io::ReadableFile::Open(path), path);
  parquet::ArrowReaderProperties props;
  props.set_use_threads(false);  // one point per worker already
  parquet::arrow::FileReaderBuilder builder;
  check(builder.Open(file), path);
  builder.properties(props);
  return unwrap(builder.Build(), path);
}

// The dtype pandas gives a column of Arrow type `t` (NumPy-backed), or none when this
// library does not hold that type yet.
std::optional<DType> dtype_for(const arrow::DataType& t, bool nulls) {
  using arrow::Type;
  switch (t.id()) {
    case Type::INT8: return nulls ? DType::Float64 : DType::Int8;
    case Type::INT16: return nulls ? DType::Float64 : DType::Int16;
    case Type::INT32: return nulls ? DType::Float64 : DType::Int32;
    case Type::INT64: return nulls ? DType::Float64 : DType::Int64;
    case Type::UINT8: return nulls ? DType::Float64 : DType::UInt8;
    case Type::UINT16: return nulls ? DType::Float64 : DType::UInt16;
    case Type::UINT32: return nulls ? DType::Float64 : DType::UInt32;
    case Type::UINT64: return nulls ? DType::Float64 : DType::UInt64;
    case Type::HALF_FLOAT: return DType::Float16;
    case Type::FLOAT: return DType::Float32;
    case Type::DOUBLE: return DType::Float64;
    case Type::BOOL:
      if (nulls) return std::nullopt;  // pandas: an object column of True, False and None
      return DType::Bool;
    default: return std::nullopt;
  }
}

// Copies `n` values of `chunk` (Arrow type of the plan's column) into `out` (the column's
// dtype); a null becomes NaN (the dtype is floating then) and a false in `valid`.
void copy_chunk(const arrow::Array& chunk, const ColumnPlan& c, char* out, bool* valid) {
  const int64_t n = chunk.length();
  if (valid)
    for (int64_t i = 0; i < n; ++i) valid[i] = chunk.IsValid(i);
  if (chunk.type_id() == arrow::Type::BOOL) {
    const auto& b = static_cast<const arrow::BooleanArray&>(chunk);
    for (int64_t i = 0; i < n; ++i) reinterpret_cast<bool*>(out)[i] = b.Value(i);
    return;
  }
  const auto& fixed = static_cast<const arrow::PrimitiveArray&>(chunk);
  const int width = chunk.type()->byte_width();
  const char* src = reinterpret_cast<const char*>(fixed.values()->data()) + chunk.offset() * width;
  const std::optional<DType> stored = dtype_for(*chunk.type(), false);
  if (stored == c.dtype) {
    std::memcpy(out, src, static_cast<size_t>(n * width));
  } else {  // an integer column with nulls: float64, as pandas reads it
    double* dst = reinterpret_cast<double*>(out);
    visit_dtype(*stored, [&](auto zero) {
      using T = decltype(zero);
      if constexpr (std::is_integral_v<T>) {
        const T* s = reinterpret_cast<const T*>(src);
        for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<double>(s[i]);
      }
    });
  }
  if (chunk.null_count() > 0 && dtype_kind(c.dtype) == DKind::Float) {
    for (int64_t i = 0; i < n; ++i) {
      if (chunk.IsValid(i)) continue;
      if (c.dtype == DType::Float64) reinterpret_cast<double*>(out)[i] = std::numeric_limits<double>::quiet_NaN();
      else if (c.dtype == DType::Float32) reinterpret_cast<float*>(out)[i] = std::numeric_limits<float>::quiet_NaN();
      else reinterpret_cast<_Float16*>(out)[i] = static_cast<_Float16>(std::numeric_limits<float>::quiet_NaN());
    }
  }
}

void read_row_group(TaskContext& ctx) {
  const ReadPlan& plan = ctx.payload<ReadPlan>();
  const int group = ctx.point();
  const int64_t rows = plan.starts[static_cast<size_t>(group) + 1] - plan.starts[static_cast<size_t>(group)];
  if (rows == 0) return;
  std::unique_ptr<parquet::arrow::FileReader> reader = open_reader(plan.path);
  std::vector<int> fields;
  for (const ColumnPlan& c : plan.columns) fields.push_back(c.field);
  std::shared_ptr<arrow::Table> table = unwrap(reader->ReadRowGroup(group, fields), plan.path);
  size_t arg = 0;
  for (size_t k = 0; k < plan.columns.size(); ++k) {
    const ColumnPlan& c = plan.columns[k];
    const Tile& values = ctx.array(arg++);
    bool* valid = c.nulls ? static_cast<bool*>(ctx.array(arg++).data()) : nullptr;
    char* out = static_cast<char*>(values.data());
    if (values.strides()[0] != 1) throw std::logic_error("read_parquet writes contiguous columns");
    int64_t at = 0;
    for (const std::shared_ptr<arrow::Array>& chunk : table->column(static_cast<int>(k))->chunks()) {
      copy_chunk(*chunk, c, out + at * itemsize(c.dtype), valid ? valid + at : nullptr);
      at += chunk->length();
    }
    if (at != rows)
      throw ValueError("read_parquet: row group " + std::to_string(group) + " of '" + plan.path + "' has " +
                       std::to_string(at) + " rows in column '" + c.name + "', its metadata says " +
                       std::to_string(rows));
  }
}

}  // namespace

Table read_parquet(const std::string& path, const std::vector<std::string>& columns) {
  register_dataframe_library();
  static const Task task("dataframe.read_parquet", read_row_group);
  std::unique_ptr<parquet::arrow::FileReader> reader = open_reader(path);
  const std::shared_ptr<parquet::FileMetaData> meta = reader->parquet_reader()->metadata();
  std::shared_ptr<arrow::Schema> schema;
  check(reader->GetSchema(&schema), path);
  ReadPlan plan;
  plan.path = path;
  const int groups = meta->num_row_groups();
  plan.starts.push_back(0);
  for (int g = 0; g < groups; ++g) plan.starts.push_back(plan.starts.back() + meta->RowGroup(g)->num_rows());
  std::vector<int> fields;
  if (columns.empty()) {
    for (int f = 0; f < schema->num_fields(); ++f) fields.push_back(f);
  } else {
    for (const std::string& name : columns) {
      const int f = schema->GetFieldIndex(name);
      if (f < 0) throw ValueError("No match for FieldRef.Name(" + name + ") in " + schema->ToString());
      fields.push_back(f);
    }
  }
  if (schema->num_fields() != meta->num_columns())
    throw NotImplementedError("read_parquet: '" + path +
                              "' has nested columns, which tessera.pandas does not read yet");
  Table result;
  result.rows = plan.starts.back();
  if (const auto& kv = schema->metadata())
    for (int64_t i = 0; i < kv->size(); ++i) result.metadata.emplace_back(kv->key(i), kv->value(i));
  std::vector<Argument> args;
  for (int f : fields) {
    const std::shared_ptr<arrow::Field>& field = schema->field(f);
    ColumnPlan c;
    c.field = f;
    c.name = field->name();
    c.arrow_type = field->type()->ToString();
    // Nulls, from the statistics of every row group (a column without them counts as nullable
    // when its field is).
    for (int g = 0; g < groups && !c.nulls; ++g) {
      std::shared_ptr<parquet::Statistics> stats = meta->RowGroup(g)->ColumnChunk(f)->statistics();
      if (stats && stats->HasNullCount()) c.nulls = stats->null_count() > 0;
      else c.nulls = field->nullable();
    }
    const std::optional<DType> t = dtype_for(*field->type(), c.nulls);
    if (!t)
      throw NotImplementedError("read_parquet: column '" + c.name + "' is of type " + c.arrow_type +
                                (c.nulls ? " with nulls" : "") + ", which tessera.pandas does not read yet");
    c.dtype = *t;
    Column col;
    col.name = c.name;
    col.arrow_type = c.arrow_type;
    col.values = new_array({result.rows}, c.dtype);
    args.push_back(out(col.values));
    if (c.nulls) {
      col.validity = new_array({result.rows}, DType::Bool);
      args.push_back(out(col.validity));
    }
    result.columns.push_back(std::move(col));
    plan.columns.push_back(std::move(c));
  }
  if (result.rows > 0 && !args.empty()) {
    LaunchOptions options;
    options.name = "read_parquet";
    for (int g = 0; g < groups; ++g)
      options.points.emplace_back(
          args.size(), Rect({plan.starts[static_cast<size_t>(g)]}, {plan.starts[static_cast<size_t>(g) + 1]}));
    options.payload = Payload::of(std::move(plan));
    launch(task, std::move(args), {}, {}, std::move(options));
  }
  return result;
}

}  // namespace tessera::frame
