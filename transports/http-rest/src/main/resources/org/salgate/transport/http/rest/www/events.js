// Server-Sent Events read with fetch, which, unlike EventSource, can send the Authorization header.
"use strict";

// Opens path as an event stream; calls on.open(), on.event(type, data, id) for each event and
// on.closed() when the agent ends it, or on.failed(error). Returns a function that closes it.
function openEvents(path, request, on) {
  var controller = new AbortController();
  request(path, { headers: { "Accept": "text/event-stream" }, signal: controller.signal }).then(function (r) {
    on.open();
    var reader = r.body.getReader(), decoder = new TextDecoder(), buffer = "";
    function pump() {
      return reader.read().then(function (chunk) {
        if (chunk.done) {
          on.closed();
          return;
        }
        buffer += decoder.decode(chunk.value, { stream: true });
        var blocks = buffer.split("\n\n");
        buffer = blocks.pop();
        blocks.forEach(function (block) { deliverEvent(block, on.event); });
        return pump();
      });
    }
    return pump();
  }).catch(function (e) {
    if (e.name !== "AbortError") {
      on.failed(e);
    }
  });
  return function () { controller.abort(); };
}

function deliverEvent(block, event) {
  var type = "message", id = "", data = [];
  block.split("\n").forEach(function (line) {
    var colon = line.indexOf(":");
    var field = colon < 0 ? line : line.slice(0, colon);
    var value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") {
      type = value;
    } else if (field === "id") {
      id = value;
    } else if (field === "data") {
      data.push(value);
    }
  });
  if (data.length > 0) {
    event(type, JSON.parse(data.join("\n")), id);
  }
}
