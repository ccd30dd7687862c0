// dtype tables and NumPy's safe-casting and promotion rules.
#include "tessera/dtype.h"

#include <array>

#include "tessera/errors.h"

namespace tessera {
namespace {

struct Info {
  const char* name;
  char code;
  int size;
  DKind kind;
  int rank;  // precision rank within its kind (bits)
};

constexpr std::array<Info, kNumDTypes> kInfo = {{
    {"bool", '?', 1, DKind::Bool, 1},
    {"int8", 'b', 1, DKind::Int, 8},
    {"int16", 'h', 2, DKind::Int, 16},
    {"int32", 'i', 4, DKind::Int, 32},
    {"int64", 'l', 8, DKind::Int, 64},
    {"uint8", 'B', 1, DKind::UInt, 8},
    {"uint16", 'H', 2, DKind::UInt, 16},
    {"uint32", 'I', 4, DKind::UInt, 32},
    {"uint64", 'L', 8, DKind::UInt, 64},
    {"float16", 'e', 2, DKind::Float, 16},
    {"float32", 'f', 4, DKind::Float, 32},
    {"float64", 'd', 8, DKind::Float, 64},
    {"complex64", 'F', 8, DKind::Complex, 32},
    {"complex128", 'D', 16, DKind::Complex, 64},
}};

const Info& info(DType t) { return kInfo[static_cast<int>(t)]; }

// Candidates for promotion, smallest first: promote_types is the first one both cast to.
constexpr std::array<DType, kNumDTypes> kPromotionOrder = {
    DType::Bool,   DType::UInt8, DType::Int8,    DType::UInt16,  DType::Int16,   DType::UInt32,    DType::Int32,
    DType::UInt64, DType::Int64, DType::Float16, DType::Float32, DType::Float64, DType::Complex64, DType::Complex128};

// Bits of float precision an integer of `bits` needs to be cast safely.
int float_bits_for_int(int bits) { return bits <= 8 ? 16 : bits <= 16 ? 32 : 64; }

}  // namespace

int itemsize(DType t) { return info(t).size; }
const char* dtype_name(DType t) { return info(t).name; }
char dtype_char(DType t) { return info(t).code; }
DKind dtype_kind(DType t) { return info(t).kind; }

DType dtype_from_name(std::string_view name) {
  for (int i = 0; i < kNumDTypes; ++i)
    if (name == kInfo[i].name || (name.size() == 1 && name[0] == kInfo[i].code)) return static_cast<DType>(i);
  if (name == "bool_" || name == "bool8") return DType::Bool;
  if (name == "float" || name == "double" || name == "float_") return DType::Float64;
  if (name == "int" || name == "int_" || name == "intp" || name == "long" || name == "q") return DType::Int64;
  if (name == "uint" || name == "uintp" || name == "Q") return DType::UInt64;
  if (name == "complex" || name == "cdouble" || name == "complex_") return DType::Complex128;
  if (name == "half") return DType::Float16;
  if (name == "single") return DType::Float32;
  if (name == "csingle") return DType::Complex64;
  if (name == "f8") return DType::Float64;
  if (name == "f4") return DType::Float32;
  if (name == "f2") return DType::Float16;
  if (name == "i8") return DType::Int64;
  if (name == "i4") return DType::Int32;
  if (name == "i2") return DType::Int16;
  if (name == "i1") return DType::Int8;
  if (name == "u8") return DType::UInt64;
  if (name == "u4") return DType::UInt32;
  if (name == "u2") return DType::UInt16;
  if (name == "u1") return DType::UInt8;
  if (name == "c8") return DType::Complex64;
  if (name == "c16") return DType::Complex128;
  if (name == "b1") return DType::Bool;
  throw TypeError("data type '" + std::string(name) + "' not understood");
}

bool can_cast_safe(DType from, DType to) {
  if (from == to) return true;
  const Info& f = info(from);
  const Info& t = info(to);
  switch (f.kind) {
    case DKind::Bool: return true;
    case DKind::Int:
      if (t.kind == DKind::Int) return t.rank >= f.rank;
      if (t.kind == DKind::Float || t.kind == DKind::Complex) return t.rank >= float_bits_for_int(f.rank);
      return false;
    case DKind::UInt:
      if (t.kind == DKind::UInt) return t.rank >= f.rank;
      if (t.kind == DKind::Int) return t.rank > f.rank;
      if (t.kind == DKind::Float || t.kind == DKind::Complex) return t.rank >= float_bits_for_int(f.rank);
      return false;
    case DKind::Float:
      if (t.kind == DKind::Float) return t.rank >= f.rank;
      if (t.kind == DKind::Complex) return t.rank >= f.rank;
      return false;
    case DKind::Complex: return t.kind == DKind::Complex && t.rank >= f.rank;
  }
  return false;
}

bool can_cast(DType from, DType to, std::string_view casting) {
  if (casting == "unsafe") return true;
  if (casting == "safe") return can_cast_safe(from, to);
  if (casting == "same_kind") {
    // Within a kind or up the order bool < unsigned < signed < float < complex.
    auto order = [](DType t) {
      switch (dtype_kind(t)) {
        case DKind::Bool: return 0;
        case DKind::UInt: return 1;
        case DKind::Int: return 2;
        case DKind::Float: return 3;
        case DKind::Complex: return 4;
      }
      return 0;
    };
    return can_cast_safe(from, to) || order(from) <= order(to);
  }
  if (casting == "no" || casting == "equiv") return from == to;
  throw ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' (got '" + std::string(casting) +
                   "')");
}

DType promote_types(DType a, DType b) {
  // The first type in promotion order both cast to safely, worked out once for every pair.
  static const auto table = [] {
    std::array<std::array<DType, kNumDTypes>, kNumDTypes> t{};
    for (int i = 0; i < kNumDTypes; ++i)
      for (int j = 0; j < kNumDTypes; ++j) {
        t[i][j] = DType::Complex128;
        for (DType c : kPromotionOrder)
          if (can_cast_safe(DType(i), c) && can_cast_safe(DType(j), c)) {
            t[i][j] = c;
            break;
          }
      }
    return t;
  }();
  return table[static_cast<size_t>(a)][static_cast<size_t>(b)];
}

DType inexact_for(DType t) {
  for (DType c : {DType::Float16, DType::Float32, DType::Float64, DType::Complex64, DType::Complex128})
    if (can_cast_safe(t, c)) return c;
  return DType::Complex128;
}

DType complex_for(DType t) {
  if (is_complex(t)) return t;
  return promote_types(inexact_for(t), DType::Complex64);
}

DType real_for(DType t) {
  if (t == DType::Complex64) return DType::Float32;
  if (t == DType::Complex128) return DType::Float64;
  return t;
}

DType sum_dtype(DType t) {
  switch (dtype_kind(t)) {
    case DKind::Bool: return DType::Int64;
    case DKind::Int: return DType::Int64;
    case DKind::UInt: return DType::UInt64;
    default: return t;
  }
}

}  // namespace tessera
