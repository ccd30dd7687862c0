// View transforms and the mapping of view rects onto storage rects.
#include "data/store.h"

#include <algorithm>
#include <utility>

#include "tessera/errors.h"

namespace tessera::detail {

Store::Store(DType dtype, Shape shape, Shape strides, int64_t offset, std::vector<int> dim_map,
             std::shared_ptr<Storage> storage)
    : dtype_(dtype),
      shape_(std::move(shape)),
      strides_(std::move(strides)),
      offset_(offset),
      dim_map_(std::move(dim_map)),
      storage_(std::move(storage)) {}

StorePtr Store::create(DType dtype, const Shape& shape, std::shared_ptr<MemoryPool> pool, std::string creation) {
  auto storage = std::make_shared<Storage>(dtype, shape, std::move(pool), std::move(creation));
  auto store = std::make_shared<Store>(dtype, Shape(), Shape(), 0, std::vector<int>(), std::move(storage));
  store->storage_layout_ = true;
  return store;
}

std::vector<int> Store::dim_map() const {
  if (!storage_layout_) return dim_map_;
  std::vector<int> map(shape().size());
  for (size_t d = 0; d < map.size(); ++d) map[d] = static_cast<int>(d);
  return map;
}

StorePtr Store::derive(DType dtype, Shape shape, Shape strides, int64_t offset, std::vector<int> dim_map) const {
  auto view =
      std::make_shared<Store>(dtype, std::move(shape), std::move(strides), offset, std::move(dim_map), storage_);
  view->base_ = base_ ? base_ : std::const_pointer_cast<Store>(shared_from_this());
  view->writeable_ = writeable_;
  view->locked_ = locked_;
  return view;
}

void Store::set_writeable(bool writeable) {
  if (writeable && !writeable_ && (locked_ || (base_ && !base_->writeable())))
    throw ValueError("cannot set WRITEABLE flag to True of this array");
  writeable_ = writeable;
}

void Store::require_writeable() const {
  if (!writeable_) throw ValueError("assignment destination is read-only");
}

StorePtr Store::reinterpret(DType dtype) const {
  TESSERA_CHECK(itemsize(dtype) == itemsize(dtype_), "reinterpret needs the same item size");
  return derive(dtype, shape(), strides(), offset_, dim_map());
}

StorePtr Store::component(int part) const {
  TESSERA_CHECK(is_complex(dtype_) && (part == 0 || part == 1), "component: a complex store, part 0 or 1");
  Shape strides = this->strides();
  for (auto& s : strides) s *= 2;
  // In units of the real dtype: half a complex item each.
  return derive(real_for(dtype_), this->shape(), std::move(strides), offset_ * 2 + part,
                std::vector<int>(this->shape().size(), -2));
}

StorePtr Store::strided(int64_t offset, const Shape& shape, const Shape& strides) const {
  return derive(dtype_, shape, strides, offset, std::vector<int>(shape.size(), -2));
}

bool Store::is_whole() const {
  return offset_ == 0 && shape() == storage_->shape() && strides() == storage_->strides();
}

bool Store::is_c_contiguous() const {
  int64_t s = 1;
  for (int d = ndim() - 1; d >= 0; --d) {
    if (shape()[d] != 1 && strides()[d] != s) return false;
    s *= shape()[d];
  }
  return true;
}

bool Store::same_view(const Store& o) const {
  return storage_ == o.storage_ && offset_ == o.offset_ && shape() == o.shape() && strides() == o.strides();
}

StorePtr Store::slice(int dim, int64_t start, int64_t stop, int64_t step) const {
  Shape shape = this->shape(), strides = this->strides();
  int64_t n = 0;
  if (step > 0 && stop > start) n = (stop - start + step - 1) / step;
  if (step < 0 && stop < start) n = (start - stop - step - 1) / (-step);
  shape[dim] = n;
  strides[dim] = this->strides()[dim] * step;
  int64_t off = n > 0 ? offset_ + start * this->strides()[dim] : offset_;
  return derive(dtype_, std::move(shape), std::move(strides), off, dim_map());
}

StorePtr Store::index(int dim, int64_t i) const {
  Shape shape = this->shape(), strides = this->strides();
  std::vector<int> map = dim_map();
  int64_t off = offset_ + i * this->strides()[dim];
  shape.erase(shape.begin() + dim);
  strides.erase(strides.begin() + dim);
  map.erase(map.begin() + dim);
  return derive(dtype_, std::move(shape), std::move(strides), off, std::move(map));
}

StorePtr Store::new_axis(int pos) const {
  Shape shape = this->shape(), strides = this->strides();
  std::vector<int> map = dim_map();
  shape.insert(shape.begin() + pos, 1);
  strides.insert(strides.begin() + pos, 0);
  map.insert(map.begin() + pos, -1);
  return derive(dtype_, std::move(shape), std::move(strides), offset_, std::move(map));
}

StorePtr Store::transpose(const std::vector<int>& perm) const {
  Shape shape(perm.size()), strides(perm.size());
  std::vector<int> map(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) {
    shape[i] = this->shape()[perm[i]];
    strides[i] = this->strides()[perm[i]];
    map[i] = dim_of(perm[i]);
  }
  return derive(dtype_, std::move(shape), std::move(strides), offset_, std::move(map));
}

StorePtr Store::broadcast_to(const Shape& shape) const {
  const int extra = static_cast<int>(shape.size()) - ndim();
  Shape strides(shape.size(), 0);
  std::vector<int> map(shape.size(), -1);
  for (int d = 0; d < ndim(); ++d) {
    if (this->shape()[d] == shape[d + extra]) {
      strides[d + extra] = this->strides()[d];
      map[d + extra] = dim_of(d);
    }
  }
  return derive(dtype_, shape, std::move(strides), offset_, std::move(map));
}

StorePtr Store::reshape_view(const Shape& shape) const {
  // Works like NumPy's attempt_nocopy_reshape: match groups of old and new dims whose
  // element counts agree, each group must be contiguous in memory.
  Shape old_shape, old_strides;
  for (int d = 0; d < ndim(); ++d)
    if (this->shape()[d] != 1) {
      old_shape.push_back(this->shape()[d]);
      old_strides.push_back(this->strides()[d]);
    }
  Shape new_strides(shape.size(), 0);
  size_t oi = 0, oj = 1, ni = 0, nj = 1;
  const size_t on = old_shape.size(), nn = shape.size();
  if (volume(shape) == 0 || on == 0) {
    int64_t s = 1;
    for (int d = static_cast<int>(nn) - 1; d >= 0; --d) {
      new_strides[d] = s;
      s *= shape[d];
    }
  } else {
    while (ni < nn && oi < on) {
      int64_t np_ = shape[ni], op = old_shape[oi];
      while (np_ != op) {
        if (np_ < op) np_ *= shape[nj++];
        else op *= old_shape[oj++];
      }
      for (size_t k = oi; k < oj - 1; ++k)
        if (old_strides[k] != old_shape[k + 1] * old_strides[k + 1]) return nullptr;
      new_strides[nj - 1] = old_strides[oj - 1];
      for (size_t k = nj - 1; k > ni; --k) new_strides[k - 1] = new_strides[k] * shape[k];
      ni = nj++;
      oi = oj++;
    }
    for (size_t k = ni; k < nn; ++k) new_strides[k] = 0;  // trailing 1s
  }
  std::vector<int> map(shape.size(), -2);
  if (shape == this->shape()) map = dim_map();
  return derive(dtype_, shape, new_strides, offset_, map);
}

Rect Store::storage_rect(const Rect& rect) const {
  const Shape& rshape = storage_->shape();
  const Shape& rstrides = storage_->strides();
  const int rn = static_cast<int>(rshape.size());
  Rect out{Shape(rn), Shape(rn)};
  // A view in another item size (a.real of a complex array) maps through byte offsets.
  const int64_t own = itemsize(dtype_), held = itemsize(storage_->dtype());
  const bool aligned =
      own == held && (storage_layout_ || std::none_of(dim_map_.begin(), dim_map_.end(), [](int m) { return m == -2; }));
  if (aligned) {
    int64_t rem = offset_;
    for (int d = 0; d < rn; ++d) {
      int64_t c = rstrides[d] ? rem / rstrides[d] : 0;
      if (rshape[d]) rem -= c * rstrides[d];
      out.lo[d] = c;
      out.hi[d] = c + 1;
    }
    for (int j = 0; j < ndim(); ++j) {
      int d = dim_of(j);
      if (d < 0 || rect.hi[j] - rect.lo[j] <= 0) continue;
      int64_t step = rstrides[d] ? strides()[j] / rstrides[d] : 0;
      int64_t a = out.lo[d] + step * rect.lo[j], b = out.lo[d] + step * (rect.hi[j] - 1);
      if (a > b) std::swap(a, b);
      out.lo[d] = a;
      out.hi[d] = b + 1;
    }
    return out;
  }
  int64_t mn = offset_, mx = offset_;
  for (int j = 0; j < ndim(); ++j) {
    int64_t a = strides()[j] * rect.lo[j], b = strides()[j] * (rect.hi[j] - 1);
    mn += std::min(a, b);
    mx += std::max(a, b);
  }
  if (own != held) {  // the storage elements holding the first and the last byte
    mn = mn * own / held;
    mx = (mx * own + own - 1) / held;
  }
  bool split = false;
  for (int d = 0; d < rn; ++d) {
    if (split) {
      out.lo[d] = 0;
      out.hi[d] = rshape[d];
      continue;
    }
    int64_t a = rstrides[d] ? mn / rstrides[d] : 0, b = rstrides[d] ? mx / rstrides[d] : 0;
    mn -= a * rstrides[d];
    mx -= b * rstrides[d];
    out.lo[d] = a;
    out.hi[d] = b + 1;
    split = a != b;
  }
  return out;
}

char* Store::ptr(const Shape& idx) const {
  int64_t off = offset_;
  for (int d = 0; d < ndim(); ++d) off += idx[d] * strides()[d];
  return storage_->data() + off * itemsize(dtype_);
}

}  // namespace tessera::detail

