// The CSR kernels of tessera/sparse.h for tessera.sparse (python/tessera/sparse/), which
// maps scipy.sparse's classes and functions onto them.
#include <nanobind/stl/vector.h>

#include "data/storage.h"
#include "data/store.h"
#include "python/bindings.h"
#include "python/convert.h"
#include "tessera/sparse.h"

namespace tessera::python {

void bind_sparse(nb::module_& m) {
  m.def(
      "_csr_matvec",
      [](nb::handle indptr, nb::handle indices, nb::handle data, nb::handle x, nb::handle ranges, int64_t block) {
        return wrap(csr_matvec(to_array(indptr), to_array(indices), to_array(data), to_array(x),
                               ranges.is_none() ? ndarray() : to_array(ranges), block));
      },
      nb::arg("indptr"), nb::arg("indices"), nb::arg("data"), nb::arg("x"), nb::arg("ranges") = nb::none(),
      nb::arg("block") = 0);
  m.def(
      "_csr_column_ranges",
      [](nb::handle indptr, nb::handle indices, int64_t block) {
        return wrap(csr_column_ranges(to_array(indptr), to_array(indices), block));
      },
      nb::arg("indptr"), nb::arg("indices"), nb::arg("block"));
  // How many operations writing the array's storage were submitted (a summary derived from
  // its values is current while this is unchanged).
  m.def(
      "_writes", [](nb::handle a) { return to_array(a).store()->storage()->writes.load(); }, nb::arg("a"));
  m.def(
      "_csr_todense",
      [](nb::handle indptr, nb::handle indices, nb::handle data, int64_t ncols) {
        return wrap(csr_todense(to_array(indptr), to_array(indices), to_array(data), ncols));
      },
      nb::arg("indptr"), nb::arg("indices"), nb::arg("data"), nb::arg("ncols"));
  m.def(
      "_segment_sum",
      [](nb::handle indptr, nb::handle data) { return wrap(segment_sum(to_array(indptr), to_array(data))); },
      nb::arg("indptr"), nb::arg("data"));
  m.def(
      "_take1d", [](nb::handle src, nb::handle idx) { return wrap(take1d(to_array(src), to_array(idx))); },
      nb::arg("src"), nb::arg("idx"));
  m.def("_csr_matmat",
        [](nb::handle ap, nb::handle ai, nb::handle av, nb::handle bp, nb::handle bi, nb::handle bv, int64_t ncols) {
          std::vector<ndarray> c =
              csr_matmat(to_array(ap), to_array(ai), to_array(av), to_array(bp), to_array(bi), to_array(bv), ncols);
          return nb::make_tuple(wrap(c[0]), wrap(c[1]), wrap(c[2]));
        });
}

}  // namespace tessera::python
