// setup_rank_output: where a rank's stdout and stderr go. Each case runs in a forked child
// whose descriptors 1 and 2 are files, since the setup rewires the process's descriptors.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "comm/rank_setup.h"

namespace tessera::detail {
namespace {

struct Captured {
  std::string out;
  std::string err;
  int status = -1;
};

std::string read_file(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// Runs `body` in a child process with stdout and stderr going to files; returns both.
Captured run_child(const std::function<void()>& body) {
  char out_path[] = "/tmp/tessera_rank_out_XXXXXX";
  char err_path[] = "/tmp/tessera_rank_err_XXXXXX";
  const int out = ::mkstemp(out_path);
  const int err = ::mkstemp(err_path);
  std::fflush(nullptr);
  const pid_t child = ::fork();
  if (child == 0) {
    ::alarm(30);  // a hang ends the child, and the test fails on its status
    ::dup2(out, 1);
    ::dup2(err, 2);
    body();
    finish_rank_output();
    std::fflush(nullptr);
    ::_exit(0);
  }
  Captured captured;
  ::waitpid(child, &captured.status, 0);
  captured.out = read_file(out_path);
  captured.err = read_file(err_path);
  ::close(out);
  ::close(err);
  std::remove(out_path);
  std::remove(err_path);
  return captured;
}

RankPlacement rank_of(int rank, int ranks) {
  RankPlacement p;
  p.rank = rank;
  p.ranks = ranks;
  p.local_rank = rank % 2;
  p.local_ranks = ranks < 2 ? 1 : 2;
  p.launched = true;
  return p;
}

void say(int fd, const std::string& text) {
  if (::write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) ::_exit(3);
}

TEST(RankOutputTest, ShowAllPrefixesEveryLineOfBothStreams) {
  Captured c = run_child([] {
    setup_rank_output(true, rank_of(1, 2));
    setup_rank_output(true, rank_of(1, 2));  // idempotent
    say(1, "first\n");
    std::printf("from printf\n");
    std::fflush(stdout);
    std::fprintf(stderr, "an error\n");
    // Child processes inherit the pipes: their lines are forwarded too.
    if (std::system("echo from a child process") != 0) say(2, "system failed\n");
    say(1, "unfinished");
    finish_rank_output();
    say(1, "after finish\n");
  });
  EXPECT_TRUE(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0) << c.status;
  EXPECT_EQ(c.out,
            "[rank 1] first\n[rank 1] from printf\n[rank 1] from a child process\n"
            "[rank 1] unfinished\nafter finish\n");
  EXPECT_EQ(c.err, "[rank 1] an error\n");
}

TEST(RankOutputTest, NoLineIsLostInALongOutput) {
  constexpr int kLines = 20000;
  Captured c = run_child([] {
    setup_rank_output(true, rank_of(0, 3));
    for (int i = 0; i < kLines; ++i) std::printf("line %d of a long output\n", i);
  });
  std::string expected;
  for (int i = 0; i < kLines; ++i) {
    expected += "[rank 0] line " + std::to_string(i) + " of a long output\n";
  }
  EXPECT_TRUE(WIFEXITED(c.status)) << c.status;
  EXPECT_EQ(c.out.size(), expected.size());
  EXPECT_TRUE(c.out == expected);
}

TEST(RankOutputTest, OtherRanksAreSilencedButReachTheTerminalOnFailure) {
  Captured c = run_child([] {
    setup_rank_output(false, rank_of(1, 2));
    say(1, "hidden stdout\n");
    say(2, "hidden stderr\n");
    write_to_terminal("tessera: rank 1 failed\n");
    finish_rank_output();
    say(1, "still hidden while exiting\n");
  });
  EXPECT_EQ(c.out, "");
  EXPECT_EQ(c.err, "tessera: rank 1 failed\n");
}

TEST(RankOutputTest, TerminalMessageComesAfterTheLinesBeforeIt) {
  Captured c = run_child([] {
    setup_rank_output(true, rank_of(1, 2));
    for (int i = 0; i < 100; ++i) say(2, "traceback line " + std::to_string(i) + "\n");
    say(2, "no newline yet");
    write_to_terminal("tessera: rank 1 failed\n");
  });
  std::string expected;
  for (int i = 0; i < 100; ++i) expected += "[rank 1] traceback line " + std::to_string(i) + "\n";
  expected += "[rank 1] no newline yet\ntessera: rank 1 failed\n";
  EXPECT_EQ(c.err, expected);
}

TEST(RankOutputTest, RankZeroAndSingleRanksAreUnchanged) {
  Captured zero = run_child([] {
    setup_rank_output(false, rank_of(0, 2));
    say(1, "rank zero\n");
    say(2, "rank zero error\n");
  });
  EXPECT_EQ(zero.out, "rank zero\n");
  EXPECT_EQ(zero.err, "rank zero error\n");
  Captured alone = run_child([] {
    setup_rank_output(true, rank_of(0, 1));
    say(1, "alone\n");
  });
  EXPECT_EQ(alone.out, "alone\n");
}

}  // namespace
}  // namespace tessera::detail
