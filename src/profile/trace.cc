// The text format of a trace: a header line, then one tab-separated record per line.
// Text is escaped (\t, \n, \\) so names and file paths survive any characters.
//
//   tessera-profile 2
//   rank <n> | host <name> | start <unix ns> | duration <ns> | meta <key> <value>
//   lane <id> <kind> <index> <name>
//   op   <id> <name> <provenance> <domain>
//   span <lane> <kind> <begin> <end> <op> <task> <bytes> <detail>
//   dep  <task> <pred>
//   mem  <lane> <time> <used> <capacity> <delta> <what>
//   end  <checksum>
//
// The last line seals the file: the FNV-1a hash (64 bits, 16 hex digits) of every byte before
// it. A file cut short (the program killed while writing) lacks it; a damaged one fails it.
#include "profile/trace.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string_view>

namespace tessera::detail {
namespace {

constexpr std::string_view kMagic = "tessera-profile 2";
constexpr std::string_view kFormat = "tessera-profile ";

constexpr LaneKind kLaneKinds[] = {LaneKind::Worker, LaneKind::Utility, LaneKind::Program, LaneKind::Channel,
                                   LaneKind::Memory};
constexpr SpanKind kSpanKinds[] = {SpanKind::Task, SpanKind::Inline, SpanKind::Analysis, SpanKind::Wait,
                                   SpanKind::Copy};

void put(std::ostream& out, std::string_view text) {
  for (char c : text) {
    if (c == '\t') out << "\\t";
    else if (c == '\n') out << "\\n";
    else if (c == '\\') out << "\\\\";
    else out << c;
  }
}

std::string unescape(std::string_view field) {
  std::string s;
  s.reserve(field.size());
  for (size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 1 < field.size()) {
      char c = field[++i];
      s += c == 't' ? '\t' : c == 'n' ? '\n' : c;
    } else {
      s += field[i];
    }
  }
  return s;
}

class LineParser {
 public:
  LineParser(const std::string& source, int line, std::string_view text) : source_(source), line_(line) {
    size_t start = 0;
    while (true) {
      size_t tab = text.find('\t', start);
      fields_.push_back(text.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
      if (tab == std::string_view::npos) break;
      start = tab + 1;
    }
  }
  std::string_view tag() const { return fields_[0]; }
  void expect(size_t n) const {
    if (fields_.size() == n + 1) return;
    std::string what(tag());  // appended step by step: GCC 12 warns falsely on a + chain here
    what.append(" needs ").append(std::to_string(n)).append(" fields, found ");
    fail(what.append(std::to_string(fields_.size() - 1)));
  }
  int64_t number(size_t i) const {
    int64_t v = 0;
    std::string_view f = fields_[i];
    auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
    if (ec != std::errc() || end != f.data() + f.size()) fail("expected a number, found '" + std::string(f) + "'");
    return v;
  }
  std::string text(size_t i) const { return unescape(fields_[i]); }
  template <class Kind, size_t N>
  Kind kind(size_t i, const Kind (&kinds)[N], const char* (*name)(Kind)) const {
    for (Kind k : kinds)
      if (fields_[i] == name(k)) return k;
    fail("unknown kind '" + std::string(fields_[i]) + "'");
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(source_ + ":" + std::to_string(line_) + ": " + what);
  }

 private:
  const std::string& source_;
  int line_;
  std::vector<std::string_view> fields_;
};

}  // namespace

const char* lane_kind_name(LaneKind k) {
  switch (k) {
    case LaneKind::Worker: return "worker";
    case LaneKind::Utility: return "utility";
    case LaneKind::Program: return "program";
    case LaneKind::Channel: return "channel";
    case LaneKind::Memory: return "memory";
  }
  return "?";
}

const char* span_kind_name(SpanKind k) {
  switch (k) {
    case SpanKind::Task: return "task";
    case SpanKind::Inline: return "inline";
    case SpanKind::Analysis: return "analysis";
    case SpanKind::Wait: return "wait";
    case SpanKind::Copy: return "copy";
  }
  return "?";
}

std::string format_rect(const int64_t* lo, const int64_t* hi, int ndim) {
  std::string s = "[";
  for (int d = 0; d < ndim; ++d) {
    if (d) s += ", ";
    s += std::to_string(lo[d]) + ":" + std::to_string(hi[d]);
  }
  return s + "]";
}

uint64_t trace_checksum(std::string_view bytes) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string trace_seal(std::string_view body) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(trace_checksum(body)));
  return "end\t" + std::string(hex) + "\n";
}

void write_trace(std::ostream& file, const Trace& t) {
  std::ostringstream out;
  write_records(out, t);
  const std::string body = out.str();
  file << body << trace_seal(body);
}

void write_records(std::ostream& out, const Trace& t) {
  out << kMagic << "\nrank\t" << t.rank << "\nhost\t";
  put(out, t.host);
  out << "\nstart\t" << t.wall_start_ns << "\nduration\t" << t.duration << "\n";
  for (const auto& [key, value] : t.meta) {
    out << "meta\t";
    put(out, key);
    out << "\t";
    put(out, value);
    out << "\n";
  }
  for (const Lane& l : t.lanes) {
    out << "lane\t" << l.id << "\t" << lane_kind_name(l.kind) << "\t" << l.index << "\t";
    put(out, l.name);
    out << "\n";
  }
  for (const OpInfo& o : t.ops) {
    out << "op\t" << o.id << "\t";
    put(out, o.name);
    out << "\t";
    put(out, o.provenance);
    out << "\t";
    put(out, o.domain);
    out << "\n";
  }
  for (const Span& s : t.spans) {
    out << "span\t" << s.lane << "\t" << span_kind_name(s.kind) << "\t" << s.begin << "\t" << s.end << "\t" << s.op
        << "\t" << s.task << "\t" << s.bytes << "\t";
    put(out, s.detail);
    out << "\n";
  }
  for (const Dependence& d : t.dependences) out << "dep\t" << d.task << "\t" << d.pred << "\n";
  for (const MemorySample& m : t.memory) {
    out << "mem\t" << m.lane << "\t" << m.time << "\t" << m.used << "\t" << m.capacity << "\t" << m.delta << "\t";
    put(out, m.what);
    out << "\n";
  }
}

