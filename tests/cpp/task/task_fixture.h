// Helpers for the task-API tests: the runtime configurations each test runs under (one to
// four workers, test mode's tiny tiles, and the small-array inline path), host arrays, and
// reading results back.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "../runtime/runtime_fixture.h"
#include "tessera/task.h"
#include "tessera/tessera.h"

namespace tessera::testing {

/// The configurations a task's result must not depend on.
inline const char* const kTaskConfigs[] = {
    "--auto-config=0 --cpus=1 --test=1",  // one worker, many tiles
    "--auto-config=0 --cpus=2 --test=1", "--auto-config=0 --cpus=4 --test=1",
    "--auto-config=0 --cpus=2 --test=0",  // small arrays run inline, as one point
};

/// A test run once per configuration, with the runtime restarted from it.
class ConfiguredTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override { config_.emplace(GetParam()); }
  void TearDown() override { config_.reset(); }
  /// Whether this configuration cuts even small arrays into tiles.
  bool test_mode() const { return std::string(GetParam()).find("--test=1") != std::string::npos; }
  bool many_workers() const { return test_mode() && std::string(GetParam()).find("--cpus=1") == std::string::npos; }

 private:
  std::optional<ScopedConfig> config_;
};

template <class T>
ndarray host_array(const std::vector<T>& v, const Shape& shape) {
  return from_host(v.data(), shape, dtype_of<T>::value);
}

inline int64_t volume_of(const Shape& s) {
  int64_t n = 1;
  for (int64_t e : s) n *= e;
  return n;
}

}  // namespace tessera::testing
