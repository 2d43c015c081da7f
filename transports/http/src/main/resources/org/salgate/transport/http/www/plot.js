// A line chart of the last readings on a <canvas>, drawn by hand: no library needed.
"use strict";

function Plot(canvas, capacity) {
  this.canvas = canvas;
  this.capacity = capacity || 600;
  this.values = [];
}

Plot.prototype.clear = function () {
  this.values = [];
  this.draw();
};

Plot.prototype.add = function (value) {
  this.values.push(value);
  if (this.values.length > this.capacity) {
    this.values.shift();
  }
};

Plot.prototype.draw = function () {
  var ctx = this.canvas.getContext("2d");
  var w = this.canvas.width, h = this.canvas.height, pad = 30;
  ctx.clearRect(0, 0, w, h);
  ctx.strokeStyle = "#ccc";
  ctx.strokeRect(pad, 5, w - pad - 5, h - pad);
  var finite = this.values.filter(function (v) { return typeof v === "number" && isFinite(v); });
  if (finite.length === 0) {
    return;
  }
  var min = Math.min.apply(null, finite), max = Math.max.apply(null, finite);
  if (min === max) {
    min -= 1;
    max += 1;
  }
  ctx.fillStyle = "#555";
  ctx.font = "11px sans-serif";
  ctx.fillText(String(+max.toPrecision(4)), 2, 14);
  ctx.fillText(String(+min.toPrecision(4)), 2, h - pad);
  var x0 = pad, x1 = w - 5, y0 = h - pad, y1 = 5;
  var n = Math.max(this.values.length, 60); // fills from the left, then scrolls at capacity
  ctx.strokeStyle = "#2266cc";
  ctx.beginPath();
  var started = false;
  for (var i = 0; i < this.values.length; i++) {
    var v = this.values[i];
    if (typeof v !== "number" || !isFinite(v)) {
      started = false;
      continue;
    }
    var x = x0 + (x1 - x0) * i / (n - 1);
    var y = y0 + (y1 - y0) * (v - min) / (max - min);
    if (started) {
      ctx.lineTo(x, y);
    } else {
      ctx.moveTo(x, y);
      started = true;
    }
  }
  ctx.stroke();
};
