// Per-rank binding lists: --cpu-bind, --mem-bind, --gpu-bind and --nic-bind give one
// /-separated entry per rank on a node. The launcher checks them and hands them to every
// rank in one environment variable, TESSERA_BIND, which each rank reads at start-up:
//   TESSERA_BIND='cpu=0-7/8-15;mem=0/1;gpu=0,1/2,3;nic=eth0/eth1'
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera {

/// The environment variable that carries the binding lists to every rank.
inline constexpr const char* kBindVariable = "TESSERA_BIND";

/// Kind ("cpu", "mem", "gpu", "nic") → one entry per rank on a node, in local-rank order.
using BindingLists = std::map<std::string, std::vector<std::string>>;

/// The kinds, in the order TESSERA_BIND writes them.
inline constexpr std::string_view kBindingKinds[] = {"cpu", "mem", "gpu", "nic"};

/// An inclusive range of indices.
struct IndexRange {
  int64_t first = 0;
  int64_t last = 0;
};

/// Reads an index list such as "0-3,8" ({0,3}, {8,8}); nullopt unless it is made of whole
/// numbers and ascending ranges separated by commas.
std::optional<std::vector<IndexRange>> parse_index_list(std::string_view text);

/// Splits the value of --KIND-bind at '/' and checks every entry (indices for cpu, mem and
/// gpu; interface names for nic). Throws ConfigError starting with `source` and naming the
/// flag. Example: parse_binding_list("cpu", "0-7/8-15", "tessera") == {"0-7", "8-15"}.
std::vector<std::string> parse_binding_list(std::string_view kind, std::string_view list, std::string_view source);

/// TESSERA_BIND's text for `lists`, "" when there are none.
std::string encode_bindings(const BindingLists& lists);

/// Reads TESSERA_BIND's text; throws ConfigError starting with `source` for an unknown kind
/// or a bad list. "" gives no lists.
BindingLists decode_bindings(std::string_view text, std::string_view source = kBindVariable);

}  // namespace tessera
