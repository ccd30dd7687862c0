// placement_from_environment: a rank's place in the run as OpenMPI, MPICH, PMIx and SLURM
// describe it, and the errors for variables that are malformed or disagree.
#include <gtest/gtest.h>

#include <string>

#include "comm/rank_setup.h"
#include "config/config.h"
#include "scoped_environment.h"

namespace tessera::detail {
namespace {

using testing::ScopedEnvironment;

std::string placement_error() {
  try {
    placement_from_environment();
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "";
}

void expect_placement(int rank, int ranks, int local_rank, int local_ranks, const std::string& source) {
  RankPlacement p = placement_from_environment();
  EXPECT_TRUE(p.launched);
  EXPECT_EQ(p.rank, rank);
  EXPECT_EQ(p.ranks, ranks);
  EXPECT_EQ(p.local_rank, local_rank);
  EXPECT_EQ(p.local_ranks, local_ranks);
  EXPECT_EQ(p.source, source);
  EXPECT_FALSE(p.ranks_from_mpi);
}

TEST(RankPlacementTest, NoLauncherIsOneRank) {
  ScopedEnvironment environment;
  RankPlacement p = placement_from_environment();
  EXPECT_FALSE(p.launched);
  EXPECT_EQ(p.rank, 0);
  EXPECT_EQ(p.ranks, 1);
  EXPECT_EQ(p.local_ranks, 1);
  EXPECT_EQ(p.source, "");
}

TEST(RankPlacementTest, OpenMpi) {
  ScopedEnvironment environment;
  environment.set("OMPI_COMM_WORLD_RANK", "3")
      .set("OMPI_COMM_WORLD_SIZE", "4")
      .set("OMPI_COMM_WORLD_LOCAL_RANK", "1")
      .set("OMPI_COMM_WORLD_LOCAL_SIZE", "2")
      .set("PMIX_RANK", "3");
  expect_placement(3, 4, 1, 2, "OpenMPI");
}

TEST(RankPlacementTest, OpenMpiAloneIsLaunchedEvenWithOneRank) {
  ScopedEnvironment environment;
  environment.set("OMPI_COMM_WORLD_RANK", "0").set("OMPI_COMM_WORLD_SIZE", "1");
  expect_placement(0, 1, 0, 1, "OpenMPI");
}

TEST(RankPlacementTest, MpichHydra) {
  ScopedEnvironment environment;
  environment.set("PMI_RANK", "5").set("PMI_SIZE", "8").set("MPI_LOCALRANKID", "1").set("MPI_LOCALNRANKS", "4");
  expect_placement(5, 8, 1, 4, "MPICH");
}

TEST(RankPlacementTest, SlurmJobStep) {
  ScopedEnvironment environment;
  environment.set("SLURM_STEP_ID", "0")
      .set("SLURM_PROCID", "5")
      .set("SLURM_NTASKS", "6")
      .set("SLURM_LOCALID", "1")
      .set("SLURM_NODEID", "2")
      .set("SLURM_TASKS_PER_NODE", "2(x3)");
  expect_placement(5, 6, 1, 2, "SLURM");
}

TEST(RankPlacementTest, SlurmStepCountsWinOverTheJobs) {
  ScopedEnvironment environment;
  environment.set("SLURM_STEP_ID", "1")
      .set("SLURM_PROCID", "1")
      .set("SLURM_NTASKS", "8")
      .set("SLURM_STEP_NUM_TASKS", "2")
      .set("SLURM_LOCALID", "1")
      .set("SLURM_TASKS_PER_NODE", "4(x2)")
      .set("SLURM_STEP_TASKS_PER_NODE", "2");
  expect_placement(1, 2, 1, 2, "SLURM");
}

TEST(RankPlacementTest, SlurmTasksPerNodeIsReadAtThisNode) {
  ScopedEnvironment environment;
  environment.set("SLURM_STEP_ID", "0")
      .set("SLURM_PROCID", "6")
      .set("SLURM_NTASKS", "7")
      .set("SLURM_LOCALID", "0")
      .set("SLURM_NODEID", "3")
      .set("SLURM_TASKS_PER_NODE", "2(x3),1");
  expect_placement(6, 7, 0, 1, "SLURM");
  environment.set("SLURM_NODEID", "4");
  EXPECT_EQ(placement_error(), "tessera: SLURM_NODEID='4' but SLURM_TASKS_PER_NODE='2(x3),1' lists only 4 nodes");
  environment.unset("SLURM_TASKS_PER_NODE").set("SLURM_NTASKS_PER_NODE", "3");
  expect_placement(6, 7, 0, 3, "SLURM");
}

TEST(RankPlacementTest, SlurmBatchScriptIsNotARank) {
  // sbatch and salloc set SLURM_PROCID for the script's shell, but no job step.
  ScopedEnvironment environment;
  environment.set("SLURM_PROCID", "0")
      .set("SLURM_NTASKS", "4")
      .set("SLURM_LOCALID", "0")
      .set("SLURM_TASKS_PER_NODE", "2(x2)");
  EXPECT_FALSE(placement_from_environment().launched);
}

TEST(RankPlacementTest, SlurmFillsInWhatPmiLeavesOut) {
  ScopedEnvironment environment;
  environment.set("PMIX_RANK", "2")
      .set("SLURM_STEP_ID", "0")
      .set("SLURM_PROCID", "2")
      .set("SLURM_NTASKS", "4")
      .set("SLURM_LOCALID", "0")
      .set("SLURM_STEP_TASKS_PER_NODE", "2(x2)");
  expect_placement(2, 4, 0, 2, "PMIx");
  environment.unset("PMIX_RANK").set("PMI_RANK", "2");
  expect_placement(2, 4, 0, 2, "MPICH");
}

TEST(RankPlacementTest, PmixAloneLeavesTheCountToMpi) {
  ScopedEnvironment environment;
  environment.set("PMIX_RANK", "3");
  RankPlacement p = placement_from_environment();
  EXPECT_TRUE(p.launched);
  EXPECT_TRUE(p.ranks_from_mpi);
  EXPECT_EQ(p.rank, 3);
  EXPECT_EQ(p.ranks, 4);  // at least
  EXPECT_EQ(p.source, "PMIx");
}

TEST(RankPlacementTest, MalformedValuesNameTheVariable) {
  ScopedEnvironment environment;
  environment.set("OMPI_COMM_WORLD_SIZE", "two").set("OMPI_COMM_WORLD_RANK", "0");
  EXPECT_EQ(placement_error(),
            "tessera: OMPI_COMM_WORLD_SIZE='two' is not a count: expected a whole number from 1 "
            "(the launcher that started this process sets it)");
  environment.set("OMPI_COMM_WORLD_SIZE", "2").set("OMPI_COMM_WORLD_RANK", "-1");
  EXPECT_EQ(placement_error(),
            "tessera: OMPI_COMM_WORLD_RANK='-1' is not a rank: expected a whole number from 0 "
            "(the launcher that started this process sets it)");
  environment.set("OMPI_COMM_WORLD_RANK", "1x");
  EXPECT_NE(placement_error().find("OMPI_COMM_WORLD_RANK='1x'"), std::string::npos);
  environment.set("OMPI_COMM_WORLD_RANK", "").set("OMPI_COMM_WORLD_SIZE", "0");
  EXPECT_NE(placement_error().find("OMPI_COMM_WORLD_SIZE='0'"), std::string::npos);
  environment.unset("OMPI_COMM_WORLD_SIZE").unset("OMPI_COMM_WORLD_RANK");
  environment.set("SLURM_STEP_ID", "0")
      .set("SLURM_PROCID", "0")
      .set("SLURM_NTASKS", "2")
      .set("SLURM_TASKS_PER_NODE", "2(x");
  EXPECT_EQ(placement_error(),
            "tessera: SLURM_TASKS_PER_NODE='2(x' is not a list of task counts: expected e.g. 2 "
            "or 2(x3),1");
}

TEST(RankPlacementTest, MissingOrInconsistentVariablesAreErrors) {
  ScopedEnvironment environment;
  environment.set("OMPI_COMM_WORLD_SIZE", "2");
  EXPECT_EQ(placement_error(),
            "tessera: OMPI_COMM_WORLD_SIZE is set but OMPI_COMM_WORLD_RANK is not: cannot tell "
            "this process's place in the run");
  environment.set("OMPI_COMM_WORLD_RANK", "2");
  EXPECT_EQ(placement_error(), "tessera: the OpenMPI launcher's variables disagree: rank 2 of only 2 ranks");
  environment.set("OMPI_COMM_WORLD_RANK", "1")
      .set("OMPI_COMM_WORLD_LOCAL_RANK", "3")
      .set("OMPI_COMM_WORLD_LOCAL_SIZE", "2");
  EXPECT_EQ(placement_error(),
            "tessera: the OpenMPI launcher's variables disagree: local rank 3 of only 2 ranks on "
            "this node");
  environment.unset("OMPI_COMM_WORLD_SIZE").unset("OMPI_COMM_WORLD_RANK");
  environment.set("SLURM_STEP_ID", "0").set("SLURM_PROCID", "0");
  EXPECT_NE(placement_error().find("cannot tell how many ranks"), std::string::npos);
}

TEST(RankPlacementTest, SharedNodeSplitsTheAutoConfiguration) {
  ScopedEnvironment environment;
  environment.set("TESSERA_CONFIG", "").set("TESSERA_TEST", "0");
  const Config alone = config_from_environment();
  environment.set("OMPI_COMM_WORLD_RANK", "1")
      .set("OMPI_COMM_WORLD_SIZE", "2")
      .set("OMPI_COMM_WORLD_LOCAL_RANK", "1")
      .set("OMPI_COMM_WORLD_LOCAL_SIZE", "2");
  const Config shared = config_from_environment();
  // Memory is split whether or not the process is bound; sizes round down to MiB.
  EXPECT_NEAR(static_cast<double>(shared.sysmem_mib), alone.sysmem_mib / 2.0, 1.0);
  environment.set("TESSERA_CONFIG", "--sysmem=300");
  EXPECT_EQ(config_from_environment().sysmem_mib, 300);
}

}  // namespace
}  // namespace tessera::detail
