/// The stylesheet and script of survey pages. The rules use only OpenCareKitUI's custom properties, so a styler's
/// colors, radius and dark mode apply; append them to `OCKStylesheet.css(_:)`. The script is served as a file (the
/// app's CSP allows no inline script) and the pages work without it: the typed name signs and permissions are
/// skipped.
public enum OCKSurveyAssets {
    public static let stylesheet = #"""

/* Surveys */
.ock-survey { display: flex; flex-direction: column; gap: 1rem; max-width: 40rem; margin: 0 auto; }
.ock-survey-progress { display: flex; flex-direction: column; gap: 0.25rem; margin: 0; font-size: 0.9375rem;
  color: var(--ock-color-secondary-label); font-weight: 600; }
.ock-survey-progress progress { width: 100%; height: 0.375rem; accent-color: var(--ock-color-tint); }
.ock-page-main .ock-survey-title { font-size: 1.125rem; margin: 0; color: var(--ock-color-secondary-label); }
.ock-survey-step { display: flex; flex-direction: column; gap: 0.75rem; background: var(--ock-color-card);
  border-radius: var(--ock-radius); padding: var(--ock-padding); border: var(--ock-border-width) solid var(--ock-color-separator); }
.ock-survey-heading { font-size: 1.5rem; margin: 0; }
.ock-survey-detail { margin: 0; white-space: pre-line; }
.ock-survey-hint { margin: 0; font-size: 0.9375rem; font-weight: 400; color: var(--ock-color-secondary-label); }
.ock-survey-image { color: var(--ock-color-tint); }
.ock-survey-image .ock-glyph { width: 3.5rem; height: 3.5rem; }
.ock-body-items { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 0.75rem; }
.ock-body-item { display: flex; gap: 0.75rem; align-items: flex-start; }
.ock-body-item .ock-glyph { color: var(--ock-color-tint); width: 1.75rem; height: 1.75rem; }
.ock-consent-section h3 { font-size: 1.0625rem; margin: 0.5rem 0 0.25rem; }
.ock-consent-section p { margin: 0 0 0.5rem; }
.ock-learn-more summary { display: flex; align-items: center; min-height: 44px; color: var(--ock-color-tint);
  font-weight: 600; cursor: pointer; }
.ock-field, .ock-survey-question { font-weight: 600; margin: 0; }
legend.ock-survey-question { font-size: 1.25rem; padding: 0; margin-bottom: 0.5rem; }
label.ock-survey-question { font-size: 1.25rem; }
.ock-choices { border: 0; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 0.5rem; }
.ock-choice-list { display: flex; flex-wrap: wrap; gap: 0.5rem; }
.ock-choices-checkbox .ock-choice-list, .ock-choices-radio .ock-choice-list { flex-direction: column; }
.ock-choices-radio .ock-choice-list:has(> .ock-choice:nth-child(6)) { flex-direction: row; }
.ock-choice { display: flex; align-items: center; }
.ock-choice input { position: absolute; opacity: 0; width: 1px; height: 1px; }
.ock-choice label { display: flex; align-items: center; justify-content: center; min-height: 44px; min-width: 44px;
  padding: 0.5rem 1rem; border-radius: calc(var(--ock-radius) * 0.75); border: 2px solid var(--ock-color-separator);
  background: var(--ock-color-background); cursor: pointer; flex: 1; }
.ock-choices-radio .ock-choice-list:has(> .ock-choice:nth-child(6)) label { padding: 0.5rem 0.25rem; }
.ock-choice input:checked + label { background: var(--ock-color-tint); color: var(--ock-color-on-tint); border-color: var(--ock-color-tint); }
.ock-choice input:focus-visible + label { outline: 3px solid var(--ock-color-focus); outline-offset: 2px; }
.ock-answer-row { display: flex; align-items: center; gap: 0.5rem; }
.ock-answer-row .ock-value-input { flex: 1; width: 100%; }
.ock-unit { font-weight: 600; color: var(--ock-color-secondary-label); }
.ock-check-row { position: relative; }
.ock-check-row input { position: absolute; opacity: 0; width: 1px; height: 1px; }
.ock-check-row label { display: flex; align-items: center; gap: 0.75rem; min-height: 44px; padding: 0.5rem 0; cursor: pointer; }
.ock-check-row label::before { content: ""; flex: none; display: inline-flex; align-items: center; justify-content: center;
  width: 1.75rem; height: 1.75rem; border: 2px solid var(--ock-color-tint); border-radius: 0.375rem;
  color: var(--ock-color-on-tint); font-weight: 700; }
.ock-check-row input:checked + label::before { content: "✓"; background: var(--ock-color-tint); }
.ock-check-row input:focus-visible + label::before { outline: 3px solid var(--ock-color-focus); outline-offset: 2px; }
.ock-signature-pad { display: flex; flex-direction: column; gap: 0.5rem; }
.ock-signature-pad[hidden] { display: none; }
.ock-signature-canvas { width: 100%; aspect-ratio: 3 / 1; background: #ffffff; border: 2px dashed var(--ock-color-separator);
  border-radius: calc(var(--ock-radius) * 0.5); touch-action: none; cursor: crosshair; }
.ock-survey-actions { display: flex; flex-direction: column; gap: 0.5rem; }
.ock-survey-actions .ock-survey-next { background: var(--ock-color-tint); color: var(--ock-color-on-tint); }
.ock-survey-secondary { display: flex; flex-wrap: wrap; gap: 0.5rem; }
.ock-survey-button { min-height: 44px; min-width: 44px; padding: 0.5rem 1rem; border-radius: 999px; border: 0;
  background: var(--ock-color-card); color: var(--ock-color-tint); font-weight: 600; cursor: pointer; }
.ock-survey-status { display: flex; align-items: center; gap: 0.5rem; margin: 0; font-weight: 600; color: var(--ock-color-tint); }
.ock-survey-status .ock-checkmark { display: inline-flex; align-items: center; justify-content: center; width: 1.75rem;
  height: 1.75rem; border-radius: 50%; background: var(--ock-color-tint); color: var(--ock-color-on-tint); }
.ock-consent-record dt { font-weight: 600; margin-top: 0.5rem; }
.ock-consent-record dd { margin: 0; overflow-wrap: anywhere; }
.ock-consent-signature { background: #ffffff; border: 1px solid var(--ock-color-separator); border-radius: 0.5rem;
  max-width: 20rem; width: 100%; height: auto; }
.ock-consent-text { white-space: pre-line; }
.ock-confirm-actions { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: center; }
.ock-confirm-actions .ock-completion-button { width: auto; }
"""#

    /// Draws the signature with pointer events (mouse, touch, pen) into the form's hidden PNG field, and asks the
    /// browser for notification permission, recording its answer.
    public static let script = #"""
"use strict";
(function () {
  function setUpSignature(pad) {
    var canvas = pad.querySelector("canvas");
    var field = pad.querySelector('input[name="signature"]');
    var clear = pad.querySelector("[data-ock-signature-clear]");
    if (!canvas || !field || !canvas.getContext) { return; }
    pad.hidden = false;
    var context = canvas.getContext("2d");
    context.lineWidth = 3;
    context.lineCap = "round";
    context.lineJoin = "round";
    context.strokeStyle = "#1c1c1e";
    var drawing = false;
    var drawn = false;
    if (field.value.indexOf("data:image/png;base64,") === 0) {
      // The drawing made before going back.
      var earlier = new Image();
      earlier.onload = function () { context.drawImage(earlier, 0, 0, canvas.width, canvas.height); };
      earlier.src = field.value;
      drawn = true;
      pad.setAttribute("data-ock-signed", "true");
    }
    function point(event) {
      var box = canvas.getBoundingClientRect();
      return { x: (event.clientX - box.left) * canvas.width / box.width, y: (event.clientY - box.top) * canvas.height / box.height };
    }
    canvas.addEventListener("pointerdown", function (event) {
      drawing = true;
      if (canvas.setPointerCapture) { canvas.setPointerCapture(event.pointerId); }
      var start = point(event);
      context.beginPath();
      context.moveTo(start.x, start.y);
      context.lineTo(start.x + 0.1, start.y + 0.1);
      context.stroke();
      drawn = true;
      event.preventDefault();
    });
    canvas.addEventListener("pointermove", function (event) {
      if (!drawing) { return; }
      var next = point(event);
      context.lineTo(next.x, next.y);
      context.stroke();
      event.preventDefault();
    });
    function finish() {
      if (!drawing) { return; }
      drawing = false;
      if (drawn) { field.value = canvas.toDataURL("image/png"); }
      pad.setAttribute("data-ock-signed", "true");
    }
    canvas.addEventListener("pointerup", finish);
    canvas.addEventListener("pointercancel", finish);
    if (clear) {
      clear.addEventListener("click", function () {
        context.clearRect(0, 0, canvas.width, canvas.height);
        field.value = "";
        drawn = false;
        pad.removeAttribute("data-ock-signed");
      });
    }
  }

  function setUpPermission(button) {
    var id = button.getAttribute("data-ock-permission");
    var form = button.closest("form");
    var status = form && form.querySelector('[data-ock-permission-status="' + id + '"]');
    var field = form && form.querySelector('input[name="permission.' + id + '"]');
    if (!status || !field) { return; }
    function show(state) {
      field.value = state === "granted" ? "granted" : "";
      status.textContent = status.getAttribute(state === "granted" ? "data-granted" : state === "denied" ? "data-denied" : "data-unavailable");
    }
    if (id !== "notifications" || !("Notification" in window)) { show("unavailable"); return; }
    button.hidden = false;
    if (Notification.permission === "granted") { show("granted"); }
    button.addEventListener("click", function () {
      var asked = Notification.requestPermission(function (state) { show(state); });
      if (asked && asked.then) { asked.then(show); }
    });
  }

  function setUp() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-ock-signature]"), setUpSignature);
    Array.prototype.forEach.call(document.querySelectorAll("[data-ock-permission]"), setUpPermission);
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", setUp); } else { setUp(); }
})();
"""#
}
