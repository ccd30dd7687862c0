// A detached grandchild runs the browser, so tessera-prof neither waits for it nor leaves
// a zombie, and the browser's output does not mix with ours.
#include "prof/browser.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace tessera::detail {
namespace {

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':'))
    if (!dir.empty() && ::access((dir + "/" + program).c_str(), X_OK) == 0) return true;
  return false;
}

}  // namespace

bool open_in_browser(const std::string& path) {
  const char* browser = std::getenv("BROWSER");
  std::string command;
  if (browser && *browser) {
    // $BROWSER may hold several ':'-separated commands and a %s for the file; use the first.
    command = std::string(browser).substr(0, std::string(browser).find(':'));
    if (command.find("%s") == std::string::npos) command += " \"$1\"";
    else command.replace(command.find("%s"), 2, "\"$1\"");
  } else if (on_path("xdg-open") && (std::getenv("DISPLAY") || std::getenv("WAYLAND_DISPLAY"))) {
    command = "xdg-open \"$1\"";
  } else {
    return false;
  }
  const std::string absolute = std::filesystem::absolute(path).string();
  const pid_t child = ::fork();
  if (child < 0) return false;
  if (child == 0) {
    ::setsid();
    if (::fork() != 0) ::_exit(0);
    const int null = ::open("/dev/null", O_RDWR);
    if (null >= 0) ::dup2(null, 0), ::dup2(null, 1), ::dup2(null, 2);
    ::execl("/bin/sh", "sh", "-c", ("exec " + command).c_str(), "sh", absolute.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  return true;
}

}  // namespace tessera::detail
