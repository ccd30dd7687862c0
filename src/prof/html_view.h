// `tessera-prof view`: one self-contained HTML file with the timeline of every rank,
// the traces embedded as JSON in the page's script.
#pragma once

#include <string>
#include <vector>

#include "profile/trace.h"

namespace tessera::detail {

/// The traces as the viewer script reads them (compact arrays, a string table per rank).
std::string viewer_data_json(const std::vector<Trace>& traces);

/// The whole page.
std::string viewer_html(const std::vector<Trace>& traces);

}  // namespace tessera::detail
