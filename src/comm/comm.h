// This process's rank in the run and the channel that moves bytes between ranks. With one
// rank there is no MPI at all; with several, MPI (system OpenMPI) is started once per
// process, and after that every MPI call but the final abort is made by the channel thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace tessera::detail {

struct RankPlacement;

/// Starts MPI when `placement` says this process is one of several ranks (once per
/// process; MPI is finalized at exit). Returns the number of ranks.
int start_ranks(const RankPlacement& placement);

/// Fresh entropy that is the same on every rank of the run: rank 0's, shared when MPI
/// starts (so that unseeded random generators agree across ranks). 0 without ranks.
uint64_t run_entropy();

/// The smallest and largest of each rank's `values` (same length on every rank), for the
/// settings ranks must agree on. Call on the program thread before a Channel exists.
void agree(std::vector<int64_t>& lowest, std::vector<int64_t>& highest, const std::vector<int64_t>& values);

/// This rank and how many there are (0 and 1 before the runtime starts or without MPI).
int this_rank();
int rank_count();

/// Ends the whole run: writes `message` to the terminal (even from a silenced rank), then
/// aborts every rank through MPI (or exits with `code` when there is no MPI).
[[noreturn]] void abort_run(int code, std::string_view message);

/// What this rank has sent and received since the process started.
struct ChannelStats {
  int64_t bytes_sent = 0, messages_sent = 0;
  int64_t bytes_received = 0, messages_received = 0;
};
ChannelStats channel_stats();

/// The thread that owns MPI: posts sends and receives handed to it from any thread and
/// polls them to completion. Messages between two ranks are matched by tag, which both
/// sides derive from the order of the copies in the program (the same on every rank).
class Channel {
 public:
  Channel();
  /// Waits until every posted send and receive has completed.
  ~Channel();
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  /// Sends `bytes` to rank `dest`; the channel keeps the buffer until it is delivered.
  void send(int dest, int tag, std::vector<char> bytes);
  /// Receives `size` bytes from rank `source` into `buffer` (which must stay alive) and
  /// then calls `done` on the channel thread.
  void receive(int source, int tag, char* buffer, int64_t size, std::function<void()> done);
  /// The tag of the next message from `source` to `dest` (call in program order).
  int next_tag(int source, int dest);
  /// From now on, `seen(rank, operations)` runs on the channel thread when another rank
  /// announces that it ends the program after issuing `operations` operations.
  void watch_exits(std::function<void(int, int64_t)> seen);
  /// Tells every other rank that this one ends the program after `operations` operations.
  void announce_exit(int64_t operations);
  /// Blocks until every other rank has announced its end.
  void wait_for_exits();
  /// Every rank's `mine`, by rank: blocks until all have arrived. Every rank must call it
  /// at the same point of the program (a sync point), with no analysis running.
  std::vector<std::string> all_gather(const std::string& mine);

 private:
  struct Request;
  void loop();
  void post(Request& r);

  std::mutex mu_;
  std::condition_variable cv_, idle_cv_;
  std::vector<Request*> incoming_;
  int64_t outstanding_ = 0;  // posted and not completed, guarded by mu_
  bool stop_ = false;
  std::vector<int64_t> sequence_;  // per (source, dest) pair touching this rank
  int tag_limit_ = 32767;          // copies use tags below it; exit announcements use it
  std::vector<int64_t> exits_;     // operations each rank announced, received here
  int exits_seen_ = 0;             // guarded by mu_
  std::thread thread_;
};

}  // namespace tessera::detail
