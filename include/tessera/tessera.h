// The umbrella header of the tessera C++ API: every public header of include/tessera/.
// Programs include this one (a build that links tessera::tessera finds it; docs/cpp.md).
#pragma once

#include "tessera/constraint.h"
#include "tessera/creation.h"
#include "tessera/dtype.h"
#include "tessera/elementwise.h"
#include "tessera/errors.h"
#include "tessera/fft.h"
#include "tessera/index.h"
#include "tessera/library.h"
#include "tessera/linalg.h"
#include "tessera/ndarray.h"
#include "tessera/processor.h"
#include "tessera/random.h"
#include "tessera/reduce.h"
#include "tessera/runtime.h"
#include "tessera/scalar.h"
#include "tessera/shape.h"
#include "tessera/sort.h"
#include "tessera/sparse.h"
#include "tessera/stl.h"
#include "tessera/task.h"
