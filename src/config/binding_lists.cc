// Reading and writing the binding lists: the launcher's --KIND-bind values and the
// TESSERA_BIND text ("cpu=0-7/8-15;mem=0/1") that carries them to the ranks.
#include "config/binding_lists.h"

#include <algorithm>
#include <cctype>

#include "config/config.h"

namespace tessera {
namespace {

// A whole number of at most nine digits, so that it fits any index.
std::optional<int64_t> parse_index(std::string_view text) {
  if (text.empty() || text.size() > 9) return std::nullopt;
  int64_t value = 0;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

// Interface names as ip(8) and UCX spell them (eth0, ib0, mlx5_0:1), several joined by
// commas. Excludes the separators of TESSERA_BIND and anything a shell would split.
bool is_interface_list(std::string_view text) {
  if (text.empty() || text.front() == ',' || text.back() == ',') return false;
  if (text.find(",,") != std::string_view::npos) return false;
  return std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ':' || c == '-' || c == ',';
  });
}

bool is_kind(std::string_view kind) {
  return std::find(std::begin(kBindingKinds), std::end(kBindingKinds), kind) != std::end(kBindingKinds);
}

}  // namespace

std::optional<std::vector<IndexRange>> parse_index_list(std::string_view text) {
  std::vector<IndexRange> ranges;
  for (size_t start = 0;;) {
    const size_t comma = text.find(',', start);
    const std::string_view part =
        text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    const size_t dash = part.find('-');
    auto first = parse_index(part.substr(0, dash));
    if (!first) return std::nullopt;
    IndexRange range{*first, *first};
    if (dash != std::string_view::npos) {
      auto last = parse_index(part.substr(dash + 1));
      if (!last || *last < *first) return std::nullopt;
      range.last = *last;
    }
    ranges.push_back(range);
    if (comma == std::string_view::npos) return ranges;
    start = comma + 1;
  }
}

std::vector<std::string> parse_binding_list(std::string_view kind, std::string_view list, std::string_view source) {
  const bool names = kind == "nic";
  std::vector<std::string> entries;
  bool valid = true;
  for (size_t start = 0;;) {
    const size_t slash = list.find('/', start);
    std::string entry(list.substr(start, slash == std::string_view::npos ? slash : slash - start));
    valid = valid && (names ? is_interface_list(entry) : parse_index_list(entry).has_value());
    entries.push_back(std::move(entry));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  if (!valid) {
    const std::string expected = names ? "network interface names (eth0, or ib0,ib1 for several)"
                                       : std::string(kind == "cpu"   ? "CPU"
                                                     : kind == "mem" ? "NUMA node"
                                                                     : "GPU") +
                                             " numbers and ranges (0-3,8)";
    const std::string example = names ? "eth0/eth1" : "0-15/16-31";
    throw ConfigError(std::string(source) + ": invalid value '" + std::string(list) + "' for --" + std::string(kind) +
                      "-bind: expected one entry per rank on a node, " + "separated by / (e.g. " + example +
                      "), each entry " + expected);
  }
  return entries;
}

std::string encode_bindings(const BindingLists& lists) {
  std::string text;
  for (std::string_view kind : kBindingKinds) {
    auto it = lists.find(std::string(kind));
    if (it == lists.end() || it->second.empty()) continue;
    if (!text.empty()) text += ';';
    text += std::string(kind) + "=";
    for (size_t i = 0; i < it->second.size(); ++i) text += (i ? "/" : "") + it->second[i];
  }
  return text;
}

BindingLists decode_bindings(std::string_view text, std::string_view source) {
  BindingLists lists;
  if (text.empty()) return lists;
  for (size_t start = 0;;) {
    const size_t semicolon = text.find(';', start);
    const std::string_view part =
        text.substr(start, semicolon == std::string_view::npos ? std::string_view::npos : semicolon - start);
    const size_t equals = part.find('=');
    const std::string_view kind = part.substr(0, equals);
    if (equals == std::string_view::npos || !is_kind(kind)) {
      throw ConfigError(std::string(source) + ": cannot read '" + std::string(part) + "' in '" + std::string(text) +
                        "': expected KIND=LIST parts separated by ; with KIND cpu, mem, gpu or "
                        "nic (e.g. cpu=0-7/8-15;mem=0/1)");
    }
    lists[std::string(kind)] = parse_binding_list(kind, part.substr(equals + 1), source);
    if (semicolon == std::string_view::npos) return lists;
    start = semicolon + 1;
  }
}

}  // namespace tessera
