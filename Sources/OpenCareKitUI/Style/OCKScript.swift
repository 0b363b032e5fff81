/// The script pages load (from a file, so a Content-Security-Policy without inline script allows it). Everything
/// works without it; with it, charts gain keyboard navigation with a live readout and an audio graph.
public enum OCKScript {
    public static let source = #"""
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
    function activate(index, moveFocus) {
      if (index < 0 || index >= columns.length) { return; }
      columns.forEach(function (column, position) { column.setAttribute("tabindex", position === index ? "0" : "-1"); });
      if (moveFocus) { columns[index].focus(); }
      if (readout) { readout.textContent = columns[index].getAttribute("aria-label"); }
    }
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
"""#
}

/// A whole HTML page around components, linking the stylesheet and script by URL.
public struct OCKPage: Sendable {
    public var title: String
    public var body: [any OCKComponent]
    public var stylesheet: SafeURL
    /// Scripts, loaded deferred in order.
    public var scripts: [SafeURL]
    /// Named values for the page's scripts, as `<meta>` elements (such as a CSRF token).
    public var metadata: [String: String]
    /// The page's icon; nil lets the browser ask for /favicon.ico.
    public var icon: SafeURL?
    /// Forces light or dark; nil follows the reader's system setting.
    public var appearance: Appearance?

    public enum Appearance: String, Sendable { case light, dark }

    public init(title: String, body: [any OCKComponent], stylesheet: SafeURL, scripts: [SafeURL], icon: SafeURL? = nil,
                appearance: Appearance? = nil, metadata: [String: String] = [:]) {
        self.metadata = metadata
        self.icon = icon
        self.title = title
        self.body = body
        self.stylesheet = stylesheet
        self.scripts = scripts
        self.appearance = appearance
    }

    /// The document, starting with its doctype.
    public func rendered(in context: OCKRenderContext) -> String {
        var html = ["lang": context.localization.languageTag]
        if let appearance { html["data-appearance"] = appearance.rawValue }
        var head: [HTML] = [
            .element("meta", ["charset": "utf-8"], []),
            .element("meta", ["name": "viewport", "content": "width=device-width, initial-scale=1"], []),
            .element("title", [:], [.text(title)]),
            .element("link", ["rel": "stylesheet", "href": stylesheet.description], []),
        ]
        if let icon { head.append(.element("link", ["rel": "icon", "href": icon.description], [])) }
        for (name, content) in metadata.sorted(by: { $0.key < $1.key }) {
            head.append(.element("meta", ["name": name, "content": content], []))
        }
        for script in scripts { head.append(.element("script", ["src": script.description, "defer": "defer"], [])) }
        return "<!DOCTYPE html>\n" + HTML.element("html", html, [
            .element("head", [:], head),
            .element("body", [:], body.map { $0.render(in: context) }),
        ]).rendered
    }
}
