// Typed errors that map one-to-one onto the Python exceptions NumPy raises.
// The Python extension translates each class; C++ users catch them directly.
#pragma once

#include <stdexcept>
#include <string>

namespace tessera {

/// Base of every tessera error.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
class ValueError : public Error { public: using Error::Error; };
class TypeError : public Error { public: using Error::Error; };
class IndexError : public Error { public: using Error::Error; };
/// A ufunc operand that does not cast to its loop (an input) or from it (the output) under
/// the call's casting rule; Python sees NumPy's UFuncTypeError subclasses for it.
class UFuncCastingError : public TypeError {
 public:
  /// `operand` is the input's index, or -1 for the output; dtypes are NumPy names ("int64").
  UFuncCastingError(std::string ufunc, int nin, int operand, std::string from, std::string to, std::string casting);
  const std::string& ufunc() const { return ufunc_; }
  int operand() const { return operand_; }
  const std::string& from() const { return from_; }
  const std::string& to() const { return to_; }
  const std::string& casting() const { return casting_; }

 private:
  std::string ufunc_;
  int operand_;
  std::string from_, to_, casting_;
};
/// numpy.exceptions.AxisError (a ValueError and an IndexError in Python).
class AxisError : public Error { public: using Error::Error; };
/// numpy.linalg.LinAlgError.
class LinAlgError : public Error { public: using Error::Error; };
class ZeroDivisionError : public Error { public: using Error::Error; };
class NotImplementedError : public Error { public: using Error::Error; };
/// Python's ZeroDivisionError / FloatingPointError are not raised by array ops; OverflowError is,
/// for Python integers that do not fit the array's dtype.
class OverflowError : public Error { public: using Error::Error; };
/// A memory pool could not satisfy an allocation (a MemoryError in Python).
class OutOfMemoryError : public Error { public: using Error::Error; };

}  // namespace tessera

/// Checks an internal invariant; a failure is a bug in tessera, reported with its location.
#define TESSERA_CHECK(cond, msg)                                                       \
  do {                                                                                 \
    if (!(cond))                                                                       \
      throw ::std::logic_error(std::string("tessera internal error at ") + __FILE__ + \
                               ":" + std::to_string(__LINE__) + ": " + (msg));         \
  } while (0)
