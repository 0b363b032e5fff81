"use strict";
// The care app's service worker, one for the whole site (`/service-worker.js`, scope `/`).
// - The app shell — the scripts, styles and icons every page uses, none of them a person's data — is kept in a cache
//   named after the server's version ("ock-shell-" + the version the server writes below), so that a new server
//   brings a new worker, a new cache and no stale script. Pages themselves are always asked of the server (they show
//   a person's data) are asked of the server; offline, the pages of a record its person chose to keep on this device
//   (the cache "ock-pages", filled by the page's script) are shown instead, marked with when they were saved, unless
//   an idle sign-out locked them.
// - Changes made on a Care page wait in IndexedDB (outbox.js); where the browser has Background Sync, the worker
//   sends them when the connection is back, even with no page open.
// - Pushed reminders are shown as notifications in the device's language, and a tap opens the reminded day.
var VERSION = "__OCK_VERSION__";
var SHELL = "ock-shell-" + VERSION;
var SHELL_FILES = __OCK_SHELL__;
var WORDS = __OCK_WORDS__;
var OFFLINE_WORDS = __OCK_OFFLINE_WORDS__;
importScripts("/assets/outbox.js");
var Outbox = self.OpenCareKitOutbox;

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

// A page saved for offline use, as it was, marked with when it was saved (the page's script says so).
function savedPage(response) {
  var saved = response.headers.get("X-OCK-Saved") || "0";
  var headers = { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" };
  Outbox.KEPT_HEADERS.forEach(function (name) { if (response.headers.get(name)) { headers[name] = response.headers.get(name); } });
  return response.text().then(function (html) {
    return new Response(html.replace("<html ", '<html data-ock-offline-saved="' + saved.replace(/[^0-9]/g, "") + '" '), {
      status: 200, headers: headers
    });
  });
}

function notKeptPage() {
  var words = OFFLINE_WORDS[String(self.navigator && self.navigator.language || "en").toLowerCase().split("-")[0]] || OFFLINE_WORDS.en;
  var escape = function (text) { return text.replace(/&/g, "&amp;").replace(/</g, "&lt;"); };
  return new Response('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    "<title>" + escape(words.title) + '</title><link rel="stylesheet" href="/assets/opencarekit.css"></head><body>' +
    '<main class="ock-page-main" id="main"><h1>' + escape(words.title) + '</h1><p class="ock-notice" data-ock-not-kept>' +
    escape(words.notKept) + "</p></main></body></html>",
    { status: 503, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store",
                              "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'", "X-Content-Type-Options": "nosniff" } });
}

// Offline: the kept copy of the page asked for. A record's own address, or the app's start ("/"), opens a kept
// Care page of today.
function offlinePage(url) {
  return Outbox.current().catch(function () { return null; }).then(function (current) {
    if (!current || current.locked) { return notKeptPage(); }
    return caches.open(Outbox.PAGES).then(function (cache) {
      return cache.match(url.pathname + url.search).then(function (hit) {
        if (hit) { return hit; }
        var record = /^\/records\/[^/]+/.exec(url.pathname);
        if (record && (url.pathname === record[0] || url.pathname === record[0] + "/")) { return cache.match(record[0] + "/care"); }
        if (url.pathname !== "/") { return null; }
        return cache.keys().then(function (keys) {
          var today = keys.map(function (key) { return new URL(key.url); })
            .filter(function (kept) { return /^\/records\/[^/]+\/care$/.test(kept.pathname) && !kept.search; })[0];
          return today ? cache.match(today.pathname) : null;
        });
      });
    }).then(function (hit) { return hit ? savedPage(hit) : notKeptPage(); });
  });
}

self.addEventListener("sync", function (event) {
  if (event.tag !== "ock-outbox") { return; }
  event.waitUntil(Outbox.current().then(function (current) {
    if (!current || current.locked) { return null; }
    return Outbox.flush(current.account, Outbox.tokens()).then(function (result) {
      // Still offline or the server busy: the browser tries again later.
      if (result === "offline" || result === "later") { throw new Error(result); }
      return self.clients.matchAll({ type: "window" }).then(function (windows) {
        windows.forEach(function (client) { client.postMessage("ock-outbox-changed"); });
      });
    });
  }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (request.mode === "navigate" && url.origin === self.location.origin) {
    event.respondWith(fetch(request).catch(function () { return offlinePage(url); }));
    return;
  }
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
  var isMessage = message.kind === "message";
  // A new message says only that: its words and its author are for the app, not for a lock screen.
  var title = isMessage ? words.newMessage : message.kind === "follow-up" ? words.followUp : words.reminder;
  var when = message.isAllDay ? words.today : (message.time || "");
  var body = isMessage ? "" : [message.title || "", when].filter(Boolean).join(" · ");
  var shown = {
    body: body,
    tag: isMessage ? "message/" + String(message.record || "") : String(message.record || "") + "/" + String(message.task || ""),
    renotify: true,
    icon: "/assets/icon-192.png",
    data: { url: typeof message.url === "string" && message.url.indexOf("/records/") === 0 ? message.url : "/" }
  };
  // The open pages of the app hear of it too ("ock-reminder-shown", what the notification says and opens).
  event.waitUntil(self.registration.showNotification(title, shown).then(function () {
    return self.clients.matchAll({ type: "window" }).then(function (windows) {
      windows.forEach(function (client) {
        client.postMessage({ type: "ock-reminder-shown", title: title, body: body, url: shown.data.url });
      });
    });
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
