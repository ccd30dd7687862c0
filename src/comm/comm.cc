#include "comm/comm.h"

// The C API only (no MPI C++ bindings, which need their own library).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "comm/rank_setup.h"
#include "config/config.h"

namespace tessera::detail {

namespace {
std::atomic<int> g_rank{0}, g_ranks{1};
std::atomic<int64_t> g_bytes_sent{0}, g_messages_sent{0}, g_bytes_received{0}, g_messages_received{0};
bool g_mpi_started = false;
uint64_t g_run_entropy = 0;

// Largest piece of one message handed to MPI (its counts are ints).
constexpr int64_t kMaxPiece = int64_t{1} << 30;

void finalize_mpi() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

std::string mpi_error(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return std::string(text, static_cast<size_t>(length));
}
}  // namespace

int start_ranks(const RankPlacement& placement) {
  if (g_mpi_started || !placement.launched || (placement.ranks <= 1 && !placement.ranks_from_mpi))
    return g_ranks.load();
  int provided = 0;
  int code = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided);
  if (code != MPI_SUCCESS) throw tessera::ConfigError("tessera: MPI could not start: " + mpi_error(code));
  if (provided < MPI_THREAD_SERIALIZED)
    throw tessera::ConfigError("tessera: this MPI cannot be called from a second thread (MPI_THREAD_SERIALIZED)");
  g_mpi_started = true;
  std::atexit(finalize_mpi);
  // A lost peer must end the run rather than leave this rank waiting for it.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  g_rank = rank;
  g_ranks = ranks;
  // Before the channel thread exists, so this thread may still call MPI.
  unsigned long long entropy = 0;
  if (rank == 0) {
    std::random_device rd;
    entropy = (static_cast<unsigned long long>(rd()) << 32) | rd();
  }
  MPI_Bcast(&entropy, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  g_run_entropy = entropy;
  return ranks;
}

void agree(std::vector<int64_t>& lowest, std::vector<int64_t>& highest, const std::vector<int64_t>& values) {
  lowest = highest = values;
  if (!g_mpi_started) return;
  const int n = static_cast<int>(values.size());
  MPI_Allreduce(values.data(), lowest.data(), n, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(values.data(), highest.data(), n, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
}

uint64_t run_entropy() { return g_run_entropy; }

int this_rank() { return g_rank.load(std::memory_order_relaxed); }
int rank_count() { return g_ranks.load(std::memory_order_relaxed); }

void abort_run(int code, std::string_view message) {
  std::string text(message);
  if (!text.empty() && text.back() != '\n') text += '\n';
  write_to_terminal(text);
  if (g_mpi_started) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Abort(MPI_COMM_WORLD, code);
  }
  std::_Exit(code);
}

ChannelStats channel_stats() {
  return ChannelStats{g_bytes_sent.load(), g_messages_sent.load(), g_bytes_received.load(), g_messages_received.load()};
}

struct Channel::Request {
  bool is_send = false;
  int peer = 0, tag = 0;
  std::vector<char> owned;  // a send's bytes
  char* buffer = nullptr;
  int64_t size = 0;
  std::function<void()> done;
  std::vector<MPI_Request> pieces;
  int remaining = 0;
  bool watch = false;  // an exit announcement: waits all run, nobody waits for it
};

Channel::Channel() {
  const int ranks = rank_count();
  sequence_.assign(static_cast<size_t>(ranks) * 2, 0);
  void* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &found);
  if (found && value) tag_limit_ = std::max(32767, *static_cast<int*>(value));
  thread_ = std::thread([this] { loop(); });
}

Channel::~Channel() {
  {
    std::unique_lock lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

int Channel::next_tag(int source, int dest) {
  // Copies this rank sends are counted per destination, those it receives per source.
  const int me = this_rank();
  const size_t slot = source == me ? static_cast<size_t>(dest) : static_cast<size_t>(rank_count() + source);
  return static_cast<int>(sequence_[slot]++ % tag_limit_);  // never tag_limit_ itself
}

void Channel::send(int dest, int tag, std::vector<char> bytes) {
  auto* r = new Request;
  r->is_send = true;
  r->peer = dest;
  r->tag = tag;
  r->size = static_cast<int64_t>(bytes.size());
  r->owned = std::move(bytes);
  r->buffer = r->owned.data();
  g_bytes_sent += r->size;
  ++g_messages_sent;
  {
    std::lock_guard lock(mu_);
    incoming_.push_back(r);
    ++outstanding_;
  }
  cv_.notify_one();
}

void Channel::receive(int source, int tag, char* buffer, int64_t size, std::function<void()> done) {
  auto* r = new Request;
  r->watch = tag == tag_limit_;
  r->peer = source;
  r->tag = tag;
  r->buffer = buffer;
  r->size = size;
  r->done = std::move(done);
  {
    std::lock_guard lock(mu_);
    incoming_.push_back(r);
    ++outstanding_;
  }
  cv_.notify_one();
}

void Channel::watch_exits(std::function<void(int, int64_t)> seen) {
  const int me = this_rank(), ranks = rank_count();
  exits_.assign(static_cast<size_t>(ranks), -1);
  auto shared = std::make_shared<std::function<void(int, int64_t)>>(std::move(seen));
  for (int q = 0; q < ranks; ++q) {
    if (q == me) continue;
    receive(q, tag_limit_, reinterpret_cast<char*>(&exits_[static_cast<size_t>(q)]), sizeof(int64_t),
            [this, q, shared] {
              {
                std::lock_guard lock(mu_);
                ++exits_seen_;
              }
              idle_cv_.notify_all();
              (*shared)(q, exits_[static_cast<size_t>(q)]);
            });
  }
}

void Channel::announce_exit(int64_t operations) {
  const int me = this_rank(), ranks = rank_count();
  for (int q = 0; q < ranks; ++q) {
    if (q == me) continue;
    std::vector<char> bytes(sizeof operations);
    std::memcpy(bytes.data(), &operations, sizeof operations);
    send(q, tag_limit_, std::move(bytes));
  }
}

void Channel::wait_for_exits() {
  std::unique_lock lock(mu_);
  idle_cv_.wait(lock, [&] { return exits_seen_ >= rank_count() - 1; });
}

std::vector<std::string> Channel::all_gather(const std::string& mine) {
  const int me = this_rank(), ranks = rank_count();
  std::vector<std::string> all(static_cast<size_t>(ranks));
  all[static_cast<size_t>(me)] = mine;
  std::mutex mu;
  std::condition_variable cv;
  int pending = 0;
  auto wait_all = [&] {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return pending == 0; });
  };
  auto arrived = [&] {
    std::lock_guard lock(mu);
    if (--pending == 0) cv.notify_all();
  };
  // Sizes first, then the texts that are not empty.
  std::vector<int64_t> sizes(static_cast<size_t>(ranks), 0);
  const auto my_size = static_cast<int64_t>(mine.size());
  for (int q = 0; q < ranks; ++q) {
    if (q == me) continue;
    std::vector<char> bytes(sizeof my_size);
    std::memcpy(bytes.data(), &my_size, sizeof my_size);
    send(q, next_tag(me, q), std::move(bytes));
    {
      std::lock_guard lock(mu);
      ++pending;
    }
    receive(q, next_tag(q, me), reinterpret_cast<char*>(&sizes[static_cast<size_t>(q)]), sizeof my_size, arrived);
  }
  wait_all();
  for (int q = 0; q < ranks; ++q) {
    if (q == me) continue;
    if (my_size > 0) send(q, next_tag(me, q), std::vector<char>(mine.begin(), mine.end()));
    if (sizes[static_cast<size_t>(q)] > 0) {
      std::string& text = all[static_cast<size_t>(q)];
      text.resize(static_cast<size_t>(sizes[static_cast<size_t>(q)]));
      {
        std::lock_guard lock(mu);
        ++pending;
      }
      receive(q, next_tag(q, me), text.data(), sizes[static_cast<size_t>(q)], arrived);
    }
  }
  wait_all();
  return all;
}

void Channel::post(Request& r) {
  // An empty message still travels, so that the receiver's count of messages matches.
  int64_t offset = 0;
  do {
    const int count = static_cast<int>(std::min(kMaxPiece, r.size - offset));
    MPI_Request q;
    if (r.is_send) MPI_Isend(r.buffer + offset, count, MPI_BYTE, r.peer, r.tag, MPI_COMM_WORLD, &q);
    else MPI_Irecv(r.buffer + offset, count, MPI_BYTE, r.peer, r.tag, MPI_COMM_WORLD, &q);
    r.pieces.push_back(q);
    offset += count;
  } while (offset < r.size);
  r.remaining = static_cast<int>(r.pieces.size());
}

void Channel::loop() {
  std::vector<Request*> active;
  std::vector<MPI_Request> handles;
  std::vector<std::pair<Request*, int>> owners;  // handle index -> (request, piece)
  std::vector<int> indices;
  // Messages tend to come in bursts (a copy answers a copy): right after one is posted or
  // completes, poll without sleeping; after that, sleep between polls, but briefly, since
  // a task may be waiting for the next message.
  using Clock = std::chrono::steady_clock;
  constexpr auto kBusy = std::chrono::microseconds(200), kPause = std::chrono::microseconds(100);
  auto last_activity = Clock::now();
  while (true) {
    std::vector<Request*> fresh;
    {
      std::unique_lock lock(mu_);
      const bool only_watching = std::all_of(active.begin(), active.end(), [](Request* r) { return r->watch; });
      if (active.empty() && incoming_.empty()) {
        if (stop_) return;
        cv_.wait(lock, [&] { return stop_ || !incoming_.empty(); });
        if (incoming_.empty()) return;
      } else if (only_watching && incoming_.empty()) {
        // Nothing but exit announcements to wait for: they may come late.
        cv_.wait_for(lock, std::chrono::milliseconds(5), [&] { return stop_ || !incoming_.empty(); });
      } else if (incoming_.empty() && Clock::now() - last_activity > kBusy) {
        cv_.wait_for(lock, kPause, [&] { return !incoming_.empty(); });  // wakes at once for new work
      }
      fresh.swap(incoming_);
    }
    for (Request* r : fresh) {
      post(*r);
      active.push_back(r);
    }
    handles.clear();
    owners.clear();
    for (Request* r : active)
      for (size_t i = 0; i < r->pieces.size(); ++i)
        if (r->pieces[i] != MPI_REQUEST_NULL) {
          handles.push_back(r->pieces[i]);
          owners.emplace_back(r, static_cast<int>(i));
        }
    if (handles.empty()) continue;
    indices.resize(handles.size());
    int completed = 0;
    MPI_Testsome(static_cast<int>(handles.size()), handles.data(), &completed, indices.data(), MPI_STATUSES_IGNORE);
    if (completed == MPI_UNDEFINED || completed == 0) {
      if (fresh.empty()) sched_yield();
      else last_activity = Clock::now();
      continue;
    }
    last_activity = Clock::now();
    int64_t finished = 0;
    for (int k = 0; k < completed; ++k) {
      auto [r, piece] = owners[static_cast<size_t>(indices[static_cast<size_t>(k)])];
      r->pieces[static_cast<size_t>(piece)] = MPI_REQUEST_NULL;
      if (--r->remaining > 0) continue;
      if (!r->is_send) {
        g_bytes_received += r->size;
        ++g_messages_received;
        if (r->done) r->done();
      }
      ++finished;
    }
    std::erase_if(active, [](Request* r) {
      if (r->remaining > 0) return false;
      delete r;
      return true;
    });
    std::lock_guard lock(mu_);
    outstanding_ -= finished;
  }
}

}  // namespace tessera::detail
