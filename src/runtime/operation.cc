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
