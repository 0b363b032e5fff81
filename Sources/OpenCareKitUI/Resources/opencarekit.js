"use strict";
(function () {
  function setUpChart(svg) {
    var columns = Array.prototype.slice.call(svg.querySelectorAll(".ock-chart-column"));
    var card = svg.closest(".ock-chart");
    var readout = card ? card.querySelector(".ock-chart-readout") : null;
    if (columns.length === 0) { return; }
    // Arrow keys work only with the script, so the hint joins the description here.
    var hint = svg.getAttribute("data-ock-hint");
    if (hint) { svg.setAttribute("aria-describedby", svg.getAttribute("aria-describedby") + " " + hint); }
    columns.forEach(function (column, position) { column.setAttribute("tabindex", position === 0 ? "0" : "-1"); });
    var steps = card ? Array.prototype.slice.call(card.querySelectorAll("[data-ock-step]")) : [];
    var selected = null;
    // The selected column keeps its highlight wherever focus goes (a tap's mouse events, a step button).
    function activate(index, moveFocus) {
      if (index < 0 || index >= columns.length) { return; }
      selected = index;
      columns.forEach(function (column, position) {
        column.setAttribute("tabindex", position === index ? "0" : "-1");
        column.classList.toggle("ock-chart-selected", position === index);
      });
      if (moveFocus) { columns[index].focus(); }
      if (readout) { readout.textContent = columns[index].getAttribute("aria-label"); }
      steps.forEach(function (step) {
        var target = index + Number(step.getAttribute("data-ock-step"));
        // aria-disabled, not disabled: a button that reaches the end keeps focus (a disabled one would drop it).
        step.setAttribute("aria-disabled", String(target < 0 || target >= columns.length));
      });
    }
    // Previous and next: from the selected column, or from the last one (the newest) when none is.
    steps.forEach(function (step) {
      step.hidden = columns.length < 2;
      step.addEventListener("click", function () {
        if (step.getAttribute("aria-disabled") === "true") { return; }
        var delta = Number(step.getAttribute("data-ock-step"));
        activate(selected === null ? columns.length - 1 : selected + delta, false);
      });
    });
    // Touch and pen, as Swift Charts' selection: a finger anywhere on the plot selects the column nearest it, and
    // dragging across moves the selection, so the whole plot is the target however narrow a column is. Vertical
    // drags still scroll the page (touch-action: pan-y in the stylesheet).
    function nearest(clientX) {
      var best = 0, distance = Infinity;
      columns.forEach(function (column, position) {
        var box = column.getBoundingClientRect();
        var gap = Math.abs(box.left + box.width / 2 - clientX);
        if (gap < distance) { best = position; distance = gap; }
      });
      return best;
    }
    var dragging = null;
    svg.addEventListener("pointerdown", function (event) {
      if (event.pointerType === "mouse") { return; }
      // No compatibility mouse events after it: they would move focus off the selected column.
      event.preventDefault();
      dragging = event.pointerId;
      if (svg.setPointerCapture) { svg.setPointerCapture(event.pointerId); }
      activate(nearest(event.clientX), true);
    });
    svg.addEventListener("pointermove", function (event) {
      if (event.pointerId !== dragging) { return; }
      activate(nearest(event.clientX), true);
    });
    function endDrag(event) { if (event.pointerId === dragging) { dragging = null; } }
    svg.addEventListener("pointerup", endDrag);
    svg.addEventListener("pointercancel", endDrag);
    // A chart drawn again (a live update) comes back with the column that was selected (`data-ock-selected`).
    var kept = svg.getAttribute("data-ock-selected");
    if (kept !== null && columns[Number(kept)]) { activate(Number(kept), false); }
    columns.forEach(function (column, index) {
      column.addEventListener("focus", function () { activate(index, false); });
      column.addEventListener("click", function () { activate(index, true); });
      column.addEventListener("keydown", function (event) {
        var target = null;
        if (event.key === "ArrowRight" || event.key === "ArrowDown") { target = index + 1; }
        else if (event.key === "ArrowLeft" || event.key === "ArrowUp") { target = index - 1; }
        else if (event.key === "Home") { target = 0; }
        else if (event.key === "End") { target = columns.length - 1; }
        if (target !== null) {
          event.preventDefault();
          activate(Math.max(0, Math.min(columns.length - 1, target)), true);
        }
      });
    });
  }

  function setUpAudioGraph(button) {
    var values = button.getAttribute("data-ock-audio-graph").split(",").map(function (text) {
      return text === "" ? null : Number(text);
    });
    var known = values.filter(function (value) { return value !== null && isFinite(value); });
    var AudioContextType = window.AudioContext || window.webkitAudioContext;
    if (!AudioContextType || known.length === 0) { return; }
    var low = Math.min.apply(null, known), high = Math.max.apply(null, known);
    var context = null, oscillator = null;
    button.hidden = false;
    button.setAttribute("aria-pressed", "false");
    function stop() {
      if (oscillator) { oscillator.onended = null; oscillator.stop(); oscillator = null; }
      button.setAttribute("aria-pressed", "false");
    }
    button.addEventListener("click", function () {
      if (oscillator) { stop(); return; }
      context = context || new AudioContextType();
      var gain = context.createGain();
      gain.gain.value = 0.15;
      gain.connect(context.destination);
      oscillator = context.createOscillator();
      oscillator.type = "sine";
      oscillator.connect(gain);
      var start = context.currentTime, step = 0.2;
      values.forEach(function (value, index) {
        var time = start + index * step;
        if (value === null) {
          gain.gain.setValueAtTime(0, time);
        } else {
          var share = high > low ? (value - low) / (high - low) : 0.5;
          gain.gain.setValueAtTime(0.15, time);
          oscillator.frequency.setValueAtTime(262 + share * 784, time);
        }
      });
      var playing = oscillator;
      oscillator.onended = function () { if (oscillator === playing) { stop(); } };
      oscillator.start(start);
      oscillator.stop(start + values.length * step);
      button.setAttribute("aria-pressed", "true");
    });
  }

  function setUp(root) {
    Array.prototype.forEach.call(root.querySelectorAll("svg[data-ock-chart]"), setUpChart);
    Array.prototype.forEach.call(root.querySelectorAll("[data-ock-audio-graph]"), setUpAudioGraph);
  }

  window.OpenCareKitUI = { setUp: setUp };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { setUp(document); });
  } else {
    setUp(document);
  }
})();
