#include "partition/constraint.h"

namespace tessera {

std::string Constraint::describe() const {
  switch (kind) {
    case ConstraintKind::Align: return "align(" + std::to_string(a) + ", " + std::to_string(b) + ")";
    case ConstraintKind::Broadcast: return "broadcast(" + std::to_string(a) + ")";
    case ConstraintKind::Bloat: return "bloat(" + std::to_string(a) + ", " + std::to_string(b) + ")";
    case ConstraintKind::Image: return "image(" + std::to_string(a) + ", " + std::to_string(b) + ")";
    case ConstraintKind::Scale: return "scale(" + std::to_string(a) + ", " + std::to_string(b) + ")";
    case ConstraintKind::MinExtents: return "min_extents(" + std::to_string(a) + ")";
  }
  return "constraint";
}

Constraint align(int a, int b) { return Constraint{ConstraintKind::Align, a, b, {}, {}, {}, {}, false}; }
Constraint broadcast(int a, std::vector<int> axes) {
  return Constraint{ConstraintKind::Broadcast, a, -1, std::move(axes), {}, {}, {}, false};
}
Constraint bloat(int a, int b, Shape low, Shape high) {
  return Constraint{ConstraintKind::Bloat, a, b, {}, std::move(low), std::move(high), {}, false};
}
Constraint image(int a, int b, bool ranges, bool sorted) {
  return Constraint{ConstraintKind::Image, a, b, {}, {}, {}, {}, ranges, sorted};
}
Constraint scale(int a, int b, Shape factors) {
  return Constraint{ConstraintKind::Scale, a, b, {}, {}, {}, std::move(factors), false};
}
Constraint min_extents(int a, Shape extents) {
  return Constraint{ConstraintKind::MinExtents, a, -1, {}, std::move(extents), {}, {}, false};
}

}  // namespace tessera
