// Where a rank's stdout and stderr go. With several ranks, only rank 0's reach the terminal
// (the others' file descriptors 1 and 2 point at /dev/null), or with --show-all-ranks every
// rank's do, each line prefixed "[rank N] ": fds 1 and 2 then feed pipes that a reader
// thread turns into prefixed lines on the original descriptors. A dup of the original
// stderr stays open, so write_to_terminal reaches the terminal from any rank.
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "comm/rank_setup.h"

namespace tessera::detail {
namespace {

using Clock = std::chrono::steady_clock;

// A line longer than this is forwarded in pieces rather than held without bound.
constexpr size_t kLongestLine = size_t{1} << 20;
// After finish asks it to stop, the reader gives up on a pipe that some child process
// still holds open once it has been quiet this long, or after kStopLimit in all.
constexpr int kQuietMs = 100;
constexpr auto kStopLimit = std::chrono::seconds(2);
// How long write_to_terminal waits for the lines written before it to be forwarded.
constexpr auto kDrainLimit = std::chrono::seconds(2);
// mpirun's daemon reads a rank's output in pieces of up to 4 KiB and interleaves the
// pieces of different ranks: a piece that ends inside a line would splice another rank's
// output into it. So forwarded lines are written in batches of whole lines of at most this
// size (writes up to PIPE_BUF reach a pipe's reader whole), each once the pipe is empty.
constexpr size_t kBatchBytes = 4096;
constexpr auto kPipeWaitLimit = std::chrono::milliseconds(50);

void write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t written = ::write(fd, text.data(), text.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return;  // nowhere left to report it
    }
    text.remove_prefix(static_cast<size_t>(written));
  }
}

void flush_standard_streams() {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
}

bool is_pipe(int fd) {
  struct stat info;
  return ::fstat(fd, &info) == 0 && S_ISFIFO(info.st_mode);
}

