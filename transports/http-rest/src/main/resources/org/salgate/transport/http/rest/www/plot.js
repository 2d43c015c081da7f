// A line chart of the last readings in an <svg>, drawn by hand: a time axis of clock times and a
// value axis titled with the readings' unit.
"use strict";

var SVG = "http://www.w3.org/2000/svg";
var TIME_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600]; // seconds
var MIN_SPAN_MILLIS = 10000; // the chart fills from the left until it holds 10 s

function Plot(svg, capacity) {
  this.svg = svg;
  this.capacity = capacity || 600;
  this.points = [];
  this.unit = "";
}

Plot.prototype.clear = function () {
  this.points = [];
  this.draw();
};

Plot.prototype.add = function (timeMillis, value) {
  this.points.push({ t: timeMillis, v: value });
  if (this.points.length > this.capacity) {
    this.points.shift();
  }
};

function svgElement(parent, name, attributes, text) {
  var e = document.createElementNS(SVG, name);
  Object.keys(attributes).forEach(function (a) { e.setAttribute(a, attributes[a]); });
  if (text !== undefined) {
    e.textContent = text;
  }
  parent.appendChild(e);
  return e;
}

function clock(millis) {
  var d = new Date(millis);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map(function (n) { return String(n).padStart(2, "0"); }).join(":");
}

// 1, 2 or 5 times a power of ten, at least span / count.
function niceStep(span, count) {
  var raw = span / count, power = Math.pow(10, Math.floor(Math.log10(raw)));
  return [1, 2, 5, 10].map(function (m) { return m * power; }).find(function (s) { return s >= raw; });
}

Plot.prototype.draw = function () {
  var w = 720, h = 260, x0 = 60, x1 = w - 12, y0 = h - 42, y1 = 10;
  var svg = this.svg;
  svg.textContent = "";
  svg.setAttribute("viewBox", "0 0 " + w + " " + h);
  svgElement(svg, "rect", { x: x0, y: y1, width: x1 - x0, height: y0 - y1, "class": "frame" });
  var last = this.points.length ? this.points[this.points.length - 1].t : Date.now();
  var first = this.points.length ? this.points[0].t : last - MIN_SPAN_MILLIS;
  var span = Math.max(last - first, MIN_SPAN_MILLIS);
  var xAxis = svgElement(svg, "g", { "class": "x-axis" });
  var step = 1000 * (TIME_STEPS.find(function (s) { return span / 1000 / s <= 6; }) || TIME_STEPS[TIME_STEPS.length - 1]);
  for (var t = Math.ceil(first / step) * step; t <= first + span; t += step) {
    var x = x0 + (x1 - x0) * (t - first) / span;
    svgElement(xAxis, "line", { x1: x, x2: x, y1: y0, y2: y0 + 4 });
    svgElement(xAxis, "text", { x: x, y: y0 + 16, "class": "tick" }, clock(t));
  }
  svgElement(xAxis, "text", { x: (x0 + x1) / 2, y: h - 6, "class": "title" }, "time");
  var yAxis = svgElement(svg, "g", { "class": "y-axis" });
  svgElement(yAxis, "text", { transform: "translate(14," + (y0 + y1) / 2 + ") rotate(-90)", "class": "title" },
    this.unit || "value");
  var finite = this.points.filter(function (p) { return isFinite(p.v); }).map(function (p) { return p.v; });
  if (finite.length === 0) {
    return;
  }
  var min = Math.min.apply(null, finite), max = Math.max.apply(null, finite);
  if (min === max) {
    min -= Math.abs(min) / 10 || 1;
    max += Math.abs(max) / 10 || 1;
  }
  var vStep = niceStep(max - min, 4);
  min = Math.floor(min / vStep) * vStep;
  max = Math.ceil(max / vStep) * vStep;
  function yOf(v) { return y0 + (y1 - y0) * (v - min) / (max - min); }
  for (var v = min; v <= max + vStep / 2; v += vStep) {
    svgElement(yAxis, "line", { x1: x0 - 4, x2: x0, y1: yOf(v), y2: yOf(v) });
    svgElement(yAxis, "text", { x: x0 - 6, y: yOf(v) + 4, "class": "tick" }, String(+v.toPrecision(6)));
  }
  var d = "", started = false;
  this.points.forEach(function (p) {
    if (!isFinite(p.v)) {
      started = false;
      return;
    }
    d += (started ? "L" : "M") + (x0 + (x1 - x0) * (p.t - first) / span).toFixed(1) + "," + yOf(p.v).toFixed(1);
    started = true;
  });
  svgElement(svg, "path", { d: d, "class": "line" });
};
