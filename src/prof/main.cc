// `tessera-prof`: reads the `tessera_<rank>.prof` files that --profile writes and shows
// them: `view` (an HTML timeline), `summary` (text), `export --perfetto` (trace JSON).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "prof/browser.h"
#include "prof/html_view.h"
#include "prof/perfetto.h"
#include "prof/summary.h"
#include "profile/trace.h"

namespace tessera::detail {
namespace {

constexpr int kUsageError = 2;

const char* const kHelp =
    "usage: tessera-prof COMMAND [OPTIONS] FILES...\n"
    "\n"
    "Reads the profiles that `tessera --profile` writes (one tessera_<rank>.prof per rank, in\n"
    "--logdir) and shows them. Pass every rank's file to see all ranks together.\n"
    "\n"
    "commands:\n"
    "  view FILES... [-o OUT.html] [--no-browser]\n"
    "                 write one self-contained HTML timeline and open it in a browser\n"
    "  summary FILES... [--top N]\n"
    "                 print lane utilisation, the costliest operations, task durations, warnings\n"
    "  export --perfetto FILES... [-o OUT.json]\n"
    "                 write Chrome/Perfetto trace JSON (open it at ui.perfetto.dev)\n"
    "\n"
    "`tessera-prof COMMAND --help` describes one command.\n";

const char* const kViewHelp =
    "usage: tessera-prof view FILES... [-o OUT.html] [--no-browser]\n"
    "\n"
    "Writes one HTML file (no network needed) with a timeline per rank: a lane per worker, the\n"
    "utility thread, the program thread (time blocked at sync points), the channel (copies) and\n"
    "memory in use per pool. Wheel zooms, dragging pans, hovering shows an operation's name,\n"
    "duration, tile and the line of the program that issued it; clicking a task outlines the\n"
    "tasks it waited on. Tasks shorter than a pixel are merged into grey bands until you zoom in.\n"
    "\n"
    "  -o, --output OUT.html  where to write it (default: tessera_prof.html beside the first file)\n"
    "  --no-browser           only write the file; otherwise it opens in $BROWSER or xdg-open\n";

const char* const kSummaryHelp =
    "usage: tessera-prof summary FILES... [--top N]\n"
    "\n"
    "Prints, per rank, how busy each lane was; the operations that took the most task time with\n"
    "the line that issued them; a histogram of task durations; and warnings about what slows the\n"
    "program down (many tasks under 50 us, workers idle while the utility thread is busy, many\n"
    "sync points, long copies, pools close to full).\n"
    "\n"
    "  --top N   how many operations to list (default 10)\n";

const char* const kExportHelp =
    "usage: tessera-prof export --perfetto FILES... [-o OUT.json]\n"
    "\n"
    "Writes the profiles as Chrome trace-event JSON ({\"traceEvents\": [...]}): a process per rank,\n"
    "a thread per lane, counters for memory in use, arrows from each task to those that waited on\n"
    "it. Open it at https://ui.perfetto.dev or chrome://tracing.\n"
    "\n"
    "  -o, --output OUT.json  where to write it (default: tessera_trace.json beside the first file)\n";

struct Args {
  std::vector<std::string> files;
  std::string output;
  bool help = false, no_browser = false, perfetto = false;
  int top = 10;
};

[[noreturn]] void usage_error(const std::string& what, const char* help) {
  std::cerr << "tessera-prof: " << what << "\n\n" << help;
  std::exit(kUsageError);
}

Args parse(const std::vector<std::string>& words, const char* help) {
  Args a;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= words.size()) usage_error(w + " needs a value", help);
      return words[++i];
    };
    if (w == "-h" || w == "--help") a.help = true;
    else if (w == "-o" || w == "--output") a.output = value();
    else if (w.rfind("--output=", 0) == 0) a.output = w.substr(9);
    else if (w == "--no-browser") a.no_browser = true;
    else if (w == "--perfetto") a.perfetto = true;
    else if (w == "--top") {
      const std::string v = value();
      try {
        a.top = std::stoi(v);
      } catch (const std::exception&) {
        usage_error("--top needs a whole number, not '" + v + "'", help);
      }
    } else if (w.size() > 1 && w[0] == '-') usage_error("unknown option " + w, help);
    else a.files.push_back(w);
  }
  if (!a.help && a.files.empty()) usage_error("no profile files given (e.g. tessera_0.prof)", help);
  return a;
}

std::vector<Trace> load(const std::vector<std::string>& files) {
  std::vector<Trace> traces;
  for (const std::string& f : files) traces.push_back(read_trace_file(f));
  std::stable_sort(traces.begin(), traces.end(), [](const Trace& a, const Trace& b) { return a.rank < b.rank; });
  return traces;
}

std::string beside(const std::string& file, const char* name) {
  return (std::filesystem::path(file).parent_path() / name).string();
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path);
}

int run(int argc, char** argv) {
  const std::vector<std::string> words(argv + 1, argv + argc);
  if (words.empty() || words[0] == "-h" || words[0] == "--help" || words[0] == "help") {
    std::cout << kHelp;
    return words.empty() ? kUsageError : 0;
  }
  const std::string command = words[0];
  const std::vector<std::string> rest(words.begin() + 1, words.end());
  if (command == "view") {
    Args a = parse(rest, kViewHelp);
    if (a.help) return std::cout << kViewHelp, 0;
    const std::string out = a.output.empty() ? beside(a.files[0], "tessera_prof.html") : a.output;
    write_file(out, viewer_html(load(a.files)));
    std::cout << out << "\n";
    if (!a.no_browser && !open_in_browser(out))
      std::cout << "(no browser found: open the file above in one; set $BROWSER to open it automatically)\n";
    return 0;
  }
  if (command == "summary") {
    Args a = parse(rest, kSummaryHelp);
    if (a.help) return std::cout << kSummaryHelp, 0;
    print_summary(load(a.files), std::cout, a.top);
    return 0;
  }
  if (command == "export") {
    Args a = parse(rest, kExportHelp);
    if (a.help) return std::cout << kExportHelp, 0;
    if (!a.perfetto) usage_error("say which format: export --perfetto", kExportHelp);
    const std::string out = a.output.empty() ? beside(a.files[0], "tessera_trace.json") : a.output;
    write_file(out, perfetto_json(load(a.files)));
    std::cout << out << "\n";
    return 0;
  }
  usage_error("unknown command '" + command + "'", kHelp);
}

}  // namespace
}  // namespace tessera::detail

int main(int argc, char** argv) {
  try {
    return tessera::detail::run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "tessera-prof: " << e.what() << "\n";
    return 1;
  }
}
