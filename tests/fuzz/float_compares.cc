// GCC's -fsanitize-coverage=trace-cmp also reports floating-point comparisons, which
// libFuzzer does not take: they are ignored here (only GCC builds of the targets use this).
extern "C" {
void __sanitizer_cov_trace_cmpf(float, float) {}
void __sanitizer_cov_trace_cmpd(double, double) {}
}
