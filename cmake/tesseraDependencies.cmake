# The libraries tessera's core links, found the same way where tessera is built
# (CMakeLists.txt) and where a program finds an installed tessera (tesseraConfig.cmake): the
# exported tessera::tessera names the imported targets defined here. The core is a static
# library, so a program links its private dependencies (Highway, SLEEF) too.
#
# TESSERA_FIND_MODE: REQUIRED (the build: a missing library stops the configuration) or QUIET
# (the package config, which reports TESSERA_MISSING_DEPENDENCIES as find_package's failure).
set(TESSERA_MISSING_DEPENDENCIES "")

macro(tessera_find_package name)
  find_package(${name} ${TESSERA_FIND_MODE} ${ARGN})
  if(NOT ${name}_FOUND)
    list(APPEND TESSERA_MISSING_DEPENDENCIES ${name})
  endif()
endmacro()

# pkg-config modules, as the imported target PkgConfig::<prefix>.
macro(tessera_pkg_check_modules prefix)
  if(NOT TARGET PkgConfig::${prefix})
    pkg_check_modules(${prefix} ${TESSERA_FIND_MODE} IMPORTED_TARGET ${ARGN})
    if(NOT ${prefix}_FOUND)
      list(APPEND TESSERA_MISSING_DEPENDENCIES "${ARGN} (pkg-config)")
    endif()
  endif()
endmacro()

tessera_find_package(Threads)
tessera_find_package(PkgConfig)
tessera_find_package(LAPACK)  # and BLAS, which LAPACK::LAPACK links
# The core calls MPI's C interface; FindMPI looks for it only with the C language enabled,
# which a C++ program using tessera may not have done.
get_property(_tessera_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
if(NOT "C" IN_LIST _tessera_languages)
  enable_language(C)
endif()
tessera_find_package(MPI COMPONENTS C)
if(PkgConfig_FOUND)
  tessera_pkg_check_modules(TESSERA_HWLOC hwloc)
  tessera_pkg_check_modules(TESSERA_FFTW fftw3 fftw3f)
  # Vector element-wise loops: Google Highway (runtime dispatch across instruction sets) and
  # SLEEF (vector math functions), Debian's libhwy-dev and libsleef-dev.
  tessera_pkg_check_modules(TESSERA_HWY libhwy libhwy-contrib)
  tessera_pkg_check_modules(TESSERA_SLEEF sleef)
endif()
# The C interfaces of BLAS and LAPACK (cblas_*, LAPACKE_*), which FindBLAS and FindLAPACK do
# not look for; the installed package records the paths found here.
if(NOT TESSERA_PACKAGE_CONFIG)
  find_library(LAPACKE_LIB lapacke REQUIRED)
  find_library(CBLAS_LIB NAMES openblas cblas REQUIRED)
endif()