Trace read_trace(std::istream& file, const std::string& source) {
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (file.bad()) throw std::runtime_error(source + ": cannot be read");
  if (text.empty()) throw std::runtime_error(source + ": empty file, not a tessera profile");
  const std::string_view all(text);
  const std::string_view first = all.substr(0, all.find('\n'));
  const bool one_line = all.find('\n') == std::string_view::npos;
  if (one_line && all.size() + 2 >= kFormat.size() && kMagic.substr(0, all.size()) == all)
    throw std::runtime_error(source + ": truncated: the profile stops after " + std::to_string(all.size()) +
                             " bytes, within its first line");
  const std::string_view version = first.substr(std::min(first.size(), kFormat.size()));
  if (first != kMagic) {
    if (first.substr(0, kFormat.size()) == kFormat && !version.empty() &&
        version.find_first_not_of("0123456789") == std::string_view::npos)
      throw std::runtime_error(source + ": a profile of another format ('" + std::string(first) +
                               "'; this tessera-prof reads '" + std::string(kMagic) +
                               "'): record it again with this tessera");
    throw std::runtime_error(source + ": not a tessera profile (expected '" + std::string(kMagic) + "' first)");
  }
  // The seal: the last line, "end <checksum of everything before it>".
  const size_t lines = static_cast<size_t>(std::count(all.begin(), all.end(), '\n'));
  const size_t body_end = all.size() > 1 ? all.rfind('\n', all.size() - 2) + 1 : 0;
  const std::string_view last = all.substr(body_end);
  if (all.back() != '\n' || last.substr(0, 4) != "end\t") {
    throw std::runtime_error(source + ": truncated: the profile stops after " + std::to_string(all.size()) +
                             " bytes (line " + std::to_string(lines + (all.back() == '\n' ? 0 : 1)) +
                             ") without its closing 'end' record (was the program stopped while writing it?)");
  }
  if (last != trace_seal(all.substr(0, body_end)))
    throw std::runtime_error(source + ": corrupt: the checksum in its 'end' record does not match its contents " +
                             "(the file was changed or damaged after it was written)");
  std::istringstream in{std::string(all.substr(0, body_end))};
  Trace t;
  std::string line;
  int number = 1;
  std::getline(in, line);
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    LineParser p(source, number, line);
    const std::string_view tag = p.tag();
    if (tag == "rank") {
      p.expect(1);
      t.rank = static_cast<int>(p.number(1));
    } else if (tag == "host") {
      p.expect(1);
      t.host = p.text(1);
    } else if (tag == "start") {
      p.expect(1);
      t.wall_start_ns = p.number(1);
    } else if (tag == "duration") {
      p.expect(1);
      t.duration = p.number(1);
    } else if (tag == "meta") {
      p.expect(2);
      t.meta.emplace_back(p.text(1), p.text(2));
    } else if (tag == "lane") {
      p.expect(4);
      Lane l{static_cast<int>(p.number(1)), p.kind(2, kLaneKinds, lane_kind_name), static_cast<int>(p.number(3)),
             p.text(4)};
      if (l.id != static_cast<int>(t.lanes.size())) p.fail("lanes must be numbered 0, 1, 2... in order");
      t.lanes.push_back(std::move(l));
    } else if (tag == "op") {
      p.expect(4);
      OpInfo o{p.number(1), p.text(2), p.text(3), p.text(4)};
      if (o.id != static_cast<int64_t>(t.ops.size())) p.fail("operations must be numbered 0, 1, 2... in order");
      t.ops.push_back(std::move(o));
    } else if (tag == "span") {
      p.expect(8);
      Span s{static_cast<int>(p.number(1)),
             p.kind(2, kSpanKinds, span_kind_name),
             p.number(3),
             p.number(4),
             p.number(5),
             p.number(6),
             p.number(7),
             p.text(8)};
      if (s.lane < 0 || s.lane >= static_cast<int>(t.lanes.size())) p.fail("span on an undeclared lane");
      if (t.lane(s.lane).kind == LaneKind::Memory) p.fail("span on a memory lane");
      if (s.end < s.begin) p.fail("span ends before it begins");
      t.spans.push_back(std::move(s));
    } else if (tag == "dep") {
      p.expect(2);
      t.dependences.push_back({p.number(1), p.number(2)});
    } else if (tag == "mem") {
      p.expect(6);
      MemorySample m{static_cast<int>(p.number(1)), p.number(2), p.number(3), p.number(4), p.number(5), p.text(6)};
      if (m.lane < 0 || m.lane >= static_cast<int>(t.lanes.size())) p.fail("memory sample on an undeclared lane");
      if (t.lane(m.lane).kind != LaneKind::Memory) p.fail("memory sample on a lane that is not a memory lane");
      t.memory.push_back(std::move(m));
    } else {
      p.fail("unknown record '" + std::string(tag) + "'");
    }
  }
  return t;
}

Trace read_trace_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw std::runtime_error(path + ": is a directory, not a profile file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  return read_trace(in, path);
}

}  // namespace tessera::detail
