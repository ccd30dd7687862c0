// Residency: which ranks hold a valid copy of each part of a storage. Every rank keeps
// the same record for every storage (it is updated by the analysis, which sees the same
// operations in the same order on every rank), so each rank knows without asking whom to
// receive a missing part from and to whom to send its own (DESIGN §6).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "data/rect.h"

namespace tessera::detail {

/// A set of ranks.
class RankSet {
 public:
  RankSet() = default;
  static RankSet one(int rank);
  static RankSet all(int ranks);

  bool has(int rank) const;
  void add(int rank);
  void add(const RankSet& o);
  bool covers_all(int ranks) const;
  /// The lowest rank in the set, or -1.
  int first() const;
  /// The rank of the set closest to `rank` (the lower on a tie), or -1: copies of a part
  /// several ranks hold then come from neighbours rather than all from the lowest rank.
  int nearest(int rank) const;
  bool operator==(const RankSet& o) const = default;

 private:
  std::vector<uint64_t> words_;
};

/// A part of a storage that must be copied from `source` to the rank that lacks it.
struct Transfer {
  Rect box;
  int source;
};

class Residency {
 public:
  /// The parts of `box` that hold data (something wrote them) but not on `rank`, each with
  /// the rank to copy it from. Parts nobody wrote need no copy.
  std::vector<Transfer> missing(const Rect& box, int rank) const;
  /// `rank` now also holds `box` (it received it).
  void add_copy(const Rect& box, int rank);
  /// `holders` wrote `box`: from now on only they hold it.
  void write(const Rect& box, const RankSet& holders);
  /// `box` now holds what `from` records there (storage renaming gives this storage the other's
  /// memory in `box`): its pieces inside `box` replace this record's; outside `box` nothing
  /// changes.
  void take(const Residency& from, const Rect& box);
  /// Every part of `box` that holds data is held by all `ranks`.
  bool everywhere(const Rect& box, int ranks) const;
  size_t pieces() const { return pieces_.size(); }

 private:
  struct Piece {
    Rect box;
    RankSet holders;
  };
  void merge(size_t from);
  std::vector<Piece> pieces_;  // disjoint
};

/// `a` minus `b`: up to 2 boxes per dimension, disjoint, covering a \ b.
std::vector<Rect> subtract(const Rect& a, const Rect& b);
/// The intersection of two boxes (empty when they do not overlap).
Rect intersect(const Rect& a, const Rect& b);

}  // namespace tessera::detail
