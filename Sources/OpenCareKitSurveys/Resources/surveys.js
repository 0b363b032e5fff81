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
