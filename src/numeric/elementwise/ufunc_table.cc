// The ufunc table's rows (ufuncs.def) as data: the names of the operation codes, the lookup
// by name and alias, the chain steps, and the description the Python package reads.
#include "numeric/elementwise/ufunc_table.h"

#include <unordered_map>

#include "tessera/elementwise.h"

namespace tessera {
namespace detail {

const char* unary_name(UnaryOp op) {
  static const char* const names[] = {
// clang-format off
#define TESSERA_UNARY_UFUNC(OP, NAME, ...) NAME,
#include "numeric/elementwise/ufuncs.def"
      // clang-format on
  };
  return names[static_cast<int>(op)];
}

const char* binary_name(BinaryOp op) {
  static const char* const names[] = {
// clang-format off
#define TESSERA_BINARY_UFUNC(OP, NAME, ...) NAME,
#include "numeric/elementwise/ufuncs.def"
      // clang-format on
  };
  return names[static_cast<int>(op)];
}

ChainOp chain_step(UnaryOp op) {
  switch (op) {
// clang-format off
#define TESSERA_UNARY_UFUNC(OP, NAME, ALIASES, LOOPS, VECTOR, V1, V2, CHAIN, ...) \
  case UnaryOp::OP: return ChainOp::CHAIN;
#include "numeric/elementwise/ufuncs.def"
      // clang-format on
    case UnaryOp::kCount: break;
  }
  return ChainOp::Apply;
}

bool chain_step(BinaryOp op, bool swapped, ChainOp* step) {
  // A binary row's chain column: a step of its own and its swapped twin, or none.
#define TESSERA_BINARY_CHAIN_none return false;
#define TESSERA_BINARY_CHAIN_STEP(S)                  \
  *step = swapped ? ChainOp::Swapped##S : ChainOp::S; \
  return true;
#define TESSERA_BINARY_CHAIN_Add TESSERA_BINARY_CHAIN_STEP(Add)
#define TESSERA_BINARY_CHAIN_Subtract TESSERA_BINARY_CHAIN_STEP(Subtract)
#define TESSERA_BINARY_CHAIN_Multiply TESSERA_BINARY_CHAIN_STEP(Multiply)
#define TESSERA_BINARY_CHAIN_Divide TESSERA_BINARY_CHAIN_STEP(Divide)
  switch (op) {
// clang-format off
#define TESSERA_BINARY_UFUNC(OP, NAME, ALIASES, LOOPS, VECTOR, V1, V2, CHAIN, ...) \
  case BinaryOp::OP: TESSERA_BINARY_CHAIN_##CHAIN
#include "numeric/elementwise/ufuncs.def"
      // clang-format on
    case BinaryOp::kCount: break;
  }
#undef TESSERA_BINARY_CHAIN_none
#undef TESSERA_BINARY_CHAIN_STEP
#undef TESSERA_BINARY_CHAIN_Add
#undef TESSERA_BINARY_CHAIN_Subtract
#undef TESSERA_BINARY_CHAIN_Multiply
#undef TESSERA_BINARY_CHAIN_Divide
  return false;
}

namespace {

std::vector<std::string_view> split_names(std::string_view s) {
  std::vector<std::string_view> names;
  while (!s.empty()) {
    const size_t space = s.find(' ');
    if (space != 0) names.push_back(s.substr(0, space));
    if (space == std::string_view::npos) break;
    s.remove_prefix(space + 1);
  }
  return names;
}

std::vector<UfuncInfo> make_ufuncs() {
  std::vector<UfuncInfo> all;
  auto row = [&](std::string_view name, int nin, std::string_view aliases, bool python, int methods,
                 std::string_view identity, std::string_view reduce, std::string_view accumulate) {
    UfuncInfo u;
    u.name = name;
    u.nin = nin;
    u.aliases = split_names(aliases);
    u.python = python;
    u.reorderable = methods & kReorderable;
    u.fold = methods & kFold;
    u.half_in_float = methods & kHalfInFloat;
    u.at = methods & kAt;
    u.identity = identity;
    u.reduce = reduce;
    u.reduce_dtype = methods & kReduceDtype;
    u.reduce_initial = methods & kReduceInitial;
    u.accumulate = accumulate;
    all.push_back(std::move(u));
  };
  [[maybe_unused]] constexpr bool ufunc = true, internal = false;
// clang-format off
#define TESSERA_UNARY_UFUNC(OP, NAME, ALIASES, LOOPS, VECTOR, V1, V2, CHAIN, PYTHON) \
  row(NAME, 1, ALIASES, PYTHON, 0, "", "", "");
#define TESSERA_BINARY_UFUNC(OP, NAME, ALIASES, LOOPS, VECTOR, V1, V2, CHAIN, PYTHON, METHODS, IDENTITY, REDUCE, \
                             ACCUMULATE)                                                                     \
  row(NAME, 2, ALIASES, PYTHON, METHODS, IDENTITY, REDUCE, ACCUMULATE);
#include "numeric/elementwise/ufuncs.def"
  // clang-format on
  return all;
}

}  // namespace

UfuncCode find_ufunc(std::string_view name) {
  static const auto* codes = [] {
    auto* t = new std::unordered_map<std::string_view, UfuncCode>();
    int unary_op = 0, binary_op = 0;
    for (const UfuncInfo& u : ufuncs()) {
      const UfuncCode code{u.nin, u.nin == 1 ? unary_op++ : binary_op++};
      (*t)[u.name] = code;
      for (std::string_view alias : u.aliases) (*t)[alias] = code;
    }
    return t;
  }();
  auto it = codes->find(name);
  return it == codes->end() ? UfuncCode{} : it->second;
}

}  // namespace detail

const std::vector<UfuncInfo>& ufuncs() {
  static const std::vector<UfuncInfo> all = detail::make_ufuncs();
  return all;
}

}  // namespace tessera
