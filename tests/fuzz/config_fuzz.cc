// TESSERA_CONFIG's reader on any text: parse_config either gives a configuration or throws
// ConfigError, never anything else; the words it splits quote back (shell_quote) to the
// same words; SLURM's task counts are parsed or refused.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.h"

namespace {

constexpr int64_t kGiB = int64_t{1} << 30;

[[noreturn]] void fail(const char* what, std::string_view text) {
  std::fprintf(stderr, "config_fuzz: %s for '%.*s'\n", what, static_cast<int>(text.size()), text.data());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessera;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const MachineInfo machine{8, 16 * kGiB, 1, 1};
  for (bool test_env : {false, true}) {
    try {
      const Config config = parse_config(text, machine, test_env);
      if (config.cpus < 1 || config.utility < 1 || config.window_size < 1 || config.sysmem_mib < 0)
        fail("a configuration out of range", text);
      (void)describe_config(config);
    } catch (const ConfigError&) {
    }
  }
  try {
    const std::vector<std::string> words = split_config_words(text, "TESSERA_CONFIG");
    std::string quoted;
    for (const std::string& w : words) quoted += (quoted.empty() ? "" : " ") + shell_quote(w);
    if (split_config_words(quoted, "quoted") != words) fail("quoted words that split differently", text);
  } catch (const ConfigError&) {
  }
  if (auto counts = parse_task_counts(text)) {
    for (int c : *counts)
      if (c <= 0) fail("a task count that is not positive", text);
  }
  return 0;
}
