// Reading flags: TESSERA_CONFIG split into words with the shell's quoting rules, one flag
// and its value taken from a list of words, and the checking of boolean and numeric values.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.h"

namespace tessera {
namespace {

// The words a Choice flag takes ("warn|silent|error" -> warn, silent, error).
std::vector<std::string_view> choice_words(const FlagSpec& spec) {
  std::vector<std::string_view> words;
  std::string_view rest = spec.choices;
  for (size_t bar; (bar = rest.find('|')) != std::string_view::npos; rest.remove_prefix(bar + 1)) {
    words.push_back(rest.substr(0, bar));
  }
  words.push_back(rest);
  return words;
}

std::string expected_text(const FlagSpec& spec) {
  switch (spec.kind) {
    case FlagKind::Bool: return "1|t|true|y|yes or 0|f|false|n|no";
    case FlagKind::Text: return "a non-empty value";
    case FlagKind::Choice: {
      std::vector<std::string_view> words = choice_words(spec);
      std::string text = "one of ";
      for (size_t i = 0; i < words.size(); ++i) {
        if (i > 0) text += i + 1 == words.size() ? " or " : ", ";
        text += words[i];
      }
      return text;
    }
    case FlagKind::Count:
    case FlagKind::Size: break;
  }
  std::string unit = spec.kind == FlagKind::Size ? " number of MiB" : " integer";
  if (spec.min_value == 0) return "a non-negative" + unit;
  if (spec.min_value == 1) return "a positive" + unit;
  return "an" + unit + " of at least " + std::to_string(spec.min_value);
}

ConfigError invalid_value(const FlagSpec& spec, std::string_view value, std::string_view source) {
  return ConfigError(std::string(source) + ": invalid value '" + std::string(value) + "' for --" +
                     std::string(spec.name) + ": expected " + expected_text(spec));
}

}  // namespace

std::optional<bool> parse_bool_word(std::string_view word) {
  std::string lower(word);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "1" || lower == "t" || lower == "true" || lower == "y" || lower == "yes") return true;
  if (lower == "0" || lower == "f" || lower == "false" || lower == "n" || lower == "no") return false;
  return std::nullopt;
}

int64_t parse_flag_number(const FlagSpec& spec, std::string_view value, std::string_view source) {
  // Sizes are MiB that the runtime turns into bytes; keep that product in range.
  const int64_t max_value = spec.kind == FlagKind::Size ? (INT64_MAX >> 20) : INT32_MAX;
  int64_t number = 0;
  auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (error != std::errc() || end != value.data() + value.size() || number < spec.min_value) {
    throw invalid_value(spec, value, source);
  }
  if (number > max_value) {
    throw ConfigError(std::string(source) + ": invalid value '" + std::string(value) + "' for --" +
                      std::string(spec.name) + ": expected at most " + std::to_string(max_value));
  }
  return number;
}

std::optional<FlagOccurrence> read_flag(std::span<const std::string> words, size_t& pos,
                                        std::span<const FlagSpec> table, std::string_view source) {
  std::string_view word = words[pos];
  std::string_view body = word.substr(word.starts_with("--") ? 2 : 0);
  size_t equals = body.find('=');
  const FlagSpec* spec = find_flag(table, body.substr(0, equals));
  if (spec == nullptr) return std::nullopt;

  std::optional<std::string_view> attached;
  if (equals != std::string_view::npos) attached = body.substr(equals + 1);
  size_t next = pos + 1;
  std::string value;
  if (spec->kind == FlagKind::Bool) {
    // A separate word is the flag's value only if it is a boolean word; otherwise it
    // belongs to whatever follows (`--profile prog.py`).
    std::optional<bool> truth = true;
    if (attached) {
      truth = parse_bool_word(*attached);
      if (!truth) throw invalid_value(*spec, *attached, source);
    } else if (next < words.size()) {
      if (auto word_truth = parse_bool_word(words[next])) {
        truth = word_truth;
        ++next;
      }
    }
    value = *truth ? "1" : "0";
  } else {
    if (attached) {
      value = *attached;
    } else if (next < words.size() && !words[next].starts_with("--")) {
      value = words[next++];
    } else {
      std::string hint;
      if (next < words.size()) {
        hint = " (write --" + std::string(spec->name) + "=VALUE if the value starts with --)";
      }
      throw ConfigError(std::string(source) + ": missing value for --" + std::string(spec->name) + ": expected " +
                        expected_text(*spec) + hint);
    }
    if (spec->kind == FlagKind::Text && value.empty()) {
      throw invalid_value(*spec, value, source);
    }
    if (spec->kind == FlagKind::Count || spec->kind == FlagKind::Size) {
      parse_flag_number(*spec, value, source);
    }
    if (spec->kind == FlagKind::Choice) {
      std::vector<std::string_view> words = choice_words(*spec);
      if (std::find(words.begin(), words.end(), value) == words.end()) {
        throw invalid_value(*spec, value, source);
      }
    }
  }
  pos = next;
  return FlagOccurrence{spec, std::move(value)};
}

// The shell's rules for blanks, quotes and backslashes, so that `--logdir='/tmp/my runs'`
// survives the round trip through shell_quote.
std::vector<std::string> split_config_words(std::string_view text, std::string_view source) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;  // distinguishes an empty quoted word from no word at all
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\\') {
      if (++i < text.size()) word += text[i];
    } else if (c == '\'' || c == '"') {
      size_t close = i + 1;
      for (; close < text.size() && text[close] != c; ++close) {
        // Inside double quotes a backslash escapes only a quote or another backslash.
        if (c == '"' && text[close] == '\\' && close + 1 < text.size() &&
            (text[close + 1] == '"' || text[close + 1] == '\\')) {
          ++close;
        }
        word += text[close];
      }
      if (close >= text.size()) {
        throw ConfigError(std::string(source) + ": unterminated " + (c == '"' ? "double" : "single") + " quote in '" +
                          std::string(text) + "'");
      }
      i = close;
    } else {
      word += c;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

std::string shell_quote(std::string_view word) {
  auto plain = [](unsigned char c) {
    return std::isalnum(c) || std::string_view("_@%+=:,./-").find(c) != std::string_view::npos;
  };
  bool needs_quotes = word.empty();
  for (unsigned char c : word) needs_quotes = needs_quotes || !plain(c);
  if (!needs_quotes) return std::string(word);
  std::string quoted = "'";
  for (char c : word) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

}  // namespace tessera
