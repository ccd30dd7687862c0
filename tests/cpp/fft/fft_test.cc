// The C++ API of numpy.fft: known transforms, the dtypes results take, multi-axis passes,
// frequencies and shifts, and NumPy's errors.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include "tessera/fft.h"
#include "tessera/tessera.h"

namespace tessera {
namespace {

using cd = std::complex<double>;

ndarray host(const std::vector<double>& v, const Shape& shape) { return from_host(v.data(), shape, DType::Float64); }

TEST(FftTest, ImpulseAndCosine) {
  // The transform of an impulse is flat; that of a cosine has two peaks of n / 2.
  const auto flat = fft(host({1, 0, 0, 0}, {4})).to_vector<cd>();
  for (const cd& v : flat) EXPECT_NEAR(std::abs(v - cd(1, 0)), 0, 1e-15);
  std::vector<double> c(8);
  for (int i = 0; i < 8; ++i) c[i] = std::cos(2 * M_PI * i / 8);
  const auto peaks = rfft(host(c, {8})).to_vector<cd>();
  ASSERT_EQ(peaks.size(), 5u);
  for (int k = 0; k < 5; ++k) EXPECT_NEAR(std::abs(peaks[k]), k == 1 ? 4 : 0, 1e-12) << k;
}

TEST(FftTest, RoundTripsAndNorms) {
  const ndarray x = host({1, 2, 3, 4, 5, 6}, {2, 3});
  const auto back = irfft(rfft(x, std::nullopt, 0, "ortho"), 2, 0, "ortho").to_vector<double>();
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(back[i], i + 1, 1e-12);
  // "forward" scales the forward transform by 1/n: the mean of a row is its zero frequency.
  const auto mean = fft(x, std::nullopt, -1, "forward").to_vector<cd>();
  EXPECT_NEAR(mean[0].real(), 2, 1e-15);
  EXPECT_NEAR(mean[3].real(), 5, 1e-15);
}

TEST(FftTest, DtypesFollowNumPy) {
  EXPECT_EQ(fft(zeros({4}, DType::Float32)).dtype(), DType::Complex64);
  EXPECT_EQ(fft(zeros({4}, DType::Int32)).dtype(), DType::Complex128);
  EXPECT_EQ(irfft(zeros({4}, DType::Complex64)).dtype(), DType::Float32);
  EXPECT_EQ(irfft(zeros({4}, DType::Float16)).dtype(), DType::Float16);
  EXPECT_EQ(rfft(zeros({4}, DType::Bool)).dtype(), DType::Complex128);
  EXPECT_THROW(rfft(zeros({4}, DType::Complex128)), TypeError);
}

TEST(FftTest, SeveralAxesPadAndTruncate) {
  const ndarray x = ones({3, 4});
  const ndarray y = fftn(x, FftLengths{5, 2}, std::vector<int64_t>{0, 1});
  EXPECT_EQ(y.shape(), (Shape{5, 2}));
  EXPECT_NEAR(std::abs(y.item(0).as_complex() - cd(6, 0)), 0, 1e-12);  // 3 rows x 2 columns of ones
  EXPECT_EQ(irfftn(ones({4, 3}, DType::Complex128)).shape(), (Shape{4, 4}));
  EXPECT_EQ(fftn(x, std::nullopt, std::vector<int64_t>{}).shares_storage(x), true);  // no axes: the input
}

TEST(FftTest, Errors) {
  const ndarray x = ones({3, 4});
  EXPECT_THROW(fft(x, 0), ValueError);
  EXPECT_THROW(fft(x, std::nullopt, -1, "unitary"), ValueError);
  EXPECT_THROW(fft(x, std::nullopt, 2), AxisError);
  EXPECT_THROW(fftn(x, FftLengths{1, 2}, std::vector<int64_t>{0}), ValueError);
  EXPECT_THROW(rfftn(x, std::nullopt, std::vector<int64_t>{}), IndexError);
  const ndarray real_out = zeros({3, 4});
  EXPECT_THROW(fft(x, std::nullopt, -1, "backward", &real_out), TypeError);
}

TEST(FftTest, FrequenciesAndShifts) {
  EXPECT_EQ(fftfreq(5, 0.5).to_vector<double>(), (std::vector<double>{0, 0.4, 0.8, -0.8, -0.4}));
  EXPECT_EQ(rfftfreq(4).to_vector<double>(), (std::vector<double>{0, 0.25, 0.5}));
  EXPECT_THROW(fftfreq(0), ZeroDivisionError);
  const ndarray x = host({0, 1, 2, 3, 4}, {5});
  EXPECT_EQ(fftshift(x).to_vector<double>(), (std::vector<double>{3, 4, 0, 1, 2}));
  EXPECT_EQ(ifftshift(fftshift(x)).to_vector<double>(), x.to_vector<double>());
}

}  // namespace
}  // namespace tessera
