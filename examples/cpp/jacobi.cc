// 2-D Laplace equation solved by Jacobi iteration on an N x N grid, with the C++ API.
//
// The same solver as examples/python/jacobi.py: the top edge is held at 1 and the other
// edges at 0; every K sweeps the solver keeps a copy of the grid and reports the l2 norm of
// the change, so the hot loop is a single stencil statement. Prints the same lines, and the
// same l2, as `python examples/python/jacobi.py --backend numpy` with the same arguments.
//
//     build/dev-NAME/jacobi -n 1000 --iters 100
#include <tessera/tessera.h>

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using tessera::ndarray;
using tessera::Slice;

struct Options {
  int64_t n = 1000;
  int iters = 100;
  int check_every = 25;
  double tol = 0.0;
};

// sqrt(sum(d ** 2)), computed by tessera's deterministic reduction.
double l2_norm(const ndarray& d) {
  return std::sqrt(tessera::sum(tessera::binary("multiply", d, d)).item().as_double());
}

struct Result {
  int sweeps;
  double l2;
};

/// Runs up to `iters` sweeps; returns the sweeps done and the l2 norm of the last checked change.
Result jacobi(int64_t n, int iters, int check_every, double tol) {
  ndarray p = tessera::zeros({n, n});
  tessera::assign(tessera::view(p, {int64_t{0}, Slice{}}), 1.0);
  // The stencil's views of p; they share p's storage, so they see every update.
  const ndarray center = tessera::view(p, {Slice{1, -1}, Slice{1, -1}});
  const ndarray east = tessera::view(p, {Slice{1, -1}, Slice{2, std::nullopt}});
  const ndarray west = tessera::view(p, {Slice{1, -1}, Slice{std::nullopt, -2}});
  const ndarray south = tessera::view(p, {Slice{2, std::nullopt}, Slice{1, -1}});
  const ndarray north = tessera::view(p, {Slice{std::nullopt, -2}, Slice{1, -1}});
  double l2 = std::numeric_limits<double>::infinity();
  int it = 0;
  while (it < iters) {
    ++it;
    const bool check = it % check_every == 0 || it == iters;
    ndarray pn;
    if (check) pn = tessera::copy(p);
    tessera::assign(center, .25 * (east + west + south + north));
    if (check) {
      l2 = l2_norm(p - pn);  // a float: forces the work issued so far
      if (l2 < tol) break;
    }
  }
  return {it, l2};
}

// Python's repr of a float: the shortest digits that round-trip, in fixed notation unless
// the exponent is below -4 or at least 16.
std::string python_repr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string s(buf, end);
  std::string sign;
  if (s[0] == '-') sign = "-", s.erase(0, 1);
  const size_t e = s.find('e');
  const int exp = std::stoi(s.substr(e + 1));
  std::string digits = s.substr(0, e);
  if (digits.size() > 1) digits.erase(1, 1);  // drop the '.'
  if (exp < -4 || exp >= 16) {
    std::string m = digits.substr(0, 1);
    if (digits.size() > 1) m += "." + digits.substr(1);
    const int a = std::abs(exp);
    return sign + m + "e" + (exp < 0 ? "-" : "+") + (a < 10 ? "0" : "") + std::to_string(a);
  }
  if (exp < 0) return sign + "0." + std::string(-exp - 1, '0') + digits;
  if (static_cast<int>(digits.size()) <= exp + 1)
    return sign + digits + std::string(exp + 1 - digits.size(), '0') + ".0";
  return sign + digits.substr(0, exp + 1) + "." + digits.substr(exp + 1);
}

[[noreturn]] void usage(const char* prog, const std::string& error) {
  std::FILE* out = error.empty() ? stdout : stderr;
  std::fprintf(out,
               "usage: %s [-h] [-n N] [--iters ITERS] [-k CHECK_EVERY] [--tol TOL]\n\n"
               "2-D Laplace equation solved by Jacobi iteration on an N x N grid.\n\n"
               "  -n N                  grid size (default 1000)\n"
               "  --iters ITERS         maximum sweeps (default 100)\n"
               "  -k, --check-every K   measure the change every K sweeps (default 25)\n"
               "  --tol TOL             stop once the change is below this (default 0: never)\n",
               prog);
  if (!error.empty()) std::fprintf(stderr, "%s: error: %s\n", prog, error.c_str());
  std::exit(error.empty() ? 0 : 2);
}

template <class T>
T parse_number(const char* prog, std::string_view flag, std::string_view text) {
  T value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size())
    usage(prog, "argument " + std::string(flag) + ": invalid value: '" + std::string(text) + "'");
  return value;
}

Options parse_args(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "-h" || arg == "--help") usage(argv[0], "");
    std::string_view flag = arg, value;
    bool inline_value = false;
    if (auto eq = arg.find('='); arg.starts_with("--") && eq != std::string_view::npos) {
      flag = arg.substr(0, eq), value = arg.substr(eq + 1), inline_value = true;
    }
    auto next = [&]() -> std::string_view {
      if (inline_value) return value;
      if (i + 1 >= argc) usage(argv[0], "argument " + std::string(flag) + ": expected one argument");
      return argv[++i];
    };
    if (flag == "-n") o.n = parse_number<int64_t>(argv[0], flag, next());
    else if (flag == "--iters") o.iters = parse_number<int>(argv[0], flag, next());
    else if (flag == "-k" || flag == "--check-every") o.check_every = parse_number<int>(argv[0], flag, next());
    else if (flag == "--tol") o.tol = parse_number<double>(argv[0], flag, next());
    else usage(argv[0], "unrecognized arguments: " + std::string(arg));
  }
  if (o.n < 0) usage(argv[0], "argument -n: the grid size must not be negative");
  if (o.check_every <= 0) usage(argv[0], "argument -k/--check-every: must be positive");
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse_args(argc, argv);
  try {
    tessera::RuntimeScope runtime;
    const auto start = std::chrono::steady_clock::now();
    const Result r = jacobi(opt.n, opt.iters, opt.check_every, opt.tol);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("sweeps = %d\n", r.sweeps);
    std::printf("l2 = %s\n", python_repr(r.l2).c_str());
    std::printf("time = %.4f s\n", elapsed);
  } catch (const std::exception& e) {
    std::cerr << "jacobi: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
