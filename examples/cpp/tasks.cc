// User tasks with constraints (tessera/task.h): a scaled add with a broadcast vector, a
// reduction into a scalar, a 3-point stencil over a framed array (bloat), a reduction into
// an array whose tiles overlap, a filter (an unbound output) and a gather through its
// indices (image). Each result is checked against a host loop; exits 1 if one differs.
//
//     build/cpp/tasks -n 100000
//     mpirun -n 2 build/cpp/tasks -n 100000
//
// The values are small integers and halves, so every sum is exact: the printed numbers are
// the same for any number of workers, tiles or ranks.
#include <tessera/constraint.h>
#include <tessera/task.h>
#include <tessera/tessera.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace {

using tessera::ndarray;
using tessera::TaskContext;

// y = a * x + sum(w): x and y cut alike, w whole on every point.
const tessera::Task scaled_add("scaled_add", [](TaskContext& ctx) {
  auto y = ctx.array(0).view<double, 1>();
  auto x = ctx.array(1).view<const double, 1>();
  auto w = ctx.array(2).view<const double, 1>();
  const double a = ctx.scalar(0).as_double();
  double s = 0;
  for (int64_t i = 0; i < w.extent(0); ++i) s += w(i);
  for (int64_t i = 0; i < y.extent(0); ++i) y(i) = a * x(i) + s;
});

// dot += x . y: each point adds into its private copy of the scalar; the copies are combined
// by one fixed pairwise tree after the launch.
const tessera::Task dot("dot", [](TaskContext& ctx) {
  auto x = ctx.array(0).view<const double, 1>();
  auto y = ctx.array(1).view<const double, 1>();
  auto acc = ctx.array(2).view<double, 0>();
  for (int64_t i = 0; i < x.extent(0); ++i) acc() += x(i) * y(i);
});

// out[i] = (u[i] + 2 u[i + 1] + u[i + 2]) / 2 for u framed by one element on each side: a
// tile of out reads the same box of u plus one element below and above (bloat).
const tessera::Task smooth("smooth", [](TaskContext& ctx) {
  auto out = ctx.array(0).view<double, 1>();
  auto u = ctx.array(1).view<const double, 1>();
  for (int64_t i = 0; i < out.extent(0); ++i) out(i) = (u(i) + 2 * u(i + 1) + u(i + 2)) / 2;
});

// hist[j] += x[i] for j in {i - 1, i, i + 1}: neighbouring points' tiles of hist overlap
// (a clipped bloat), and the fold adds their contributions.
const tessera::Task scatter("scatter", [](TaskContext& ctx) {
  auto x = ctx.array(0).view<const double, 1>();
  auto hist = ctx.array(1).view<double, 1>();
  const int64_t n = ctx.array(1).array_shape()[0];
  for (int64_t i = 0; i < x.extent(0); ++i) {
    const int64_t g = x.lo(0) + i;  // the index in the whole array
    for (int64_t j = std::max<int64_t>(0, g - 1); j <= std::min<int64_t>(n - 1, g + 1); ++j)
      hist(j - hist.lo(0)) += x(i);
  }
});

// The positions of the elements above a threshold: an output whose size only the points know.
const tessera::Task above("above", [](TaskContext& ctx) {
  auto x = ctx.array(0).view<const double, 1>();
  const double threshold = ctx.scalar(0).as_double();
  std::vector<int64_t> where;
  for (int64_t i = 0; i < x.extent(0); ++i)
    if (x(i) > threshold) where.push_back(x.lo(0) + i);
  std::copy(where.begin(), where.end(), static_cast<int64_t*>(ctx.bind_output(1, static_cast<int64_t>(where.size()))));
});

// picked[i] = x[where[i]]: the tile of x a point needs is what its indices point at (image).
const tessera::Task gather("gather", [](TaskContext& ctx) {
  auto picked = ctx.array(0).view<double, 1>();
  auto where = ctx.array(1).view<const int64_t, 1>();
  auto x = ctx.array(2).view<const double, 1>();
  for (int64_t i = 0; i < picked.extent(0); ++i) picked(i) = x(where(i) - x.lo(0));
});

ndarray host_array(const std::vector<double>& v) {
  return tessera::from_host(v.data(), {static_cast<int64_t>(v.size())}, tessera::DType::Float64);
}

