// The `tessera` launcher: reads its flags, sets TESSERA_CONFIG (and TESSERA_BIND for the
// per-rank bindings), and replaces itself with the program (or with mpirun or srun starting
// it on every rank), so that the program's exit code and signals reach the caller unchanged.
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "driver/launch_command.h"

namespace tessera {
namespace {

constexpr int kUsageError = 2;
constexpr int kCannotExecute = 126;
constexpr int kNotFound = 127;

// Where the launcher is installed: the resolved executable, then the path it was called
// by (which may be a symlink inside a virtual environment).
std::vector<std::string> launcher_paths(const char* argv0) {
  std::vector<std::string> paths;
  char buffer[PATH_MAX];
  ssize_t length = ::readlink("/proc/self/exe", buffer, sizeof buffer - 1);
  if (length > 0) paths.emplace_back(buffer, static_cast<size_t>(length));
  if (argv0 != nullptr && std::strchr(argv0, '/') != nullptr) paths.emplace_back(argv0);
  return paths;
}

[[noreturn]] void exec_command(const LaunchCommand& command) {
  std::vector<char*> argv;
  for (const std::string& word : command.argv) argv.push_back(const_cast<char*>(word.c_str()));
  argv.push_back(nullptr);
  std::cout.flush();
  std::cerr.flush();
  ::execvp(argv[0], argv.data());

  const int error = errno;
  const std::string& program = command.argv[0];
  std::cerr << "tessera: cannot run '" << program << "': " << std::strerror(error);
  if (error == ENOENT && program.find('/') == std::string::npos && ::access(program.c_str(), F_OK) == 0) {
    std::cerr << " (to run the program in this directory, write ./" << program << ")";
  }
  std::cerr << "\n";
  std::exit(error == ENOENT ? kNotFound : kCannotExecute);
}

int run(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    LaunchRequest request = parse_launch_request(args);
    if (request.help) {
      std::cout << launcher_help();
      return 0;
    }
    LaunchCommand command = build_launch_command(request, read_launch_environment(launcher_paths(argv[0])));
    if (request.dry_run) {
      std::cout << describe_launch(command);
      if (command.config.show_config) std::cout << describe_config(command.config);
      return 0;
    }
    if (request.verbose) std::cerr << describe_launch(command);
    ::setenv("TESSERA_CONFIG", command.config_text.c_str(), 1);
    // Each rank applies its entry when the runtime starts (comm/rank_setup.h).
    if (!command.bind_text.empty()) ::setenv(kBindVariable, command.bind_text.c_str(), 1);
    exec_command(command);
  } catch (const ConfigError& error) {
    std::cerr << error.what() << "\n";
    return kUsageError;
  }
}

}  // namespace
}  // namespace tessera

int main(int argc, char** argv) { return tessera::run(argc, argv); }
