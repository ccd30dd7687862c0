// The HTML viewer's template, compiled into tessera-prof so the tool is one file: the page
// (markup and style) and its script. html_view.cc fills in the traces.
#pragma once

namespace tessera::detail {

/// The page; "/*TESSERA_SCRIPT*/" marks where the script goes.
extern const char* const kViewerPage;
/// The timeline script; "/*TESSERA_DATA*/" marks where the traces' JSON goes.
extern const char* const kViewerScript;

}  // namespace tessera::detail
