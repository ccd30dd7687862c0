// Opening a file in the user's browser, when there is one: $BROWSER, else xdg-open on a
// graphical session. Never fails and never waits for the browser.
#pragma once

#include <string>

namespace tessera::detail {

/// Starts a browser on `path` in the background; false (and nothing happens) when no
/// browser is available.
bool open_in_browser(const std::string& path);

}  // namespace tessera::detail
