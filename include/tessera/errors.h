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
/// One class per error kind (error_kinds.def).
#define TESSERA_ERROR_KIND(CLASS, ...) \
  class CLASS : public Error {         \
   public:                             \
    using Error::Error;                \
  };
#include "tessera/error_kinds.def"

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

}  // namespace tessera

/// Checks an internal invariant; a failure is a bug in tessera, reported with its location.
#define TESSERA_CHECK(cond, msg)                                                                                       \
  do {                                                                                                                 \
    if (!(cond))                                                                                                       \
      throw ::std::logic_error(std::string("tessera internal error at ") + __FILE__ + ":" + std::to_string(__LINE__) + \
                               ": " + (msg));                                                                          \
  } while (0)
