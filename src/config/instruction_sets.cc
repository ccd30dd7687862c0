// The --simd instruction sets: Highway's targets by name, what the CPU supports (asked of
// Highway once, before any restriction), and the restriction itself (hwy::DisableTargets of
// every target wider than the chosen one: Highway numbers wider targets with lower bits).
#include "config/instruction_sets.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

#include "hwy/targets.h"

namespace tessera {
namespace {

// Widest first. SSSE3 is not among them: the vector loops are not compiled for it. The
// portable target is EMU128, or SCALAR with compilers Highway finds EMU128 broken on (GCC
// before 12.3).
constexpr std::array<std::pair<std::string_view, int64_t>, 4> kSets = {
    {{"avx3", HWY_AVX3}, {"avx2", HWY_AVX2}, {"sse4", HWY_SSE4}, {"scalar", HWY_BASELINE_SCALAR}}};

int64_t target_of(std::string_view name) {
  for (const auto& [set, target] : kSets)
    if (set == name) return target;
  return 0;
}

}  // namespace

std::vector<std::string> known_instruction_sets() {
  std::vector<std::string> names;
  for (const auto& [set, target] : kSets) names.emplace_back(set);
  return names;
}

std::vector<std::string> supported_instruction_sets() {
  // Highway's answer shrinks after DisableTargets: the CPU's is the one before the first.
  static const int64_t cpu = hwy::SupportedTargets();
  std::vector<std::string> names;
  for (const auto& [set, target] : kSets)
    if ((cpu & target) != 0 || target == HWY_BASELINE_SCALAR) names.emplace_back(set);
  return names;
}

const char* highway_target_name(std::string_view set) { return hwy::TargetName(target_of(set)); }

std::string resolve_simd(std::string_view cap, const std::vector<std::string>& supported) {
  const int64_t limit = cap == "best" ? 0 : target_of(cap);
  for (const std::string& set : supported)
    if (target_of(set) >= limit) return set;  // the first (widest) at or below the cap
  return "scalar";
}

void restrict_instruction_sets(std::string_view set) {
  supported_instruction_sets();  // the CPU's sets, before they are restricted
  const int64_t target = set == "best" ? 0 : target_of(set);
  hwy::DisableTargets(target == 0 ? 0 : target - 1);
}

}  // namespace tessera
