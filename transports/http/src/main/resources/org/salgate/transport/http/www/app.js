// The agent's live page: the sensor table, a sensor's description and commands, a read button,
// and a live chart of a stream from the Server-Sent Events API.
"use strict";

var selected = null;
var source = null;
var plot = new Plot(document.getElementById("chart"), 600);
var stats = { count: 0, gaps: 0, lastSequence: -1, times: [], started: performance.now() };

function $(id) { return document.getElementById(id); }

function status(text, isError) {
  $("status").textContent = text;
  $("status").className = isError ? "error" : "";
}

function failure(response) {
  return response.json().then(function (body) {
    throw new Error(response.status + " " + body.error + ": " + body.message);
  }, function () {
    throw new Error("HTTP " + response.status);
  });
}

function getJson(path) {
  return fetch(path, { headers: { "Accept": "application/json" } })
    .then(function (r) { return r.ok ? r.json() : failure(r); });
}

function getText(path, accept) {
  return fetch(path, { headers: { "Accept": accept } })
    .then(function (r) { return r.ok ? r.text() : failure(r); });
}

function loadSensors() {
  return getJson("/api/sensors").then(function (sensors) {
    var body = $("sensors").tBodies[0];
    body.textContent = "";
    sensors.forEach(function (s) {
      var row = body.insertRow();
      row.dataset.id = s.id;
      [s.id, s.protocol, s.state, s.description].forEach(function (text) {
        row.insertCell().textContent = text;
      });
      row.addEventListener("click", function () { select(s.id, row); });
    });
    $("sensor-count").textContent = "(" + sensors.length + ")";
    status("connected");
  }).catch(function (e) { status(e.message, true); });
}

function select(id, row) {
  stopStream();
  Array.prototype.forEach.call(document.querySelectorAll("#sensors tr.selected"), function (r) {
    r.classList.remove("selected");
  });
  row.classList.add("selected");
  selected = id;
  $("sensor-panel").hidden = false;
  $("sensor-title").textContent = id;
  $("sensor-description").textContent = "";
  $("reading").textContent = "";
  $("commands").textContent = "";
  $("sensorml").textContent = "";
  plot.clear();
  var path = "/api/sensors/" + encodeURIComponent(id);
  getJson(path).then(function (s) {
    $("sensor-description").textContent = s.description || "(no description)";
  }).catch(function (e) { $("sensor-description").textContent = e.message; });
  getText(path + "/commands", "application/xml").then(function (cml) {
    $("commands").textContent = cml;
  }).catch(function (e) { $("commands").textContent = e.message; });
  getText(path, "application/xml").then(function (sml) {
    $("sensorml").textContent = sml;
  }).catch(function (e) { $("sensorml").textContent = e.message; });
}

function read() {
  if (!selected) {
    return;
  }
  var path = "/api/sensors/" + encodeURIComponent(selected) + "/commands/" + encodeURIComponent($("command").value);
  $("reading").textContent = "…";
  fetch(path, { method: "POST", headers: { "Accept": "application/json", "Content-Type": "application/json" }, body: "{}" })
    .then(function (r) { return r.ok ? r.json() : failure(r); })
    .then(function (reading) {
      $("reading").textContent = reading.status === "OK" ? String(reading.value) : reading.status + ": " + reading.error;
    }).catch(function (e) { $("reading").textContent = e.message; });
}

function startStream() {
  if (!selected) {
    return;
  }
  stopStream();
  plot.clear();
  stats = { count: 0, gaps: 0, lastSequence: -1, times: [], started: performance.now() };
  showStats();
  var path = "/api/sensors/" + encodeURIComponent(selected) + "/stream?command="
    + encodeURIComponent($("command").value) + "&interval=" + encodeURIComponent($("interval").value)
    + ($("shared").checked ? "&shared=true" : "");
  source = new EventSource(path);
  $("stream-start").disabled = true;
  $("stream-stop").disabled = false;
  $("stream-state").textContent = "streaming";
  source.onmessage = function (e) {
    var reading = JSON.parse(e.data);
    var sequence = Number(e.lastEventId);
    if (stats.lastSequence >= 0 && sequence !== stats.lastSequence + 1) {
      stats.gaps += 1;
    }
    stats.lastSequence = sequence;
    stats.count += 1;
    stats.times.push(performance.now());
    plot.add(reading.status === "OK" ? Number(reading.value) : NaN);
  };
  source.addEventListener("end", function (e) {
    $("stream-state").textContent = "ended: " + JSON.parse(e.data).reason;
    stopStream(true);
  });
  source.addEventListener("error", function (e) {
    if (e.data) {
      var body = JSON.parse(e.data);
      $("stream-state").textContent = body.error + ": " + body.message;
      stopStream(true);
    } else if (source && source.readyState === EventSource.CLOSED) {
      $("stream-state").textContent = "refused or closed";
      stopStream(true);
    }
  });
}

function stopStream(keepState) {
  if (source) {
    source.close();
    source = null;
  }
  $("stream-start").disabled = false;
  $("stream-stop").disabled = true;
  if (!keepState) {
    $("stream-state").textContent = "";
  }
}

function showStats() {
  var now = performance.now();
  stats.times = stats.times.filter(function (t) { return now - t <= 2000; });
  $("stream-count").textContent = String(stats.count);
  var span = Math.min(2000, now - stats.started) / 1000;
  $("stream-rate").textContent = span > 0.2 ? (stats.times.length / span).toFixed(1) : "0";
  $("stream-gaps").textContent = String(stats.gaps);
}

$("read-button").addEventListener("click", read);
$("stream-start").addEventListener("click", startStream);
$("stream-stop").addEventListener("click", function () { stopStream(false); });
setInterval(function () { showStats(); plot.draw(); }, 250);
loadSensors().then(watchEvents);

// The agent's events keep the table current: a state changes in place, anything else reloads it.
function watchEvents() {
  var events = new EventSource("/api/events");
  events.onopen = function () { document.body.dataset.events = "open"; };
  events.onmessage = function (e) {
    var event = JSON.parse(e.data);
    if (event.type === "SENSOR_STATE") {
      var row = document.querySelector("#sensors tr[data-id='" + CSS.escape(event.subject) + "']");
      if (row) {
        row.cells[2].textContent = event.state;
      }
    } else {
      loadSensors().then(function () {
        var row = selected && document.querySelector("#sensors tr[data-id='" + CSS.escape(selected) + "']");
        if (row) {
          row.classList.add("selected");
        }
      });
    }
  };
}
