// The agent's live page: a token prompt when the agent asks for one, the sensor table, a sensor's
// description and commands, a read button, and a live chart of a stream of Server-Sent Events.
"use strict";

var TOKEN_KEY = "salgate.token"; // in this tab's sessionStorage: never in a URL or a cookie
var UNITS = { "1": "", "By": "bytes" }; // UCUM codes shown otherwise; others as they are
var selected = null;
var closeStream = null;
var closeEvents = null;
var plot = new Plot(document.getElementById("chart"), 600);
var stats = { count: 0, gaps: 0, lastSequence: -1, times: [], started: performance.now() };

function $(id) { return document.getElementById(id); }

function status(text, isError) {
  $("status").textContent = text;
  $("status").className = isError ? "error" : "";
}

function token() { return sessionStorage.getItem(TOKEN_KEY) || ""; }

function failure(response) {
  return response.json().then(function (body) {
    var e = new Error(response.status + " " + body.error + ": " + body.message);
    e.status = response.status;
    throw e;
  }, function () {
    var e = new Error("HTTP " + response.status);
    e.status = response.status;
    throw e;
  });
}

// fetch with this tab's token; a 401 after sign-in sends the person back to the prompt.
function request(path, options) {
  options = options || {};
  options.headers = options.headers || {};
  if (token()) {
    options.headers["Authorization"] = "Bearer " + token();
  }
  options.credentials = "omit";
  return fetch(path, options).then(function (r) {
    if (r.status === 401 && document.body.dataset.role) {
      signOut("The agent no longer accepts this token; sign in again.");
    }
    return r.ok ? r : failure(r);
  });
}

function getJson(path) {
  return request(path, { headers: { "Accept": "application/json" } }).then(function (r) { return r.json(); });
}

function getText(path, accept) {
  return request(path, { headers: { "Accept": accept } }).then(function (r) { return r.text(); });
}

// ------------------------------------------------------------------ signing in and out

function start() {
  getJson("/api/session").then(function (session) {
    document.body.dataset.role = session.role;
    $("who").textContent = session.tokenRequired ? "signed in as " + session.role : "no token needed: " + session.role;
    $("signout").hidden = !session.tokenRequired;
    $("signin").hidden = true;
    $("signin-message").textContent = "";
    document.querySelector("main").hidden = false;
    return loadSensors().then(watchEvents);
  }).catch(function (e) {
    if (e.status !== 401) {
      status(e.message, true);
    } else {
      signOut(token() ? "The agent refused this token: it is not one of its tokens. Check it and try again." : "");
    }
  });
}

function signOut(message) {
  sessionStorage.removeItem(TOKEN_KEY);
  delete document.body.dataset.role;
  stopStream(false);
  if (closeEvents) {
    closeEvents();
    closeEvents = null;
  }
  closeSensor();
  $("sensors").tBodies[0].textContent = "";
  document.querySelector("main").hidden = true;
  $("signout").hidden = true;
  $("who").textContent = "not signed in";
  status("");
  $("signin").hidden = false;
  $("signin-message").textContent = message;
  $("token").value = "";
  $("token").focus();
}

$("signin").addEventListener("submit", function (e) {
  e.preventDefault(); // the token goes nowhere but this tab's storage and the requests' headers
  sessionStorage.setItem(TOKEN_KEY, $("token").value.trim());
  start();
});
$("signout").addEventListener("click", function () { signOut(""); });

// ------------------------------------------------------------------ sensors

function loadSensors() {
  return getJson("/api/sensors").then(function (sensors) {
    var body = $("sensors").tBodies[0];
    body.textContent = "";
    sensors.forEach(function (s) {
      var row = body.insertRow();
      row.dataset.id = s.id;
      row.title = s.description;
      [s.id, s.protocol, s.state, s.description].forEach(function (text, i) {
        var cell = row.insertCell();
        cell.textContent = text;
        cell.className = ["", "wide", "", "wide description"][i];
      });
      row.addEventListener("click", function () { select(s.id, row); });
      row.classList.toggle("selected", s.id === selected);
    });
    $("sensor-count").textContent = "(" + sensors.length + ")";
    status("connected");
  }).catch(function (e) { status(e.message, true); });
}

function closeSensor() {
  selected = null;
  delete document.body.dataset.open;
  $("sensor-panel").hidden = true;
}

