// The umbrella header of the tessera C++ API.
#pragma once

#include "tessera/creation.h"
#include "tessera/dtype.h"
#include "tessera/elementwise.h"
#include "tessera/errors.h"
#include "tessera/index.h"
#include "tessera/ndarray.h"
#include "tessera/reduce.h"
#include "tessera/shape.h"
#include "tessera/runtime.h"
#include "tessera/scalar.h"
