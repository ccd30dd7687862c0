#include "runtime/operation.h"

#include <algorithm>

namespace tessera::detail {

int Operation::add(StorePtr store, bool read, bool write, ArgView view) {
  args.push_back(OpArg{std::move(store), read, write, std::move(view), false});
  return static_cast<int>(args.size()) - 1;
}

int Operation::add_space(Shape shape) {
  args.push_back(OpArg{nullptr, false, false, ArgView(std::move(shape)), false});
  return static_cast<int>(args.size()) - 1;
}

int64_t Operation::traffic(const std::vector<Rect>& rects) const {
  // Per storage and direction, the box around what the arguments touch: shifted views of one
  // array (a stencil's) move its memory once.
  struct Touch {
    const Storage* storage;
    bool write;
    Rect box;
  };
  std::vector<Touch> touched;
  for (size_t i = 0; i < args.size() && i < rects.size(); ++i) {
    const OpArg& a = args[i];
    if (!a.store || a.per_point || rects[i].empty()) continue;
    const Rect box = a.store->storage_rect(store_rect(static_cast<int>(i), rects[i]));
    for (const bool write : {false, true}) {
      if (!(write ? a.write : a.read)) continue;
      auto t = std::find_if(touched.begin(), touched.end(),
                            [&](const Touch& t) { return t.storage == a.store->storage().get() && t.write == write; });
      if (t == touched.end()) {
        touched.push_back({a.store->storage().get(), write, box});
        continue;
      }
      for (int d = 0; d < box.ndim(); ++d) {
        t->box.lo[d] = std::min(t->box.lo[d], box.lo[d]);
        t->box.hi[d] = std::max(t->box.hi[d], box.hi[d]);
      }
    }
  }
  int64_t bytes = 0;
  for (const Touch& t : touched) bytes += t.box.volume() * itemsize(t.storage->dtype());
  return bytes;
}

std::vector<Shape> Operation::view_shapes() const {
  std::vector<Shape> shapes;
  shapes.reserve(args.size());
  for (const OpArg& a : args) shapes.push_back(a.shape());
  return shapes;
}

int Operation::add_aligned(int with, StorePtr store, bool read, bool write, ArgView view) {
  const int i = add(std::move(store), read, write, std::move(view));
  constraints.push_back(align(i, with));
  return i;
}

int64_t Operation::work() const {
  int64_t w = 0;
  for (const OpArg& a : args) w = std::max(w, volume(a.shape()));
  return w;
}

Shape Operation::work_shape() const {
  const Shape* best = nullptr;
  for (const OpArg& a : args)
    if (!best || volume(a.shape()) > volume(*best)) best = &a.shape();
  return best ? *best : Shape{};
}

}  // namespace tessera::detail
