#include "comm/residency.h"

#include <algorithm>
#include <bit>

namespace tessera::detail {

RankSet RankSet::one(int rank) {
  RankSet s;
  s.add(rank);
  return s;
}

RankSet RankSet::all(int ranks) {
  RankSet s;
  for (int r = 0; r < ranks; ++r) s.add(r);
  return s;
}

bool RankSet::has(int rank) const {
  const size_t w = static_cast<size_t>(rank) / 64;
  return w < words_.size() && (words_[w] >> (rank % 64) & 1u);
}

void RankSet::add(int rank) {
  const size_t w = static_cast<size_t>(rank) / 64;
  if (words_.size() <= w) words_.resize(w + 1, 0);
  words_[w] |= uint64_t{1} << (rank % 64);
}

void RankSet::add(const RankSet& o) {
  if (words_.size() < o.words_.size()) words_.resize(o.words_.size(), 0);
  for (size_t i = 0; i < o.words_.size(); ++i) words_[i] |= o.words_[i];
}

bool RankSet::covers_all(int ranks) const {
  for (int r = 0; r < ranks; ++r)
    if (!has(r)) return false;
  return true;
}

int RankSet::first() const {
  for (size_t i = 0; i < words_.size(); ++i)
    if (words_[i]) return static_cast<int>(i * 64) + std::countr_zero(words_[i]);
  return -1;
}

int RankSet::nearest(int rank) const {
  const int limit = static_cast<int>(words_.size()) * 64;
  for (int d = 0; d < limit; ++d) {
    if (rank - d >= 0 && has(rank - d)) return rank - d;
    if (rank + d < limit && has(rank + d)) return rank + d;
  }
  return -1;
}

Rect intersect(const Rect& a, const Rect& b) {
  Rect r = a;
  for (int d = 0; d < a.ndim(); ++d) {
    r.lo[d] = std::max(a.lo[d], b.lo[d]);
    r.hi[d] = std::max(r.lo[d], std::min(a.hi[d], b.hi[d]));
  }
  return r;
}

std::vector<Rect> subtract(const Rect& a, const Rect& b) {
  if (!a.overlaps(b)) return {a};
  std::vector<Rect> out;
  Rect rest = a;  // what is left to cut, shrinking dimension by dimension
  for (int d = 0; d < a.ndim(); ++d) {
    if (rest.lo[d] < b.lo[d]) {
      Rect below = rest;
      below.hi[d] = b.lo[d];
      out.push_back(std::move(below));
      rest.lo[d] = b.lo[d];
    }
    if (rest.hi[d] > b.hi[d]) {
      Rect above = rest;
      above.lo[d] = b.hi[d];
      out.push_back(std::move(above));
      rest.hi[d] = b.hi[d];
    }
  }
  return out;
}

std::vector<Transfer> Residency::missing(const Rect& box, int rank) const {
  std::vector<Transfer> out;
  for (const Piece& p : pieces_) {
    if (p.holders.has(rank) || !p.box.overlaps(box)) continue;
    out.push_back(Transfer{intersect(p.box, box), p.holders.nearest(rank)});
  }
  return out;
}

bool Residency::everywhere(const Rect& box, int ranks) const {
  for (const Piece& p : pieces_)
    if (p.box.overlaps(box) && !p.holders.covers_all(ranks)) return false;
  return true;
}

void Residency::add_copy(const Rect& box, int rank) {
  std::vector<Piece> kept, added;
  kept.reserve(pieces_.size());
  for (Piece& p : pieces_) {
    if (p.holders.has(rank) || !p.box.overlaps(box)) {
      kept.push_back(std::move(p));
      continue;
    }
    Piece inside{intersect(p.box, box), p.holders};
    inside.holders.add(rank);
    for (Rect& r : subtract(p.box, box)) added.push_back(Piece{std::move(r), p.holders});
    added.push_back(std::move(inside));
  }
  const size_t from = kept.size();
  pieces_ = std::move(kept);
  for (Piece& p : added) pieces_.push_back(std::move(p));
  merge(from);
}

void Residency::write(const Rect& box, const RankSet& holders) {
  if (box.empty()) return;
  std::vector<Piece> kept, added;
  kept.reserve(pieces_.size() + 1);
  for (Piece& p : pieces_) {
    if (!p.box.overlaps(box)) {
      kept.push_back(std::move(p));
      continue;
    }
    for (Rect& r : subtract(p.box, box)) added.push_back(Piece{std::move(r), p.holders});
  }
  added.push_back(Piece{box, holders});
  const size_t from = kept.size();
  pieces_ = std::move(kept);
  for (Piece& p : added) pieces_.push_back(std::move(p));
  merge(from);
}

void Residency::take(const Residency& from, const Rect& box) {
  if (box.empty()) return;
  std::vector<Piece> kept, added;
  kept.reserve(pieces_.size() + from.pieces_.size());
  for (Piece& p : pieces_) {
    if (!p.box.overlaps(box)) {
      kept.push_back(std::move(p));
      continue;
    }
    for (Rect& r : subtract(p.box, box)) added.push_back(Piece{std::move(r), p.holders});
  }
  for (const Piece& p : from.pieces_)
    if (Rect r = intersect(p.box, box); !r.empty()) added.push_back(Piece{std::move(r), p.holders});
  const size_t at = kept.size();
  pieces_ = std::move(kept);
  for (Piece& p : added) pieces_.push_back(std::move(p));
  merge(at);
}

// Joins `pieces_[from..]` (the ones just added) with pieces that have the same holders and
// together with them form a box (neighbours along one dimension, equal extents in the
// others), so that repeated writes and copies of shifting parts do not fragment the record.
void Residency::merge(size_t from) {
  auto joinable = [](const Piece& a, const Piece& b) {
    if (!(a.holders == b.holders)) return -1;
    int along = -1;
    for (int d = 0; d < a.box.ndim(); ++d) {
      if (a.box.lo[d] == b.box.lo[d] && a.box.hi[d] == b.box.hi[d]) continue;
      if (along >= 0 || (a.box.hi[d] != b.box.lo[d] && b.box.hi[d] != a.box.lo[d])) return -1;
      along = d;
    }
    return along;
  };
  for (size_t i = from; i < pieces_.size(); ++i) {
    bool joined = true;
    while (joined) {
      joined = false;
      for (size_t j = 0; j < pieces_.size(); ++j) {
        if (j == i) continue;
        const int along = joinable(pieces_[i], pieces_[j]);
        if (along < 0) continue;
        Rect& box = pieces_[i].box;
        box.lo[along] = std::min(box.lo[along], pieces_[j].box.lo[along]);
        box.hi[along] = std::max(box.hi[along], pieces_[j].box.hi[along]);
        pieces_.erase(pieces_.begin() + static_cast<std::ptrdiff_t>(j));
        if (j < i) --i;
        if (j < from) --from;
        joined = true;
        break;
      }
    }
  }
}

}  // namespace tessera::detail
