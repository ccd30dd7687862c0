// The runtime flag table, and how --help lists a table and how an unknown flag is
// reported with the nearest known name.
#include <algorithm>
#include <array>
#include <initializer_list>
#include <string>
#include <vector>

#include "config/config.h"

namespace tessera {
namespace {

constexpr std::array kConfigFlags = {
    FlagSpec{"cpus", FlagKind::Count, "N", 0,
             "cores - utility, counting the rank's bound cores or its share of the node's "
             "(1 without auto-config)",
             "worker threads, each running one point task at a time"},
    FlagSpec{"omps", FlagKind::Count, "N", 0, "0",
             "OpenMP thread teams (this build has no OpenMP task variants: only 0; use --cpus)"},
    FlagSpec{"ompthreads", FlagKind::Count, "N", 0, "0",
             "threads in each OpenMP team (this build has no OpenMP task variants: only 0)"},
    FlagSpec{"gpus", FlagKind::Count, "N", 0, "0", "GPUs to use (this build has no GPU support: only 0)"},
    FlagSpec{"utility", FlagKind::Count, "N", 1, "1",
             "threads for runtime work: dependence analysis and mapping (cpus + utility: "
             "at most 8 per core, or 64)"},
    FlagSpec{"sysmem", FlagKind::Size, "MiB", 1, "80% of the rank's share of RAM (256 without auto-config)",
             "system memory pool of each rank"},
    FlagSpec{"numamem", FlagKind::Size, "MiB", 0, "0",
             "memory pool per NUMA node (this build has no NUMA-local pools, every array "
             "comes from --sysmem: only 0)"},
    FlagSpec{"fbmem", FlagKind::Size, "MiB", 0, "0", "GPU memory pool per GPU (needs a GPU build: only 0)"},
    FlagSpec{"zcmem", FlagKind::Size, "MiB", 0, "0",
             "zero-copy (pinned host) memory pool for GPU transfers (needs a GPU build: only 0)"},
    FlagSpec{"auto-config", FlagKind::Bool, "", 0, "1",
             "detect the machine and reserve most of it; =0 reserves only 1 cpu, 1 "
             "utility thread and 256 MiB"},
    FlagSpec{"show-config", FlagKind::Bool, "", 0, "0", "print the reserved resources when the runtime starts"},
    FlagSpec{"profile", FlagKind::Bool, "", 0, "0",
             "write a trace per rank, tessera_<rank>.prof, to --logdir (implies --provenance)"},
    FlagSpec{"provenance", FlagKind::Bool, "", 0, "0", "record the file:line that issued each operation"},
    FlagSpec{"logdir", FlagKind::Text, "DIR", 0, ".", "directory for profiles and logs"},
    FlagSpec{"show-memory-usage", FlagKind::Bool, "", 0, "0", "print the peak usage of each memory pool at exit"},
    FlagSpec{"show-all-ranks", FlagKind::Bool, "", 0, "0",
             "every rank's stdout and stderr reach the terminal, each line prefixed "
             "\"[rank N] \" (by default only rank 0's do)"},
    FlagSpec{"window-size", FlagKind::Count, "N", 1, "16",
             "operations held back for dependence analysis and fusion (a window that is one "
             "element-wise chain grows to 8 times this)"},
    FlagSpec{"min-cpu-chunk", FlagKind::Count, "N", 1, "65536 (2 in test mode)",
             "fewest elements a cpu point task is given (divided by the work per element: a "
             "long fused expression is cut at fewer)"},
    FlagSpec{"min-omp-chunk", FlagKind::Count, "N", 1, "131072 (2 in test mode)",
             "fewest elements an OpenMP point task is given; accepted so that configurations "
             "for builds with OpenMP variants run, but without effect in this build"},
    FlagSpec{"test", FlagKind::Bool, "", 0, "0 (1 when TESSERA_TEST=1)",
             "test mode: tiny chunks, so even small arrays are cut into many tiles"},
    FlagSpec{"fallback", FlagKind::Choice, "MODE", 0, "warn",
             "what tessera.numpy does when a program calls a NumPy function it does not "
             "implement natively, which then runs in NumPy on copies of the arrays: warn (a "
             "tessera.FallbackWarning once per function), silent, or error (raise "
             "tessera.FallbackError before anything runs)",
             "warn|silent|error"},
    FlagSpec{"simd", FlagKind::Choice, "SET", 0, "best",
             "the widest instruction set the vector loops (element-wise math, matrix-vector "
             "products, sort) may use: avx3 (AVX-512), avx2 (AVX2 and FMA), sse4 (SSE4.2), "
             "scalar (portable code, no vector instructions), or best (the widest this CPU "
             "has). A cap: a set the CPU lacks gives the widest it has below it; "
             "--show-config prints the one chosen",
             "best|avx3|avx2|sse4|scalar"},
    FlagSpec{"help", FlagKind::Bool, "", 0, "0", "list these flags and exit"},
};

// Levenshtein distance, small enough for flag names.
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::span<const FlagSpec> config_flags() { return kConfigFlags; }

const FlagSpec* find_flag(std::span<const FlagSpec> table, std::string_view name) {
  auto it = std::find_if(table.begin(), table.end(), [&](const FlagSpec& spec) { return spec.name == name; });
  return it == table.end() ? nullptr : &*it;
}

ConfigError unknown_flag_error(std::string_view word, std::string_view source, std::span<const FlagSpec> table,
                               std::span<const FlagSpec> other_table) {
  std::string_view name = word.substr(word.starts_with("--") ? 2 : 0);
  name = name.substr(0, name.find('='));
  std::string message = std::string(source) + ": unknown flag '--" + std::string(name) + "'";
  const FlagSpec* best = nullptr;
  size_t best_distance = 3;  // suggest only near misses
  for (auto candidates : {table, other_table}) {
    for (const FlagSpec& spec : candidates) {
      size_t distance = edit_distance(name, spec.name);
      if (distance < best_distance) {
        best = &spec;
        best_distance = distance;
      }
    }
  }
  if (best != nullptr) message += " (did you mean --" + std::string(best->name) + "?)";
  return ConfigError(message);
}

std::string format_flag_table(std::span<const FlagSpec> table) {
  auto spelling = [](const FlagSpec& spec) {
    std::string text = "--" + std::string(spec.name);
    if (!spec.value_name.empty()) text += " " + std::string(spec.value_name);
    return text;
  };
  size_t width = 0;
  for (const FlagSpec& spec : table) width = std::max(width, spelling(spec).size());
  // Each description is wrapped to the terminal's customary 80 columns, indented past
  // the longest spelling.
  constexpr size_t kColumns = 80;
  const size_t indent = width + 4;
  std::string out;
  for (const FlagSpec& spec : table) {
    std::string line = "  " + spelling(spec);
    line.resize(indent, ' ');
    std::string text = std::string(spec.help) + " [default: " + std::string(spec.default_text) + "]";
    size_t line_start = indent;  // where the current line's text starts
    for (size_t start = 0; start < text.size();) {
      size_t end = text.find(' ', start);
      if (end == std::string::npos) end = text.size();
      std::string_view word = std::string_view(text).substr(start, end - start);
      if (line.size() > line_start && line.size() + 1 + word.size() > kColumns) {
        out += line + "\n";
        line = std::string(indent, ' ');
      } else if (line.size() > line_start) {
        line += ' ';
      }
      line += word;
      start = end + 1;
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace tessera