namespace tessera::detail {

void Store::stencil_hint(const Shape& low, const Shape& high, const std::string& provenance) {
  const std::string dims = std::to_string(ndim()) + (ndim() == 1 ? " dimension" : " dimensions");
  for (auto [name, offsets] : {std::pair{"low_offsets", &low}, std::pair{"high_offsets", &high}}) {
    if (static_cast<int>(offsets->size()) != ndim())
      throw ValueError(std::string("stencil_hint: ") + name + " " + shape_text(*offsets) + " has " +
                       std::to_string(offsets->size()) + " entries, but the array has " + dims +
                       " (give one offset per dimension)");
    for (int64_t v : *offsets)
      if (v < 0)
        throw ValueError(std::string("stencil_hint: ") + name + " " + shape_text(*offsets) +
                         " must not be negative (they count elements of halo)");
  }
  if (!is_whole())
    throw ValueError(
        "stencil_hint: this array is a view of another array's data; give the hint on the array "
        "that owns the data");
  storage_->set_halo(low, high);
  // Claimed storages have a writer in flight, which allocates them; otherwise nothing runs
  // on the storage now and this thread may allocate it.
  if (!storage_->allocated() && !storage_->reserved()) storage_->allocate("stencil_hint", provenance);
}

}  // namespace tessera::detail
