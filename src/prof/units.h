// Human-readable durations, byte counts and percentages for tessera-prof's reports, and
// JSON string literals for the files it writes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tessera::detail {

/// "850 ns", "12.3 µs", "4.56 ms", "1.234 s".
std::string format_duration(int64_t ns);
/// "512 B", "3.0 KiB", "96.0 MiB", "1.5 GiB".
std::string format_bytes(int64_t bytes);
/// "84.3 %" for part/whole (0 when whole is 0).
std::string format_percent(double part, double whole);

/// Appends `text` as a JSON string literal. '<' is written as \u003c so the result is
/// also safe inside an HTML <script> element.
void append_json_string(std::string& out, std::string_view text);

}  // namespace tessera::detail
