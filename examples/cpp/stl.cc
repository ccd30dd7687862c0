// Jacobi sweeps with tessera/stl.h: no task written by hand. The same problem as
// examples/cpp/jacobi.cc (the 2-D Laplace equation on an N x N grid, top edge held at 1,
// the others at 0; every K sweeps the l2 norm of the change): each sweep is one
// stl::stencil from one grid into the other, and the norm one stl::transform_reduce.
// Prints the l2 norm, which equals jacobi.cc's and NumPy's for the same arguments, and
// checks it against plain loops on the host; exits 1 if they differ.
//
//     build/cpp/stl -n 200 --iters 60 -k 20
//     mpirun -n 2 build/cpp/stl -n 200 --iters 60 -k 20
#include <tessera/stl.h>
#include <tessera/tessera.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace {

using tessera::ndarray;

struct Options {
  int64_t n = 200;
  int iters = 60;
  int check_every = 20;
};

struct Result {
  int sweeps = 0;
  double l2 = 0;
};

/// The top row at 1, the rest 0.
std::vector<double> initial_grid(int64_t n) {
  std::vector<double> g(static_cast<size_t>(n * n), 0.0);
  for (int64_t j = 0; j < n; ++j) g[j] = 1.0;
  return g;
}

Result jacobi(const Options& o) {
  const std::vector<double> g = initial_grid(o.n);
  // Two grids with the same edges: a sweep writes one's interior from the other.
  ndarray p = tessera::from_host(g.data(), {o.n, o.n}, tessera::DType::Float64);
  ndarray q = tessera::copy(p);
  Result r;
  for (int it = 1; it <= o.iters; ++it) {
    tessera::stl::stencil<double>(p, q, 1, [](const auto& nb) {
      return 0.25 * (nb(0, 1) + nb(0, -1) + nb(1, 0) + nb(-1, 0));  // as jacobi.cc: east, west, south, north
    });
    std::swap(p, q);  // p: the new grid, q: the one before
    r.sweeps = it;
    if (it % o.check_every == 0 || it == o.iters)
      r.l2 = std::sqrt(tessera::stl::transform_reduce<double>(p, q, 0.0, std::plus<>(),
                                                              [](double a, double b) { return (a - b) * (a - b); }));
  }
  return r;
}

/// The same sweeps with plain loops.
Result jacobi_on_host(const Options& o) {
  const int64_t n = o.n;
  std::vector<double> p = initial_grid(n), q = p;
  Result r;
  for (int it = 1; it <= o.iters; ++it) {
    for (int64_t i = 1; i < n - 1; ++i)
      for (int64_t j = 1; j < n - 1; ++j)
        q[i * n + j] = 0.25 * (p[i * n + j + 1] + p[i * n + j - 1] + p[(i + 1) * n + j] + p[(i - 1) * n + j]);
    std::swap(p, q);
    r.sweeps = it;
    if (it % o.check_every == 0 || it == o.iters) {
      double s = 0;
      for (int64_t k = 0; k < n * n; ++k) s += (p[k] - q[k]) * (p[k] - q[k]);
      r.l2 = std::sqrt(s);
    }
  }
  return r;
}

[[noreturn]] void usage(const char* prog, const std::string& error) {
  std::fprintf(error.empty() ? stdout : stderr, "usage: %s [-n N] [--iters ITERS] [-k CHECK_EVERY]\n", prog);
  if (!error.empty()) std::fprintf(stderr, "%s: error: %s\n", prog, error.c_str());
  std::exit(error.empty() ? 0 : 2);
}

Options parse_args(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") usage(argv[0], "");
    if (i + 1 >= argc) usage(argv[0], "argument " + arg + ": expected one argument");
    const char* value = argv[++i];
    if (arg == "-n") o.n = std::atoll(value);
    else if (arg == "--iters") o.iters = std::atoi(value);
    else if (arg == "-k" || arg == "--check-every") o.check_every = std::atoi(value);
    else usage(argv[0], "unrecognized arguments: " + arg);
  }
  if (o.n < 3) usage(argv[0], "argument -n: the grid needs at least 3 points a side");
  if (o.iters < 1 || o.check_every < 1) usage(argv[0], "--iters and -k must be positive");
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse_args(argc, argv);
  try {
    tessera::RuntimeScope runtime;
    const Result got = jacobi(opt);
    const Result host = jacobi_on_host(opt);
    std::printf("sweeps = %d\n", got.sweeps);
    std::printf("l2 = %.17g\n", got.l2);
    // The norm groups its sum by tile, the host loop does not: equal to rounding. (The tiles
    // follow the grid's shape, so the norm has the same bits on any number of cpus or ranks.)
    const bool ok = got.sweeps == host.sweeps && std::abs(got.l2 - host.l2) <= 1e-12 * std::abs(host.l2);
    std::printf("check = %s\n", ok ? "ok" : "FAILED");
    if (!ok) std::fprintf(stderr, "stl: l2 is %.17g, the host loop gives %.17g\n", got.l2, host.l2);
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "stl: " << e.what() << "\n";
    return 1;
  }
}
