# Apache Arrow C++ (libarrow, libparquet) for the dataframe library, from the pyarrow wheel:
# it carries the libraries and their headers (Debian has no Arrow package). The interpreter is
# Python_EXECUTABLE when given, else the repository's .venv. Defines the imported targets
# tessera::arrow and tessera::parquet and TESSERA_ARROW_FOUND; TESSERA_ARROW_DIR is where the
# libraries are (what programs linking them find them by, at run time too).
set(TESSERA_ARROW_FOUND FALSE)
set(_tessera_arrow_python "${Python_EXECUTABLE}")
if(NOT _tessera_arrow_python AND EXISTS "${PROJECT_SOURCE_DIR}/.venv/bin/python")
  set(_tessera_arrow_python "${PROJECT_SOURCE_DIR}/.venv/bin/python")
endif()
if(_tessera_arrow_python)
  execute_process(
    COMMAND "${_tessera_arrow_python}" -c
      "import pyarrow as pa; print(pa.get_include()); print(pa.get_library_dirs()[0]); print(pa.__version__)"
    OUTPUT_VARIABLE _tessera_arrow_out OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE _tessera_arrow_rc ERROR_QUIET)
  if(_tessera_arrow_rc EQUAL 0)
    string(REPLACE "\n" ";" _tessera_arrow_out "${_tessera_arrow_out}")
    list(GET _tessera_arrow_out 0 _tessera_arrow_include)
    list(GET _tessera_arrow_out 1 TESSERA_ARROW_DIR)
    list(GET _tessera_arrow_out 2 TESSERA_ARROW_VERSION)
    # The wheel has the versioned files only (libarrow.so.2600): link those by full path.
    foreach(_lib arrow parquet)
      file(GLOB _found "${TESSERA_ARROW_DIR}/lib${_lib}.so.[0-9]*")
      list(SORT _found)
      list(LENGTH _found _n)
      if(_n EQUAL 0)
        set(_tessera_arrow_rc 1)
        break()
      endif()
      list(GET _found 0 _path)  # the shortest name: the soname itself
      if(NOT TARGET tessera::${_lib})
        add_library(tessera::${_lib} SHARED IMPORTED)
        set_target_properties(tessera::${_lib} PROPERTIES IMPORTED_LOCATION "${_path}" IMPORTED_NO_SONAME FALSE
          INTERFACE_INCLUDE_DIRECTORIES "${_tessera_arrow_include}")
      endif()
    endforeach()
    if(_tessera_arrow_rc EQUAL 0)
      set(TESSERA_ARROW_FOUND TRUE)
      message(STATUS "Arrow C++ ${TESSERA_ARROW_VERSION} from pyarrow: ${TESSERA_ARROW_DIR}")
    endif()
  endif()
endif()
if(NOT TESSERA_ARROW_FOUND)
  message(STATUS "Arrow C++ not found (pip install pyarrow): the dataframe library is not built")
endif()
