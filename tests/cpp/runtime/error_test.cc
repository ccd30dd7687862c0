// Task errors: an exception thrown by a point task is kept and re-raised, as the same type
// and message, at the next sync point (fence, or a read of a value); only once; dependents
// still run so nothing hangs; and the runtime stays usable afterwards. A tiny operation run
// inline raises at the call itself.
#include <gtest/gtest.h>

#include <stdexcept>

#include "runtime_fixture.h"
#include "tessera/tessera.h"

namespace tessera {
namespace {

using detail::Rect;
using detail::Runtime;
using testing::LambdaOp;
using testing::private_config;

template <class E>
std::shared_ptr<LambdaOp> thrower(const detail::StorePtr& out, std::string message, bool one_tile = true) {
  return std::make_shared<LambdaOp>(
      "thrower", out->shape(), std::vector{testing::writes(out)}, [message](const Rect&) { throw E(message); },
      one_tile);
}

std::shared_ptr<LambdaOp> filler(const detail::StorePtr& out, double value) {
  return std::make_shared<LambdaOp>("fill", out->shape(), std::vector{testing::writes(out)},
                                    [out, value](const Rect& tile) {
                                      for (int64_t i = tile.lo[0]; i < tile.hi[0]; ++i) testing::at(out, {i}) = value;
                                    });
}

TEST(ErrorTest, TaskErrorReRaisesAtTheNextFenceWithItsTypeAndMessage) {
  Runtime rt(private_config(2));
  auto x = testing::store_in(rt.sysmem_ptr(), {8});
  rt.submit(thrower<ValueError>(x, "bad value 7"));  // returns: the error is deferred
  try {
    rt.fence();
    FAIL() << "fence did not raise";
  } catch (const ValueError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("bad value 7", 0), 0u) << e.what();  // then the operation
  }
  EXPECT_NO_THROW(rt.fence());  // raised once
}

TEST(ErrorTest, EveryErrorTypeKeepsItsType) {
  Runtime rt(private_config(2));
  auto x = testing::store_in(rt.sysmem_ptr(), {8});
  rt.submit(thrower<IndexError>(x, "index"));
  EXPECT_THROW(rt.fence(), IndexError);
  rt.submit(thrower<LinAlgError>(x, "Singular matrix"));
  EXPECT_THROW(rt.fence(), LinAlgError);
  rt.submit(thrower<TypeError>(x, "type"));
  EXPECT_THROW(rt.fence(), TypeError);
  rt.submit(thrower<std::logic_error>(x, "internal"));
  EXPECT_THROW(rt.fence(), std::logic_error);
}

// Every kind of tessera/error_kinds.def: re-raised as its class, with the operation named
// after the message where its row says the runtime adds it.
TEST(ErrorTest, EveryErrorKindKeepsItsClassAndGainsItsOperation) {
  Runtime rt(private_config(2));
  auto x = testing::store_in(rt.sysmem_ptr(), {8});
  int kinds = 0;
#define TESSERA_ERROR_KIND(CLASS, CODE, MODULE, NAME, CONTEXT)                                   \
  rt.submit(thrower<CLASS>(x, #CLASS " raised"));                                                \
  try {                                                                                          \
    rt.fence();                                                                                  \
    ADD_FAILURE() << #CLASS " was not raised";                                                   \
  } catch (const CLASS& e) {                                                                     \
    const std::string what = e.what();                                                           \
    EXPECT_EQ(what.rfind(#CLASS " raised", 0), 0u) << what;                                      \
    EXPECT_EQ(what.find("[in operation 'thrower'") != std::string::npos, bool(CONTEXT)) << what; \
  }                                                                                              \
  ++kinds;
#include "tessera/error_kinds.def"
  EXPECT_GE(kinds, 9);
}

TEST(ErrorTest, RuntimeStaysUsableAfterAnError) {
  Runtime rt(private_config(2));
  auto x = testing::store_in(rt.sysmem_ptr(), {100}), y = testing::store_in(rt.sysmem_ptr(), {100});
  rt.submit(thrower<ValueError>(x, "boom", /*one_tile=*/false));  // every tile throws: one error
  EXPECT_THROW(rt.fence(), ValueError);
  rt.submit(filler(y, 2.5));
  rt.submit(filler(x, -1.0));
  EXPECT_NO_THROW(rt.fence());
  for (int64_t i = 0; i < 100; ++i) {
    EXPECT_EQ(testing::at(y, {i}), 2.5);
    EXPECT_EQ(testing::at(x, {i}), -1.0);
  }
}

TEST(ErrorTest, DependentsOfAFailedTaskStillRunAndTheFirstErrorWins) {
  testing::Watchdog dog(std::chrono::seconds(60), "ErrorTest.DependentsOfAFailedTaskStillRunAndTheFirstErrorWins");
  Runtime rt(private_config(2));
  auto x = testing::store_in(rt.sysmem_ptr(), {8}), y = testing::store_in(rt.sysmem_ptr(), {8});
  std::atomic<int> after{0};
  rt.submit(thrower<ValueError>(x, "first"));
  rt.submit(std::make_shared<LambdaOp>(
      "reads x", detail::Shape{8}, std::vector{testing::writes(y), testing::reads(x)},
      [&](const Rect&) {
        ++after;
        throw IndexError("second");
      },
      true));
  try {
    rt.fence();
    FAIL() << "fence did not raise";
  } catch (const ValueError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("first", 0), 0u) << e.what();
  }
  EXPECT_EQ(after.load(), 1);
  EXPECT_NO_THROW(rt.fence());
}

TEST(ErrorTest, InlineOperationRaisesAtTheCall) {
  Runtime rt(private_config(2, /*min_chunk=*/1000));
  auto x = testing::store_in(rt.sysmem_ptr(), {8});
  EXPECT_THROW(rt.submit(thrower<ValueError>(x, "inline")), ValueError);
  rt.submit(filler(x, 4.0));  // runs inline too
  EXPECT_EQ(testing::at(x, {7}), 4.0);
  EXPECT_NO_THROW(rt.fence());
}

// Through the C++ API: the error surfaces when the program reads a value.
TEST(ErrorTest, ErrorSurfacesAtAReadAndArraysStillWork) {
  testing::Watchdog dog(std::chrono::seconds(60), "ErrorTest.ErrorSurfacesAtAReadAndArraysStillWork");
  testing::ScopedConfig config("--auto-config=0 --cpus=2 --test=1");
  ndarray a = zeros({64});
  detail::Runtime::get().submit(thrower<ValueError>(a.store(), "from a task"));
  ndarray b = a + 1.0;
  EXPECT_THROW(b.item(0), ValueError);
  ndarray c = arange(Scalar(0), Scalar(64), Scalar(1), DType::Float64) * 2.0;
  const auto v = c.to_vector<double>();
  for (int i = 0; i < 64; ++i) ASSERT_EQ(v[i], 2.0 * i);
}

// DESIGN §3: a task's exception is captured with the operation's provenance.
TEST(ErrorTest, TaskErrorNamesTheOperationsProvenance) {
  Runtime rt(private_config(2));
  auto x = testing::store_in(rt.sysmem_ptr(), {8});
  Runtime::set_provenance("solver.cc:42");
  rt.submit(thrower<ValueError>(x, "bad"));
  Runtime::set_provenance("");
  try {
    rt.fence();
    FAIL() << "fence did not raise";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("solver.cc:42"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tessera
