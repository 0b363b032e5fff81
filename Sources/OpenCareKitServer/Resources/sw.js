"use strict";
// The care app's service worker, one for the whole site (`/service-worker.js`, scope `/`).
// - The app shell — the scripts, styles and icons every page uses, none of them a person's data — is kept in a cache
//   named after the server's version ("ock-shell-" + the version the server writes below), so that a new server
//   brings a new worker, a new cache and no stale script. Pages themselves are always asked of the server (they show
//   a person's data, and are never stored here yet).
// - Pushed reminders are shown as notifications in the device's language, and a tap opens the reminded day.
var VERSION = "__OCK_VERSION__";
var SHELL = "ock-shell-" + VERSION;
var SHELL_FILES = __OCK_SHELL__;
var WORDS = __OCK_WORDS__;

self.addEventListener("install", function (event) {
  // From the server, not the browser's HTTP cache: that may still hold the previous version's files.
  event.waitUntil(caches.open(SHELL).then(function (cache) {
    return cache.addAll(SHELL_FILES.map(function (file) { return new Request(file, { cache: "reload" }); }));
  }));
});

self.addEventListener("activate", function (event) {
  // The shells of earlier versions go; the worker takes the open pages at once.
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name.indexOf("ock-shell-") === 0 && name !== SHELL; })
      .map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("message", function (event) {
  // A page that offered the reload after a new version was installed asks the waiting worker to take over.
  if (event.data === "ock-activate") { self.skipWaiting(); }
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin || SHELL_FILES.indexOf(url.pathname) < 0) { return; }
  // The shell from this version's cache, else from the network (and kept).
  event.respondWith(caches.open(SHELL).then(function (cache) {
    return cache.match(request, { ignoreSearch: true }).then(function (hit) {
      return hit || fetch(request, { cache: "no-cache" }).then(function (response) {
        if (response.ok) { cache.put(request, response.clone()); }
        return response;
      });
    });
  }));
});

function wordsFor(language) {
  var code = String(language || "en").toLowerCase().split("-")[0];
  return WORDS[code] || WORDS.en;
}

self.addEventListener("push", function (event) {
  var message = {};
  try { message = event.data ? event.data.json() : {}; } catch (error) { message = {}; }
  var words = wordsFor(self.navigator && self.navigator.language);
  var title = message.kind === "follow-up" ? words.followUp : words.reminder;
  var when = message.isAllDay ? words.today : (message.time || "");
  var body = [message.title || "", when].filter(Boolean).join(" · ");
  event.waitUntil(self.registration.showNotification(title, {
    body: body,
    tag: String(message.record || "") + "/" + String(message.task || ""),
    renotify: true,
    icon: "/assets/icon-192.png",
    data: { url: typeof message.url === "string" && message.url.indexOf("/records/") === 0 ? message.url : "/" }
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    for (var index = 0; index < windows.length; index += 1) {
      if (windows[index].url === url.href && "focus" in windows[index]) { return windows[index].focus(); }
    }
    return self.clients.openWindow(url.href);
  }));
});