// Waits (a little) until whoever reads the pipe `fd` has taken everything in it.
void wait_until_read(int fd) {
  const auto deadline = Clock::now() + kPipeWaitLimit;
  for (int unread = 0; ::ioctl(fd, FIONREAD, &unread) == 0 && unread > 0;) {
    if (Clock::now() > deadline) return;
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

// One forwarded descriptor: the read end of its pipe, the original descriptor its lines
// go to, and the line still being written.
struct Stream {
  int read_fd = -1;
  int terminal_fd = -1;
  bool terminal_is_pipe = false;
  std::string pending;
};

class RankOutput {
 public:
  static RankOutput& get() {
    static RankOutput* output = new RankOutput;  // never destroyed: used until exit
    return *output;
  }

  void setup(bool show_all, const RankPlacement& placement) {
    std::lock_guard lock(setup_mu_);
    if (placement.ranks <= 1 && !placement.ranks_from_mpi) return;  // one rank: as it was
    if (mode_ != Mode::Unchanged) return;
    flush_standard_streams();
    if (terminal_err_ < 0) {
      terminal_out_ = ::fcntl(1, F_DUPFD_CLOEXEC, 3);
      terminal_err_ = ::fcntl(2, F_DUPFD_CLOEXEC, 3);
    }
    owner_ = ::getpid();
    if (show_all) {
      if (!forward(placement.rank)) return;
    } else if (placement.rank != 0) {
      int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
      if (null < 0) return;
      ::dup2(null, 1);
      ::dup2(null, 2);
      ::close(null);
      mode_ = Mode::Silenced;
    }
    if (!exit_hook_) {
      exit_hook_ = true;
      std::atexit([] { finish_rank_output(); });
    }
  }

  void finish() {
    std::lock_guard lock(setup_mu_);
    flush_standard_streams();
    // In a forked child the reader thread lives in the parent.
    if (mode_ != Mode::Forwarded || ::getpid() != owner_) return;
    // With 1 and 2 back on the original descriptors the pipes' write ends close; the
    // reader forwards what is left and sees the end of both.
    ::dup2(terminal_out_, 1);
    ::dup2(terminal_err_, 2);
    stopping_ = true;
    reader_.join();
    mode_ = Mode::Unchanged;
  }

  void write_terminal(std::string_view message) {
    const bool forwarding = mode_ == Mode::Forwarded && ::getpid() == owner_;
    if (forwarding) drain();
    std::lock_guard lock(write_mu_);
    if (forwarding) {
      for (Stream& stream : streams_) emit(stream, true);
    }
    write_all(terminal_err_ >= 0 ? terminal_err_.load() : 2, message);
  }

 private:
  enum class Mode { Unchanged, Silenced, Forwarded };

  // Points 1 and 2 at pipes and starts the reader; false (nothing changed) if it cannot.
  bool forward(int rank) {
    int fds[2][2];
    if (::pipe2(fds[0], O_CLOEXEC) != 0) return false;
    if (::pipe2(fds[1], O_CLOEXEC) != 0) {
      for (int fd : fds[0]) ::close(fd);
      return false;
    }
    prefix_ = "[rank " + std::to_string(rank) + "] ";
    for (int i = 0; i < 2; ++i) {
      const int terminal = i == 0 ? terminal_out_.load() : terminal_err_.load();
      streams_[i] = Stream{fds[i][0], terminal, is_pipe(terminal), {}};
      ::dup2(fds[i][1], i + 1);  // not close-on-exec: child processes write there too
      ::close(fds[i][1]);
    }
    stopping_ = false;
    mode_ = Mode::Forwarded;
    reader_ = std::thread([this] { read_lines(); });
    return true;
  }

  void read_lines() {
    std::optional<Clock::time_point> stop_by;
    char buffer[65536];
    while (true) {
      pollfd polled[2];
      Stream* of[2];
      int count = 0;
      for (Stream& stream : streams_) {
        if (stream.read_fd < 0) continue;
        polled[count] = pollfd{stream.read_fd, POLLIN, 0};
        of[count++] = &stream;
      }
      if (count == 0) break;
      if (stopping_ && !stop_by) stop_by = Clock::now() + kStopLimit;
      if (stop_by && Clock::now() > *stop_by) break;
      const int ready = ::poll(polled, static_cast<nfds_t>(count), kQuietMs);
      if (ready < 0 && errno != EINTR) break;
      if (ready == 0 && stopping_) break;
      for (int i = 0; i < count && ready > 0; ++i) {
        if (polled[i].revents == 0) continue;
        busy_ = true;
        const ssize_t got = ::read(of[i]->read_fd, buffer, sizeof buffer);
        std::lock_guard lock(write_mu_);
        if (got > 0) {
          of[i]->pending.append(buffer, static_cast<size_t>(got));
          emit(*of[i], false);
        } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
          emit(*of[i], true);
          ::close(of[i]->read_fd);
          of[i]->read_fd = -1;
        }
        busy_ = false;
      }
    }
    std::lock_guard lock(write_mu_);
    for (Stream& stream : streams_) {
      emit(stream, true);
      if (stream.read_fd >= 0) ::close(stream.read_fd);
      stream.read_fd = -1;
    }
  }

  // Writes the complete lines of `stream` (and the unfinished one with `all`), prefixed, in
  // batches of whole lines. Called with write_mu_ held.
  void emit(Stream& stream, bool all) {
    std::string batch;
    auto send = [&] {
      if (batch.empty()) return;
      if (stream.terminal_is_pipe) wait_until_read(stream.terminal_fd);
      write_all(stream.terminal_fd, batch);
      batch.clear();
    };
    auto add = [&](std::string_view line) {  // line includes its '\n'
      if (batch.size() + prefix_.size() + line.size() > kBatchBytes) send();
      batch.append(prefix_).append(line);
    };
    const std::string_view pending = stream.pending;
    size_t start = 0;
    for (size_t end; (end = pending.find('\n', start)) != std::string::npos; start = end + 1) {
      add(pending.substr(start, end + 1 - start));
    }
    std::string rest(pending.substr(start));
    if (!rest.empty() && (all || rest.size() > kLongestLine)) {
      add(rest + "\n");
      rest.clear();
    }
    send();
    stream.pending = std::move(rest);
  }

  // Waits until the reader has forwarded everything written to the pipes so far.
  void drain() {
    std::fflush(nullptr);
    const auto deadline = Clock::now() + kDrainLimit;
    while (Clock::now() < deadline) {
      int unread = 0;
      {
        std::lock_guard lock(write_mu_);  // the reader closes the pipes holding it
        for (const Stream& stream : streams_) {
          int bytes = 0;
          if (stream.read_fd >= 0 && ::ioctl(stream.read_fd, FIONREAD, &bytes) == 0) {
            unread += bytes;
          }
        }
      }
      if (unread == 0 && !busy_) return;  // busy_ covers bytes read but not yet written
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

  std::mutex setup_mu_;  // setup and finish
  std::mutex write_mu_;  // writes to the terminal: forwarded lines and write_to_terminal
  std::atomic<Mode> mode_{Mode::Unchanged};
  std::atomic<int> terminal_out_{-1};
  std::atomic<int> terminal_err_{-1};
  pid_t owner_ = 0;
  bool exit_hook_ = false;
  std::string prefix_;
  Stream streams_[2];
  std::thread reader_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> busy_{false};
};

}  // namespace

void setup_rank_output(bool show_all, const RankPlacement& placement) { RankOutput::get().setup(show_all, placement); }

void finish_rank_output() { RankOutput::get().finish(); }

void write_to_terminal(std::string_view message) { RankOutput::get().write_terminal(message); }

}  // namespace tessera::detail
