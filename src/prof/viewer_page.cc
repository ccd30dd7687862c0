// The viewer page: a header with the run's facts, the timeline canvas, a tooltip and a
// panel for the selected task. Self-contained: no fonts, scripts or styles from the network.
#include "prof/viewer_template.h"

namespace tessera::detail {

const char* const kViewerPage = R"VIEWER(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>tessera profile</title>
<style>
  body { margin: 0; font: 12px/1.4 system-ui, sans-serif; color: #222; background: #fff; }
  header { padding: 8px 12px; border-bottom: 1px solid #ddd; }
  h1 { font-size: 15px; margin: 0 0 2px 0; }
  #meta { color: #555; white-space: pre-wrap; }
  .help { color: #777; margin-top: 2px; }
  #wrap { position: relative; }
  #timeline { display: block; width: 100%; cursor: grab; }
  #timeline.dragging { cursor: grabbing; }
  #tip { position: fixed; display: none; pointer-events: none; max-width: 520px; padding: 6px 8px;
         background: #fffff4; border: 1px solid #999; border-radius: 3px; box-shadow: 0 2px 6px #0003;
         white-space: pre-wrap; font: 12px/1.35 ui-monospace, monospace; z-index: 2; }
  #info { padding: 8px 12px; border-top: 1px solid #ddd; white-space: pre-wrap;
          font: 12px/1.35 ui-monospace, monospace; min-height: 3em; }
  .legend span { display: inline-block; padding: 0 6px; margin-right: 6px; border-radius: 2px; }
</style>
</head>
<body>
<header>
  <h1>tessera profile</h1>
  <div id="meta"></div>
  <div class="help">wheel: zoom &middot; drag: pan &middot; hover: details &middot;
    click a task: what it waited on (red) and its operation elsewhere (blue) &middot;
    double-click: the whole run</div>
  <div class="legend"><span style="background:#f6d0de">blocked at a sync point</span><span
    style="background:#9e9e9e;color:#fff">tasks shorter than a pixel, merged</span><span
    style="background:#ff9800">copy</span><span style="background:#cfe3f7">memory in use</span></div>
</header>
<div id="wrap"><canvas id="timeline"></canvas></div>
<div id="tip"></div>
<div id="info">Click a task to see what it waited on.</div>
<script>
/*TESSERA_SCRIPT*/
</script>
</body>
</html>
)VIEWER";

}  // namespace tessera::detail
