// The pieces group-by hashes with: key tuples as 64-bit words, their hash, and an open-addressing
// table of group ids. Internal to groupby.cc.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace tessera::frame::detail {

constexpr uint64_t kNull = ~uint64_t{0};  // the word of a null key (no real key has it: see key_word)

inline uint64_t mix(uint64_t h) {  // splitmix64's finaliser
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

/// The hash of a key tuple of n words: one multiply per word, one finaliser for the tuple.
inline uint64_t hash_words(const uint64_t* w, size_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (size_t j = 0; j < n; ++j) h = ((h << 23 | h >> 41) ^ w[j]) * 0xd6e8feb86659fd93ull;
  return mix(h);
}

/// A key's word; `null` set when the key is null.
template <class T>
uint64_t key_word(T x, bool negative_is_null, bool& null) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(x)) {
      null = true;
      return kNull;
    }
    const double d = x == 0 ? 0.0 : static_cast<double>(x);  // -0.0 and 0.0 are one group
    uint64_t w;
    std::memcpy(&w, &d, sizeof w);
    return w;  // never kNull: that is a NaN's bits
  } else {
    if constexpr (std::is_signed_v<T>) {
      if (negative_is_null && x < 0) {
        null = true;
        return kNull;
      }
      // A real key of -1 has kNull's word: it only happens where negatives are not null, and
      // then no key is null.
      return static_cast<uint64_t>(static_cast<int64_t>(x));
    } else {
      return static_cast<uint64_t>(x);
    }
  }
}

/// Open addressing with linear probing over group ids. A slot holds an id and the top 32 bits
/// of its group's hash, so a probe reads a group's key only when those bits match; the keys
/// and full hashes live with the caller (`width` words per id).
class SlotTable {
 public:
  explicit SlotTable(size_t expect = 0) { resize(2 * expect); }

  /// The id of the group whose key is `key` (hash h) among `keys`, or -1; `slot` is where the
  /// probe stopped (where insert puts a new group).
  int64_t find(uint64_t h, const uint64_t* key, const uint64_t* keys, size_t width, size_t& slot) const {
    const uint64_t tag = h >> 32;
    for (size_t i = h & mask_;; i = (i + 1) & mask_) {
      const uint64_t s = slots_[i];
      if (s == kEmpty) {
        slot = i;
        return -1;
      }
      if (s >> 32 == tag) {
        const uint64_t id = s & 0xffffffffu;
        if (std::memcmp(keys + id * width, key, width * sizeof(uint64_t)) == 0) return static_cast<int64_t>(id);
      }
    }
  }
  /// Adds group `id` (hash h) at the slot find gave; `hashes` are the full hashes of every id,
  /// to place the groups again when the table grows.
  void insert(size_t slot, uint64_t h, uint32_t id, const uint64_t* hashes) {
    slots_[slot] = (h >> 32) << 32 | id;
    if (2 * ++held_ > slots_.size()) {
      std::vector<uint64_t> old;
      old.swap(slots_);
      resize(2 * old.size());
      for (uint64_t s : old) {
        if (s == kEmpty) continue;
        size_t i = hashes[s & 0xffffffffu] & mask_;
        while (slots_[i] != kEmpty) i = (i + 1) & mask_;
        slots_[i] = s;
      }
    }
  }
  size_t size() const { return held_; }
  void prefetch(uint64_t h) const { __builtin_prefetch(&slots_[h & mask_]); }

 private:
  static constexpr uint64_t kEmpty = ~uint64_t{0};
  void resize(size_t capacity) {
    size_t c = 64;
    while (c < capacity) c *= 2;
    slots_.assign(c, kEmpty);
    mask_ = c - 1;
  }
  std::vector<uint64_t> slots_;
  size_t mask_ = 0, held_ = 0;
};

}  // namespace tessera::frame::detail
