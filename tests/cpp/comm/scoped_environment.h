// Sets and clears environment variables for one test and puts them back afterwards, so
// that tests of what a rank reads from its launcher's variables run the same whether or
// not the test binary itself runs under mpirun or srun.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::testing {

class ScopedEnvironment {
 public:
  /// Starts with every launcher variable (OpenMPI, MPICH, PMIx, SLURM) and TESSERA_BIND unset.
  ScopedEnvironment() {
    std::vector<std::string> names;
    for (char** entry = environ; *entry != nullptr; ++entry) {
      std::string_view text(*entry);
      std::string name(text.substr(0, text.find('=')));
      for (std::string_view prefix : {"OMPI_", "PMI_", "PMIX_", "MPI_LOCAL", "SLURM_", "TESSERA_BIND",
                                      "UCX_NET_DEVICES", "CUDA_VISIBLE_DEVICES"}) {
        if (name.starts_with(prefix)) names.push_back(name);
      }
    }
    for (const std::string& name : names) unset(name);
  }

  ~ScopedEnvironment() {
    for (const auto& [name, value] : saved_) {
      if (value) {
        ::setenv(name.c_str(), value->c_str(), 1);
      } else {
        ::unsetenv(name.c_str());
      }
    }
  }

  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

  ScopedEnvironment& set(const std::string& name, const std::string& value) {
    save(name);
    ::setenv(name.c_str(), value.c_str(), 1);
    return *this;
  }

  ScopedEnvironment& unset(const std::string& name) {
    save(name);
    ::unsetenv(name.c_str());
    return *this;
  }

  static std::optional<std::string> get(const char* name) {
    const char* value = std::getenv(name);
    return value ? std::optional<std::string>(value) : std::nullopt;
  }

 private:
  void save(const std::string& name) {
    if (saved_.count(name) == 0) saved_[name] = get(name.c_str());
  }

  std::map<std::string, std::optional<std::string>> saved_;
};

}  // namespace tessera::testing
