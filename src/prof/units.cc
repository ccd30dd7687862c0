// Formatting of units and JSON strings.
#include "prof/units.h"

#include <cstdio>

namespace tessera::detail {

std::string format_duration(int64_t ns) {
  char buf[64];
  const double v = static_cast<double>(ns);
  if (ns < 1000) std::snprintf(buf, sizeof buf, "%lld ns", static_cast<long long>(ns));
  else if (ns < 1000000) std::snprintf(buf, sizeof buf, "%.1f µs", v / 1e3);
  else if (ns < 1000000000) std::snprintf(buf, sizeof buf, "%.2f ms", v / 1e6);
  else std::snprintf(buf, sizeof buf, "%.3f s", v / 1e9);
  return buf;
}

std::string format_bytes(int64_t bytes) {
  char buf[64];
  const double v = static_cast<double>(bytes < 0 ? -bytes : bytes);
  const char* sign = bytes < 0 ? "-" : "";
  if (v < 1024) std::snprintf(buf, sizeof buf, "%s%.0f B", sign, v);
  else if (v < 1024.0 * 1024) std::snprintf(buf, sizeof buf, "%s%.1f KiB", sign, v / 1024);
  else if (v < 1024.0 * 1024 * 1024) std::snprintf(buf, sizeof buf, "%s%.1f MiB", sign, v / (1024.0 * 1024));
  else std::snprintf(buf, sizeof buf, "%s%.2f GiB", sign, v / (1024.0 * 1024 * 1024));
  return buf;
}

std::string format_percent(double part, double whole) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", whole > 0 ? 100.0 * part / whole : 0.0);
  return buf;
}

void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case '<': out += "\\u003c"; break;  // no "</script>" or "<!--" inside a script element
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

}  // namespace tessera::detail