// Prints `name = value` and whether it matches `expected`.
bool report(const char* name, double got, double expected) {
  std::printf("%s = %.17g\n", name, got);
  if (got == expected) return true;
  std::fprintf(stderr, "tasks: %s is %.17g, the host loop gives %.17g\n", name, got, expected);
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  int64_t n = 100000;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-n" && i + 1 < argc) n = std::atoll(argv[++i]);
    else {
      std::fprintf(stderr, "usage: %s [-n N]\n", argv[0]);
      return 2;
    }
  }
  if (n < 1) {
    std::fprintf(stderr, "%s: -n must be positive\n", argv[0]);
    return 2;
  }
  try {
    tessera::RuntimeScope runtime;
    std::vector<double> x(n), w(16), u(n + 2);
    for (int64_t i = 0; i < n; ++i) x[i] = static_cast<double>(i % 7) - 3;
    for (int64_t i = 0; i < 16; ++i) w[i] = 0.5 * i;
    for (int64_t i = 0; i < n + 2; ++i) u[i] = static_cast<double>((i * 5) % 11);

    using tessera::align, tessera::bloat, tessera::broadcast, tessera::in, tessera::out;
    ndarray y = tessera::empty({n});
    tessera::launch(scaled_add, {out(y), in(host_array(x)), in(host_array(w))}, {tessera::Scalar(2.0)},
                    {align(0, 1), broadcast(2)});
    ndarray total = tessera::zeros({});
    tessera::launch(dot, {in(y), in(host_array(x)), tessera::reduce(total, tessera::Reduction::sum())}, {},
                    {align(0, 1), broadcast(2)});
    ndarray smoothed = tessera::empty({n});
    tessera::launch(smooth, {out(smoothed), in(host_array(u))}, {}, {bloat(1, 0, {1}, {1})});

    ndarray hist = tessera::zeros({n});
    tessera::launch(scatter, {in(host_array(x)), tessera::reduce(hist)}, {}, {bloat(1, 0, {1}, {1})});
    const ndarray where =
        tessera::launch(above, {in(y), tessera::unbound(tessera::DType::Int64)}, {tessera::Scalar(61.0)}).at(0);
    ndarray picked = tessera::empty(where.shape());
    tessera::launch(gather, {out(picked), in(where), in(y)}, {}, {align(0, 1), tessera::image(2, 1)});

    // The host loops.
    double ws = 0, hdot = 0, hsum_y = 0, hsum_s = 0;
    for (double v : w) ws += v;
    for (int64_t i = 0; i < n; ++i) {
      const double yi = 2.0 * x[i] + ws;
      hsum_y += yi;
      hdot += yi * x[i];
      hsum_s += (u[i] + 2 * u[i + 1] + u[i + 2]) / 2;
    }
    double hhist = 0, hpicked = 0;
    int64_t hcount = 0, hwhere = 0;
    for (int64_t i = 0; i < n; ++i) {
      hhist += x[i] * static_cast<double>((i > 0) + 1 + (i < n - 1));
      const double yi = 2.0 * x[i] + ws;
      if (yi > 61) ++hcount, hwhere += i, hpicked += yi;
    }
    bool ok = true;
    ok &= report("sum(y)", tessera::sum(y).item().as_double(), hsum_y);
    ok &= report("dot", total.item().as_double(), hdot);
    ok &= report("sum(smoothed)", tessera::sum(smoothed).item().as_double(), hsum_s);
    ok &= report("sum(hist)", tessera::sum(hist).item().as_double(), hhist);
    ok &= report("above", static_cast<double>(where.size()), static_cast<double>(hcount));
    ok &= report("sum(where)", static_cast<double>(tessera::sum(where).item().as_int()), static_cast<double>(hwhere));
    ok &= report("sum(picked)", tessera::sum(picked).item().as_double(), hpicked);
    const std::vector<double> ys = y.to_vector<double>(), ss = smoothed.to_vector<double>();
    for (int64_t i = 0; i < n && ok; ++i) {
      if (ys[i] != 2.0 * x[i] + ws || ss[i] != (u[i] + 2 * u[i + 1] + u[i + 2]) / 2) {
        std::fprintf(stderr, "tasks: element %lld differs from the host loop\n", static_cast<long long>(i));
        ok = false;
      }
    }
    std::printf("check = %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "tasks: " << e.what() << "\n";
    return 1;
  }
}
