#include "partition/view.h"

#include "tessera/errors.h"

namespace tessera {

using detail::volume;

ArgView& ArgView::transpose(const std::vector<int>& perm) {
  if (perm.size() != shape_.size()) throw ValueError("ArgView::transpose needs one entry per axis");
  std::vector<bool> seen(perm.size(), false);
  for (int p : perm) {
    if (p < 0 || p >= static_cast<int>(perm.size()) || seen[static_cast<size_t>(p)])
      throw ValueError("ArgView::transpose needs a permutation of the axes");
    seen[static_cast<size_t>(p)] = true;
  }
  Shape s(shape_.size());
  for (size_t d = 0; d < perm.size(); ++d) s[d] = shape_.at(static_cast<size_t>(perm[d]));
  shape_ = std::move(s);
  steps_.push_back(Step{Kind::Transpose, perm, 0, {}});
  return *this;
}

ArgView& ArgView::promote(int axis, int64_t extent) {
  if (axis < 0 || axis > static_cast<int>(shape_.size()))
    throw ValueError("ArgView::promote: axis " + std::to_string(axis) + " is out of range");
  shape_.insert(shape_.begin() + axis, extent);
  steps_.push_back(Step{Kind::Promote, {}, axis, {}});
  return *this;
}

ArgView& ArgView::fold(int first, int count) {
  if (first < 0 || count < 0 || first + count > static_cast<int>(shape_.size()))
    throw ValueError("ArgView::fold: axes out of range");
  Shape extents(shape_.begin() + first, shape_.begin() + first + count);
  shape_.erase(shape_.begin() + first, shape_.begin() + first + count);
  shape_.insert(shape_.begin() + first, volume(extents));
  steps_.push_back(Step{Kind::Fold, {}, first, std::move(extents)});
  return *this;
}

namespace {

// The box of the elements [e0, e1) (C order) of `extents`: the leading axes where the first and
// last element agree are fixed, the first where they differ spans between them, the rest whole.
void unfold(int64_t e0, int64_t e1, const Shape& extents, Shape& lo, Shape& hi) {
  const int n = static_cast<int>(extents.size());
  lo.assign(extents.size(), 0);
  hi = extents;
  if (e1 <= e0) {
    hi.assign(extents.size(), 0);
    return;
  }
  Shape first(n), last(n);
  int64_t a0 = e0, a1 = e1 - 1;
  for (int k = n - 1; k >= 0; --k) {
    const int64_t ext = std::max<int64_t>(1, extents[k]);
    first[k] = a0 % ext;
    last[k] = a1 % ext;
    a0 /= ext;
    a1 /= ext;
  }
  for (int k = 0; k < n; ++k) {
    lo[k] = first[k];
    hi[k] = last[k] + 1;
    if (first[k] != last[k]) break;
  }
}

}  // namespace

Rect ArgView::to_arg(const Rect& rect) const {
  Rect r = rect;
  for (auto it = steps_.rbegin(); it != steps_.rend(); ++it) {
    const Step& s = *it;
    switch (s.kind) {
      case Kind::Transpose: {
        Rect back(Shape(r.lo.size()), Shape(r.hi.size()));
        for (size_t d = 0; d < s.perm.size(); ++d) {
          back.lo[static_cast<size_t>(s.perm[d])] = r.lo[d];
          back.hi[static_cast<size_t>(s.perm[d])] = r.hi[d];
        }
        r = std::move(back);
        break;
      }
      case Kind::Promote: {
        const bool empty = r.hi[s.axis] <= r.lo[s.axis];
        r.lo.erase(r.lo.begin() + s.axis);
        r.hi.erase(r.hi.begin() + s.axis);
        if (empty) r.hi = r.lo;  // an empty rect touches nothing
        break;
      }
      case Kind::Fold: {
        Shape lo, hi;
        unfold(r.lo[s.axis], r.hi[s.axis], s.extents, lo, hi);
        r.lo.erase(r.lo.begin() + s.axis);
        r.hi.erase(r.hi.begin() + s.axis);
        r.lo.insert(r.lo.begin() + s.axis, lo.begin(), lo.end());
        r.hi.insert(r.hi.begin() + s.axis, hi.begin(), hi.end());
        break;
      }
    }
  }
  return r;
}

}  // namespace tessera
