// Reading flags from words: boolean words, one flag and its value, TESSERA_CONFIG's word
// splitting and its inverse, shell_quote.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/config.h"

namespace tessera {
namespace {

const MachineInfo kMachine{8, int64_t{16} << 30, 1};

using Words = std::vector<std::string>;

TEST(ConfigWordsTest, SplitsOnAnyBlanks) {
  EXPECT_EQ(split_config_words("", "T"), Words{});
  EXPECT_EQ(split_config_words(" \t\n ", "T"), Words{});
  EXPECT_EQ(split_config_words(" --a  --b=1\t--c\n2 ", "T"), (Words{"--a", "--b=1", "--c", "2"}));
}

TEST(ConfigWordsTest, HonoursQuotesAndBackslashes) {
  EXPECT_EQ(split_config_words("--logdir='a b' x", "T"), (Words{"--logdir=a b", "x"}));
  EXPECT_EQ(split_config_words("\"a \\\"q\\\" b\"", "T"), Words{"a \"q\" b"});
  EXPECT_EQ(split_config_words("a\\ b ''", "T"), (Words{"a b", ""}));
  EXPECT_EQ(split_config_words("'it'\\''s'", "T"), Words{"it's"});
}

TEST(ConfigWordsTest, UnterminatedQuoteIsAnError) {
  try {
    split_config_words("--logdir \"open", "SOURCE");
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& error) {
    EXPECT_STREQ(error.what(), "SOURCE: unterminated double quote in '--logdir \"open'");
  }
}

TEST(ConfigWordsTest, ShellQuoteRoundTrips) {
  EXPECT_EQ(shell_quote("--cpus=4"), "--cpus=4");
  EXPECT_EQ(shell_quote("/usr/bin/python3"), "/usr/bin/python3");
  EXPECT_EQ(shell_quote(""), "''");
  EXPECT_EQ(shell_quote("a b"), "'a b'");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  for (std::string word : {"a b", "it's", "$HOME", "x\"y", "tab\there", ""}) {
    EXPECT_EQ(split_config_words(shell_quote(word), "T"), Words{word}) << word;
  }
}

class BoolWordTest : public testing::TestWithParam<std::pair<const char*, bool>> {};

TEST_P(BoolWordTest, EveryFormWithAndWithoutEquals) {
  auto [word, expected] = GetParam();
  EXPECT_EQ(parse_config(std::string("--profile=") + word, kMachine).profile, expected);
  EXPECT_EQ(parse_config(std::string("--profile ") + word, kMachine).profile, expected);
  EXPECT_EQ(parse_config(std::string("--profile ") + word + " --cpus 2", kMachine).cpus, 2);
  EXPECT_EQ(parse_bool_word(word), expected);
}

INSTANTIATE_TEST_SUITE_P(AllWords, BoolWordTest,
                         testing::Values(std::pair{"1", true}, std::pair{"t", true}, std::pair{"true", true},
                                         std::pair{"y", true}, std::pair{"yes", true}, std::pair{"TRUE", true},
                                         std::pair{"Yes", true}, std::pair{"0", false}, std::pair{"f", false},
                                         std::pair{"false", false}, std::pair{"n", false}, std::pair{"no", false},
                                         std::pair{"NO", false}, std::pair{"False", false}),
                         [](const auto& info) { return std::to_string(info.index) + "_" + info.param.first; });

TEST(FlagReaderTest, ReadsOneFlagAndMovesPastItsValue) {
  const Words words = {"--profile", "no", "--cpus", "4", "--logdir=a=b", "--show-config", "x"};
  size_t pos = 0;
  auto profile = read_flag(words, pos, config_flags(), "T");
  ASSERT_TRUE(profile);
  EXPECT_EQ(profile->spec->name, "profile");
  EXPECT_EQ(profile->value, "0");
  EXPECT_EQ(pos, 2u);
  EXPECT_EQ(read_flag(words, pos, config_flags(), "T")->value, "4");
  EXPECT_EQ(read_flag(words, pos, config_flags(), "T")->value, "a=b");
  EXPECT_EQ(read_flag(words, pos, config_flags(), "T")->value, "1");
  EXPECT_EQ(pos, 6u);  // "x" is not a boolean word, so it is left for the caller
}

TEST(FlagReaderTest, LeavesAnUnknownFlagInPlace) {
  const Words words = {"--nodes=2"};
  size_t pos = 0;
  EXPECT_FALSE(read_flag(words, pos, config_flags(), "T"));
  EXPECT_EQ(pos, 0u);
  EXPECT_EQ(unknown_flag_error(words[0], "T", config_flags()).what(), std::string("T: unknown flag '--nodes'"));
}

}  // namespace
}  // namespace tessera
