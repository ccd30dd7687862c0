// The binding lists: --KIND-bind values checked entry by entry, and the TESSERA_BIND text
// that carries them from the launcher to every rank.
#include "config/binding_lists.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/config.h"

namespace tessera {
namespace {

using Words = std::vector<std::string>;

std::string list_error(std::string_view kind, std::string_view list) {
  try {
    parse_binding_list(kind, list, "tessera");
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "";
}

std::string decode_error(std::string_view text) {
  try {
    decode_bindings(text);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "";
}

TEST(BindingListsTest, IndexLists) {
  auto ranges = parse_index_list("0-3,8,10-11");
  ASSERT_TRUE(ranges);
  ASSERT_EQ(ranges->size(), 3u);
  EXPECT_EQ((*ranges)[0].first, 0);
  EXPECT_EQ((*ranges)[0].last, 3);
  EXPECT_EQ((*ranges)[1].first, 8);
  EXPECT_EQ((*ranges)[1].last, 8);
  EXPECT_EQ((*ranges)[2].last, 11);
  for (const char* bad : {"", "3-1", "1,", ",1", "a", "1-", "-1", "1--2", "1 ,2", "1234567890"}) {
    EXPECT_FALSE(parse_index_list(bad)) << bad;
  }
}

TEST(BindingListsTest, EntriesPerRank) {
  EXPECT_EQ(parse_binding_list("cpu", "0-7/8-15", "tessera"), (Words{"0-7", "8-15"}));
  EXPECT_EQ(parse_binding_list("gpu", "0,1/2,3", "tessera"), (Words{"0,1", "2,3"}));
  EXPECT_EQ(parse_binding_list("nic", "eth0/mlx5_0:1,ib0", "tessera"), (Words{"eth0", "mlx5_0:1,ib0"}));
  EXPECT_EQ(list_error("cpu", "0-3/x"),
            "tessera: invalid value '0-3/x' for --cpu-bind: expected one entry per rank on a "
            "node, separated by / (e.g. 0-15/16-31), each entry CPU numbers and ranges (0-3,8)");
  EXPECT_NE(list_error("mem", "0//1").find("NUMA node numbers"), std::string::npos);
  EXPECT_NE(list_error("gpu", "0/").find("--gpu-bind"), std::string::npos);
  // Nothing that would break TESSERA_BIND or a shell word.
  for (const char* bad : {"eth0;x", "eth0=1", "eth 0", "eth0,", "", "$(x)"}) {
    EXPECT_NE(list_error("nic", bad).find("network interface names"), std::string::npos) << bad;
  }
}

TEST(BindingListsTest, TesseraBindRoundTrips) {
  BindingLists lists = {{"nic", {"eth0", "eth1"}}, {"cpu", {"0-7", "8-15"}}, {"mem", {"0", "1"}}};
  const std::string text = encode_bindings(lists);
  EXPECT_EQ(text, "cpu=0-7/8-15;mem=0/1;nic=eth0/eth1");
  EXPECT_EQ(decode_bindings(text), lists);
  EXPECT_EQ(encode_bindings({}), "");
  EXPECT_TRUE(decode_bindings("").empty());
}

TEST(BindingListsTest, MalformedTesseraBindNamesWhatItCannotRead) {
  EXPECT_EQ(decode_error("cpu=0/1;memory=0/1"),
            "TESSERA_BIND: cannot read 'memory=0/1' in 'cpu=0/1;memory=0/1': expected KIND=LIST "
            "parts separated by ; with KIND cpu, mem, gpu or nic (e.g. cpu=0-7/8-15;mem=0/1)");
  EXPECT_NE(decode_error("cpu").find("cannot read 'cpu'"), std::string::npos);
  EXPECT_NE(decode_error("cpu=0/1;").find("cannot read ''"), std::string::npos);
  EXPECT_NE(decode_error("gpu=a").find("TESSERA_BIND: invalid value 'a' for --gpu-bind"), std::string::npos);
}

}  // namespace
}  // namespace tessera