function select(id, row) {
  stopStream(false);
  Array.prototype.forEach.call(document.querySelectorAll("#sensors tr.selected"), function (r) {
    r.classList.remove("selected");
  });
  row.classList.add("selected");
  selected = id;
  document.body.dataset.open = id;
  $("sensor-panel").hidden = false;
  $("sensor-title").textContent = id;
  ["sensor-description", "reading", "reading-unit", "commands", "sensorml"].forEach(function (e) { $(e).textContent = ""; });
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

// A reading's unit (a UCUM code) as the page shows it.
function unitShown(code) {
  return code in UNITS ? UNITS[code] : code;
}

function read() {
  if (!selected) {
    return;
  }
  var command = $("command").value;
  var path = "/api/sensors/" + encodeURIComponent(selected) + "/commands/" + encodeURIComponent(command);
  $("reading").textContent = "…";
  $("reading-unit").textContent = "";
  request(path, { method: "POST", headers: { "Accept": "application/json", "Content-Type": "application/json" }, body: "{}" })
    .then(function (r) { return r.json(); })
    .then(function (reading) {
      var ok = reading.status === "OK";
      $("reading").textContent = ok ? shown(reading.value) : reading.status + ": " + reading.error;
      $("reading-unit").textContent = ok ? unitShown(reading.unit || "") : "";
    }).catch(function (e) { $("reading").textContent = e.message; });
}

/** A value as a person reads it: a fraction to six significant digits (the API keeps every digit). */
function shown(value) {
  return typeof value === "number" && !Number.isInteger(value) ? String(Number(value.toPrecision(6))) : String(value);
}

function removeSensor() {
  if (selected && confirm("Remove sensor " + selected + " from the agent?")) {
    request("/api/sensors/" + encodeURIComponent(selected), { method: "DELETE" })
      .then(function () { stopStream(false); closeSensor(); })
      .catch(function (e) { status(e.message, true); });
  }
}

function loadConfig() {
  if ($("config-panel").open) {
    getText("/api/config", "application/xml").then(function (pcml) { $("config").textContent = pcml; })
      .catch(function (e) { $("config").textContent = e.message; });
  }
}

// ------------------------------------------------------------------ the live stream

function startStream() {
  if (!selected) {
    return;
  }
  stopStream(false);
  plot.clear();
  plot.unit = "";
  stats = { count: 0, gaps: 0, lastSequence: -1, times: [], started: performance.now() };
  showStats();
  var path = "/api/sensors/" + encodeURIComponent(selected) + "/stream?command="
    + encodeURIComponent($("command").value) + "&interval=" + encodeURIComponent($("interval").value)
    + ($("shared").checked ? "&shared=true" : "");
  $("stream-start").disabled = true;
  $("stream-stop").disabled = false;
  $("stream-state").textContent = "starting";
  closeStream = openEvents(path, request, {
    open: function () { $("stream-state").textContent = "streaming"; },
    event: function (type, data, id) {
      if (type === "end") {
        stopStream(true, "ended: " + data.reason);
      } else if (type === "error") {
        stopStream(true, data.error + ": " + data.message);
      } else {
        reading(data, Number(id));
      }
    },
    closed: function () { stopStream(true, "closed by the agent"); },
    failed: function (e) { stopStream(true, e.message); }
  });
}

function reading(r, sequence) {
  if (stats.lastSequence >= 0 && sequence !== stats.lastSequence + 1) {
    stats.gaps += 1;
  }
  stats.lastSequence = sequence;
  stats.count += 1;
  stats.times.push(performance.now());
  if (!plot.unit && r.unit) {
    plot.unit = unitShown(r.unit);
  }
  plot.add(r.timestampMicros / 1000, r.status === "OK" ? Number(r.value) : NaN);
}

function stopStream(keepState, state) {
  if (closeStream) {
    closeStream();
    closeStream = null;
  }
  $("stream-start").disabled = false;
  $("stream-stop").disabled = true;
  if (!keepState) {
    $("stream-state").textContent = "";
  } else if (state) {
    $("stream-state").textContent = state;
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

// ------------------------------------------------------------------ the agent's events

// They keep the table current: a state changes in place, anything else reloads it.
function watchEvents() {
  closeEvents = openEvents("/api/events", request, {
    open: function () { document.body.dataset.events = "open"; },
    event: function (type, event) {
      if (event.type === "SENSOR_STATE") {
        var row = document.querySelector("#sensors tr[data-id='" + CSS.escape(event.subject) + "']");
        if (row) {
          row.cells[2].textContent = event.state;
        }
      } else {
        loadSensors();
      }
    },
    closed: eventsLost,
    failed: eventsLost
  });
}

function eventsLost() {
  delete document.body.dataset.events;
  if (document.body.dataset.role) {
    status("the agent's events stopped; following them again in 5 s", true);
    setTimeout(function () { if (document.body.dataset.role && !document.body.dataset.events) { watchEvents(); } }, 5000);
  }
}

$("read-button").addEventListener("click", read);
$("remove-sensor").addEventListener("click", removeSensor);
$("config-panel").addEventListener("toggle", loadConfig);
$("stream-start").addEventListener("click", startStream);
$("stream-stop").addEventListener("click", function () { stopStream(false); });
setInterval(function () { showStats(); plot.draw(); }, 250);
start();
