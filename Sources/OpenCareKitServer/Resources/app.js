"use strict";
(function () {
  function meta(name) {
    var element = document.querySelector('meta[name="' + name + '"]');
    return element ? element.getAttribute("content") : null;
  }
  var token = meta("ock-csrf");
  var source = null;

  // The app on this device (its data: outbox.js). A person may keep a record on this device ("Keep my care plan on
  // this phone"): its Care pages from a week back to a week ahead, Insights, Contacts and the consent are saved in
  // the cache "ock-pages" and refreshed whenever a page of it opens online, and the worker shows them offline. The
  // Care page's changes go through a queue on every device: shown at once ("Waiting to send"), sent in order when
  // the connection allows, and listed under "Not sent" with the server's reason when the record refuses one.
  // Everything belongs to the signed-in account (the `ock_account` cookie, a pseudonym): another account's pages
  // are dropped when it signs in, and signing out clears the account's data, after a warning if changes still wait.
  var Device = (function () {
    var Outbox = window.OpenCareKitOutbox;
    var root = document.querySelector("[data-ock-device]");
    var usable = Boolean(Outbox && root && window.indexedDB && window.caches && window.fetch);
    var words = {};
    try { words = JSON.parse((root && root.getAttribute("data-words")) || "{}"); } catch (error) { words = {}; }
    var record = meta("ock-record");
    var savedAt = Number(document.documentElement.getAttribute("data-ock-offline-saved") || 0);
    var loadedAt = Date.now();
    var account = null;
    var signedOut = false;
    var retrying = null;
    // The changes made on this page while online, by number, with their forms: one the record refuses while its
    // card is here is shown on the card, as an error (the person sees it there), rather than under "Not sent".
    var madeHere = {};
    // The changes this page shows as waiting, by number, with their forms: once one is sent, refused or needless,
    // its card shows the server's state again.
    var shownHere = {};
    var actions = { "/care/events/toggle": true, "/care/events/log": true, "/care/events/record": true, "/care/events/log/delete": true,
                    "/surveys/answer": true };
    // Whether this account keeps the record on this device: then a survey that can be answered as one form opens
    // as that form (kept on the device), online or not.
    var keptHere = false;

    function say(key, values) {
      return (words[key] || "").replace("{time}", (values && values.time) || "").replace("{count}", values && values.count !== undefined ? String(values.count) : "");
    }
    // A moment as "9:14", or "Nov 26, 9:14" when it was not today (a page saved days ago must not pass for today's).
    function clock(moment) {
      var when = new Date(moment), options = { hour: "numeric", minute: "2-digit" };
      if (when.toDateString() !== new Date().toDateString()) { options.month = "short"; options.day = "numeric"; }
      try {
        return new Intl.DateTimeFormat(document.documentElement.lang || undefined, options).format(when);
      } catch (error) { return when.toLocaleString(); }
    }
    function accountCookie() {
      var match = /(?:^|;\s*)ock_account=([0-9a-f]{16})(?:;|$)/.exec(document.cookie);
      return match ? match[1] : null;
    }
    function isOffline() { return savedAt > 0 || navigator.onLine === false; }
    function mark(name, value) { document.documentElement.setAttribute(name, String(value)); }

    // The form on this page that a queued change came from (one event's control; a delete names its value; a
    // survey's answers, its card's "Start survey").
    function formFor(write) {
      var action = write.action === "/surveys/answer" ? "/surveys/start" : write.action;
      var forms = document.querySelectorAll('#care-cards form[action="' + write.record + action + '"]');
      for (var index = 0; index < forms.length; index += 1) {
        var form = forms[index];
        var value = function (name) { var input = form.querySelector('input[name="' + name + '"]'); return input ? input.value : null; };
        if (value("task") === write.fields.task && value("occurrence") === write.fields.occurrence &&
            (write.action !== "/care/events/log/delete" || value("created") === write.fields.created)) { return form; }
      }
      return null;
    }
    function labelOf(form) {
      var card = form.closest(".ock-card");
      var title = card && card.querySelector(".ock-header-title");
      var time = form.closest("li") && form.querySelector(".ock-button-title");
      return [title ? title.textContent : "", time ? time.textContent : ""].filter(Boolean).join(" ");
    }
    // A done/undone control showing `done`, its next tap asking the opposite.
    function showDone(form, done) {
      var button = form.querySelector("button[aria-pressed]");
      if (button) { button.setAttribute("aria-pressed", String(done)); }
      var field = form.querySelector('input[name="complete"]');
      if (field) { field.value = done ? "false" : "true"; }
    }

    // The change as the page shows it until the server's answer redraws the card.
    function show(write, form) {
      if (!form) { return; }
      if (write.seq !== undefined) { shownHere[write.seq] = form; }
      if (write.action === "/care/events/toggle") { showDone(form, write.fields.complete === "true"); }
      // A survey answered on this device is not started again while its answers wait.
      if (write.action === "/surveys/answer") { form.querySelector("button").disabled = true; }
      var card = form.closest(".ock-card");
      if (card && !card.querySelector(".ock-waiting-note")) {
        var note = document.createElement("p");
        note.className = "ock-waiting-note";
        note.setAttribute("data-ock-waiting", "");
        note.textContent = say("waiting");
        (card.querySelector(".ock-content-stack") || card).appendChild(note);
      }
    }

    function refused(write) {
      var item = document.createElement("li");
      item.className = "ock-outbox-item";
      var text = document.createElement("p");
      text.textContent = write.state === "notice" ? write.reason : write.label + ": " + write.reason;
      item.appendChild(text);
      var choices = write.state === "notice" ? [["dismiss", function () { Outbox.remove(write.seq).then(status); }]] : [["retry", function () {
        // Sent again as the person asks, without the check against what their page showed.
        write.state = "waiting";
        delete write.reason;
        delete write.fields.seen;
        Outbox.update(write).then(flush);
      }], ["discard", function () { Outbox.remove(write.seq).then(status); }]];
      choices.forEach(function (choice) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "ock-button";
        button.setAttribute("data-ock-" + choice[0], "");
        button.textContent = say(choice[0]);
        button.setAttribute("aria-label", say(choice[0]) + ": " + write.label);
        button.addEventListener("click", choice[1]);
        item.appendChild(button);
      });
      return item;
    }

    // The offline line, the count of changes waiting, and the list of those refused.
    function status() {
      if (!account) { return Promise.resolve(); }
      return Outbox.writes(account).then(function (writes) {
        var bySeq = {};
        writes.forEach(function (write) { bySeq[write.seq] = write; });
        Object.keys(shownHere).forEach(function (seq) {
          var write = bySeq[seq];
          if (write && write.state === "waiting") { return; }
          var form = shownHere[seq];
          delete shownHere[seq];
          if (write && write.state === "refused") { unshow(write, form); } else { unshow(null, form); }
        });
        var here = writes.filter(function (write) { return write.record === record; });
        var waiting = here.filter(function (write) { return write.state === "waiting"; });
        var lines = [];
        if (isOffline()) { lines.push(say("offline", { time: clock(savedAt || loadedAt) })); }
        if (waiting.length) { lines.push(say("waitingCount", { count: waiting.length })); }
        if (signedOut && waiting.length) { lines.push(say("signInToSend")); }
        var line = root.querySelector("[data-ock-device-status]");
        if (line.textContent !== lines.join(" · ")) { line.textContent = lines.join(" · "); }
        var box = root.querySelector("[data-ock-outbox]"), list = box.querySelector("ul");
        var notSent = here.filter(function (write) { return write.state === "refused"; });
        list.textContent = "";
        notSent.forEach(function (write) { list.appendChild(refused(write)); });
        box.hidden = notSent.length === 0;
        var notices = root.querySelector("[data-ock-notices]");
        var told = here.filter(function (write) { return write.state === "notice"; });
        notices.textContent = "";
        told.forEach(function (write) { notices.appendChild(refused(write)); });
        notices.hidden = told.length === 0;
        mark("data-ock-notices", told.length);
        mark("data-ock-waiting", waiting.length);
        mark("data-ock-refused", notSent.length);
      });
    }

    function reapply() {
      if (!account || !record) { return Promise.resolve(); }
      return Outbox.writes(account).then(function (writes) {
        writes.forEach(function (write) {
          if (write.record === record && write.state === "waiting") { show(write, formFor(write)); }
        });
      });
    }

    // Sends what waits; a page saved offline loads again once all is sent, to show the server's state.
    function flush() {
      if (!account || navigator.onLine === false) { return Promise.resolve("offline"); }
      mark("data-ock-flushing", "true");
      var fetched = Outbox.tokens();
      return Outbox.flush(account, function (target, fresh) {
        if (!fresh && target === record && token && !savedAt) { return token; }
        return Promise.resolve(fetched(target, fresh)).then(function (found) {
          if (target === record && found) { token = found; }
          return found;
        });
      }).then(function (result) {
        signedOut = result === "signed-out";
        mark("data-ock-flushing", "false");
        return showRefusalsHere().then(status).then(function () {
          mark("data-ock-flushed", result);
          // Not all sent (the server unreachable or busy, though the browser says it is online): tried again in
          // half a minute while the page is open, where the browser has no Background Sync to do it.
          if ((result === "offline" || result === "later") && !retrying) {
            retrying = window.setTimeout(function () { retrying = null; flush(); }, 30000);
          }
          if (result === "done" && savedAt) { window.location.reload(); }
          // Without live updates the cards show the server's state only after a reload.
          else if (result === "done" && (!source || source.readyState !== 1) && document.getElementById("care-cards")) { window.location.reload(); }
          return result;
        });
      }, function () { mark("data-ock-flushing", "false"); return "later"; });
    }

    // The card of `form` without the waiting note, and a refused done/undone turned back.
    function unshow(write, form) {
      if (!document.body.contains(form)) { return; }
      if (write && write.action === "/care/events/toggle") { showDone(form, write.fields.complete !== "true"); }
      if (form.getAttribute("action") === record + "/surveys/start") { form.querySelector("button").disabled = false; }
      var card = form.closest(".ock-card");
      var note = card && card.querySelector(".ock-waiting-note");
      if (note) { note.remove(); }
    }

    function showRefusalsHere() {
      return Outbox.writes(account).then(function (writes) {
        return Promise.all(writes.filter(function (write) { return write.state === "refused" && madeHere[write.seq]; }).map(function (write) {
          var form = madeHere[write.seq];
          delete madeHere[write.seq];
          if (!document.body.contains(form)) { return null; }
          delete shownHere[write.seq];
          unshow(write, form);
          showError(form, write.reason);
          return Outbox.remove(write.seq);
        }));
      });
    }

    // The change a form makes, as the queue keeps it: its fields (without the CSRF token, fetched when it is sent)
    // and the moment the person acted.
    function change(form, address, label) {
      var fields = {};
      new FormData(form).forEach(function (value, name) { if (name !== "csrf") { fields[name] = String(value); } });
      fields.acted = String(Date.now());
      return { account: account, record: record, action: address.slice(record.length), fields: fields,
               label: label, state: "waiting", queuedAt: Date.now() };
    }
    function queueable(address) {
      return usable && account && record && address.indexOf(record + "/") === 0 && actions[address.slice(record.length)];
    }
    // Posts a change's fields at once, with the page's CSRF token, asking for JSON.
    function sendNow(address, fields) {
      var body = new URLSearchParams(fields);
      body.set("csrf", token || "");
      return fetch(address, { method: "POST", body: body, credentials: "same-origin", headers: { "Accept": "application/json" } });
    }

    // Asks the worker to send what waits once the network is back (Background Sync, where the browser has it).
    function wakeWorker() {
      if (!navigator.serviceWorker) { return Promise.resolve(); }
      return navigator.serviceWorker.ready.then(function (registration) {
        return registration.sync ? registration.sync.register("ock-outbox") : null;
      }).catch(function () { /* sent on the next start or online event */ });
    }

    // A survey answered as one form. Online, it is sent at once: saved, the page goes back to its card; refused,
    // the form is posted the ordinary way, so the server's page shows why beside the answers. Offline (or when the
    // request fails), it is queued like a tap and sent once the network is back; back on its card, the answers
    // show as waiting. The page leaves only once the queue holds them; Done works once.
    function queueSurvey(form) {
      var address = form.getAttribute("action") || "";
      if (!queueable(address)) { return false; }
      if (form.getAttribute("data-ock-sending")) { return true; }
      form.setAttribute("data-ock-sending", "true");
      var done = form.querySelector(".ock-survey-next");
      if (done) { done.disabled = true; }
      var title = document.querySelector(".ock-survey-title");
      var write = change(form, address, title ? title.textContent : "");
      var back = form.querySelector(".ock-survey-secondary a");
      var leave = function () { window.location.href = back ? back.href : record + "/care"; };
      var enqueue = function () {
        return Outbox.queue(write).then(function () { return wakeWorker(); }).then(leave, function () { form.submit(); });
      };
      if (isOffline()) { enqueue(); return true; }
      sendNow(address, write.fields)
        .then(function (response) {
          if (response.ok) { leave(); return; }
          if (response.status >= 500 || response.status === 429 || response.status === 408) { enqueue(); return; }
          form.submit();
        }, enqueue);
      return true;
    }

    // Whether "Start survey" on `form` opens the survey as one form instead: on a device offline, or one that keeps
    // the record (the form is kept there). Resolves nothing; navigates.
    function startSurvey(form) {
      var link = form.closest(".ock-card") && form.closest(".ock-card").querySelector("[data-ock-survey-page]");
      if (!link || !usable || !account || !(keptHere || isOffline())) { return false; }
      window.location.href = link.href;
      return true;
    }

    function queue(form, address) {
      if (!queueable(address) || address.indexOf(record + "/care/events/") !== 0) { return false; }
      var write = change(form, address, labelOf(form));
      var fields = write.fields;
      // A page kept current by its live updates shows what the server has: the check against what it showed is for
      // changes made offline or on a page that fell behind.
      if (!isOffline() && source && source.readyState === 1) { delete fields.seen; }
      show(write, form);
      Outbox.queue(write).then(function (queued) {
        if (!queued) {
          // It cancelled a change still waiting: the card is as the server has it.
          var card = form.closest(".ock-card"), note = card && card.querySelector(".ock-waiting-note");
          if (note) { note.remove(); }
          return reapply().then(status);
        }
        // Made online, its answer comes at once, to the card; made offline, it is listed when it comes.
        if (!isOffline()) { madeHere[write.seq] = form; }
        wakeWorker();
        return status().then(flush);
      }, function () {
        // No room on the device (or IndexedDB failed): sent now, as a page without the queue would.
        sendNow(address, fields).finally(function () { window.location.reload(); });
      });
      return true;
    }

    function keptEntry() {
      return Outbox.kept(account).then(function (entries) {
        return entries.filter(function (entry) { return entry.record === record; })[0] || null;
      });
    }
    function shiftDay(day, offset) {
      var parts = day.split("-").map(Number);
      return new Date(Date.UTC(parts[0], parts[1] - 1, parts[2] + offset)).toISOString().slice(0, 10);
    }
    // Saves the page at `address`; resolves to its HTML, or null. The Care page (`required`) answering 403 or 404
    // means the person may see the record no more: then nothing of it stays (`refreshKept`). Another page that is
    // missing (a record without a consent) is left out.
    function save(cache, address, when, required) {
      return fetch(address, { credentials: "same-origin", redirect: "error", headers: { "X-OCK-Background": "1" } }).then(function (response) {
        if (required && (response.status === 403 || response.status === 404)) { throw new Error("gone"); }
        // A page that is gone (a survey answered since, a consent removed) is no longer kept either.
        if (!response.ok) { return cache.delete(address).then(function () { return null; }); }
        var headers = { "Content-Type": "text/html; charset=utf-8", "X-OCK-Saved": String(when) };
        Outbox.KEPT_HEADERS.forEach(function (name) {
          if (response.headers.get(name)) { headers[name] = response.headers.get(name); }
        });
        return response.text().then(function (html) {
          return cache.put(address, new Response(html, { headers: headers })).then(function () { return html; });
        });
      });
    }
    // The addresses of the one-form surveys a saved page links (`data-ock-survey-page`).
    function surveyForms(html) {
      if (!html || html.indexOf("data-ock-survey-page") < 0) { return []; }
      var page = new DOMParser().parseFromString(html, "text/html");
      return Array.prototype.map.call(page.querySelectorAll("a[data-ock-survey-page]"), function (link) { return link.getAttribute("href"); })
        .filter(function (address) { return address && address.indexOf(record + "/surveys/answer?") === 0; });
    }
    function unique(value, index, list) { return list.indexOf(value) === index; }
    function forgetRecord() {
      return Outbox.forget(account, record).then(function () { return caches.open(Outbox.PAGES); }).then(function (cache) {
        return cache.keys().then(function (keys) {
          return Promise.all(keys.filter(function (key) { return new URL(key.url).pathname.indexOf(record + "/") === 0; })
            .map(function (key) { return cache.delete(key); }));
        });
      });
    }
    // Saves the kept record's pages (a minute after the last time, unless `now`): today's Care page first, which
    // names the patient's today.
    function refreshKept(now) {
      if (!account || !record || savedAt || navigator.onLine === false) { return Promise.resolve(); }
      return keptEntry().then(function (entry) {
        if (!entry || (!now && Date.now() - entry.updated < 60000)) { return null; }
        var when = Date.now();
        return caches.open(Outbox.PAGES).then(function (cache) {
          return save(cache, record + "/care", when, true).then(function (html) {
            var today = html && /\/care\/live\?date=(\d{4}-\d{2}-\d{2})/.exec(html);
            var addresses = [record + "/insights", record + "/contacts", record + "/consent"];
            for (var offset = -7; today && offset <= 7; offset += 1) { addresses.push(record + "/care?date=" + shiftDay(today[1], offset)); }
            // The surveys of the days' cards that can be answered as one form, found in the Care pages saved.
            var surveys = [];
            var saveAll = function (list, found) {
              return list.reduce(function (done, address) {
                return done.then(function () { return save(cache, address, when); }).then(function (page) {
                  if (found && page) { surveys = surveys.concat(surveyForms(page)); }
                });
              }, Promise.resolve());
            };
            return saveAll(addresses, true).then(function () { return saveAll(surveyForms(html).concat(surveys).filter(unique)); });
          });
        }).then(function () { return Outbox.keep(account, record, when); }).then(function () { mark("data-ock-kept", when); });
      }).catch(function (error) {
        if (error && error.message === "gone") { return forgetRecord(); }
        return null; // kept as it was; the next page tries again
      });
    }
    function setUpKeep() {
      var keep = document.querySelector("[data-ock-keep]");
      if (!keep || !record || !("serviceWorker" in navigator)) { return; }
      var button = keep.querySelector("button"), line = keep.querySelector(".ock-keep-status");
      var render = function (entry) {
        keptHere = Boolean(entry);
        button.setAttribute("aria-pressed", String(Boolean(entry)));
        line.textContent = entry && entry.updated ? say("kept", { time: clock(entry.updated) }) : "";
      };
      keep.hidden = false;
      keptEntry().then(render);
      button.addEventListener("click", function () {
        keptEntry().then(function (entry) {
          if (entry) { return forgetRecord().then(function () { render(null); }); }
          return Outbox.keep(account, record, 0).then(function () { return refreshKept(true); }).then(keptEntry).then(render);
        });
      });
    }

    function start() {
      if (!usable) { return; }
      var cookie = accountCookie();
      Outbox.current().then(function (current) {
        if (savedAt) {
          account = current ? current.account : null;
          return null;
        }
        account = cookie;
        if (!cookie) {
          // Signed out (here or in another tab, whose script may not have finished): the kept pages go, locked.
          return current ? caches.delete(Outbox.PAGES).then(function () { return Outbox.setCurrent(current.account, true); }) : null;
        }
        if (current && current.account === cookie && !current.locked) { return null; }
        // Another account's pages (its changes stay, for when it signs in again) are not this one's to see.
        return (current && current.account !== cookie ? caches.delete(Outbox.PAGES) : Promise.resolve()).then(function () {
          return Outbox.setCurrent(cookie, false);
        });
      }).then(function () {
        if (!account) { return; }
        setUpKeep();
        if (!isOffline()) { flush().then(function () { return refreshKept(false); }); }
        // Ready (for the tests too) once the page shows what waits.
        return Promise.all([reapply(), status()]).then(function () { mark("data-ock-device-ready", "true"); });
      }).catch(function () { /* without IndexedDB the app works online only */ });
      window.addEventListener("online", function () { status(); flush().then(function () { return refreshKept(false); }); });
      window.addEventListener("offline", status);
      if (navigator.serviceWorker) {
        navigator.serviceWorker.addEventListener("message", function (event) { if (event.data === "ock-outbox-changed") { status(); } });
      }
    }

    // An idle sign-out: the kept pages are locked until this account signs in again; its changes wait.
    function lock() {
      if (!usable || !account) { return Promise.resolve(); }
      return Outbox.setCurrent(account, true).then(function () { return caches.delete(Outbox.PAGES); }).catch(function () {});
    }

    function ask(count) {
      return new Promise(function (resolve) {
        var box = document.createElement("div");
        box.className = "ock-signout-warning";
        box.setAttribute("role", "alertdialog");
        box.setAttribute("aria-labelledby", "ock-signout-text");
        var text = document.createElement("p");
        text.id = "ock-signout-text";
        text.textContent = say("signOutWaiting", { count: count });
        box.appendChild(text);
        [["stay", false], ["signOutAnyway", true]].forEach(function (choice) {
          var button = document.createElement("button");
          button.type = "button";
          button.className = "ock-button";
          button.setAttribute("data-ock-" + choice[0], "");
          button.textContent = say(choice[0]);
          button.addEventListener("click", function () { box.remove(); resolve(choice[1]); });
          box.appendChild(button);
        });
        document.body.appendChild(box);
        box.querySelector("button").focus();
      });
    }

    // Before signing out: changes not sent are named, and go only if the person says so; then the account's data
    // leaves the device. Resolves to whether to sign out.
    function leave() {
      var who = account || accountCookie();
      if (!usable || !who) { return Promise.resolve(true); }
      return Outbox.writes(who).then(function (writes) {
        return writes.length ? ask(writes.length) : true;
      }, function () { return true; }).then(function (leaving) {
        return leaving ? Outbox.clearAccount(who).then(function () { return true; }, function () { return true; }) : false;
      });
    }

    return { start: start, queue: queue, queueSurvey: queueSurvey, startSurvey: startSurvey, reapply: reapply, lock: lock, leave: leave };
  })();

  function fillTokens(root) {
    Array.prototype.forEach.call(root.querySelectorAll('input[name="csrf"]'), function (input) { input.value = token; });
  }

  // A description of the focused control that survives its card being replaced.
  function focusKey(element) {
    if (!element || element === document.body) { return null; }
    var form = element.closest("form");
    if (form) {
      var fields = Array.prototype.map.call(form.querySelectorAll('input[type="hidden"]:not([name="csrf"])'), function (input) {
        return input.name + "=" + input.value;
      // What the control asks and what its page saw change with the state it shows; the rest names the control.
      }).filter(function (field) { return field.indexOf("complete=") !== 0 && field.indexOf("seen=") !== 0; }).sort().join("&");
      return { action: form.getAttribute("action"), fields: fields, tag: element.tagName };
    }
    return element.id ? { id: element.id } : null;
  }

  function findByKey(key) {
    if (!key) { return null; }
    if (key.id) { return document.getElementById(key.id); }
    var forms = document.querySelectorAll('form[action="' + key.action + '"]');
    for (var index = 0; index < forms.length; index += 1) {
      var candidate = focusKey(forms[index].querySelector(key.tag.toLowerCase()) || forms[index]);
      if (candidate && candidate.fields === key.fields) { return forms[index].querySelector(key.tag.toLowerCase()); }
    }
    return null;
  }

  function parse(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    var node = template.content.firstElementChild;
    if (node) { fillTokens(node); }
    return node;
  }

  function applyUpdate(update) {
    var key = focusKey(document.activeElement);
    var week = document.getElementById("week");
    var calendar = parse(update.calendar);
    if (week && calendar && week.outerHTML !== calendar.outerHTML) { week.replaceWith(calendar); }
    var container = document.getElementById("care-cards");
    if (container) {
      var existing = {};
      Array.prototype.forEach.call(container.children, function (child) { existing[child.id] = child; });
      update.cards.forEach(function (card, index) {
        var node = parse(card.html);
        var old = existing[card.id];
        delete existing[card.id];
        // A card whose content did not change stays as it is, with the error a refused form left on it.
        if (old && withoutError(old) === node.outerHTML) { node = old; }
        if (container.children[index] !== node) { container.insertBefore(node, container.children[index] || null); }
        if (old && old !== node) { old.remove(); }
        if (window.OpenCareKitUI) { window.OpenCareKitUI.setUp(node); }
      });
      Object.keys(existing).forEach(function (id) { existing[id].remove(); });
    }
    var notice = document.getElementById("care-notice");
    if (notice) {
      notice.textContent = update.notice || "";
      notice.hidden = !update.notice;
    }
    Device.reapply();
    var focus = findByKey(key);
    if (focus && document.activeElement !== focus) { focus.focus(); }
    document.documentElement.setAttribute("data-ock-updates", String(Number(document.documentElement.getAttribute("data-ock-updates") || "0") + 1));
  }

  // Pages that show many kinds of data (Insights, Contacts) fetch themselves again after a change and swap their
  // main content, keeping focus where it was.
  function refreshOnChange() {
    var address = meta("ock-refresh");
    var changes = meta("ock-changes");
    if (!address || !changes || !window.EventSource || !window.fetch) { return; }
    source = new EventSource(changes);
    var connected = false;
    // Refreshes started, and the newest applied: an answer older than the one shown is dropped.
    var started = 0;
    var applied = 0;
    // While someone composes a syllable with an input method, the refresh waits until the syllable is done (or the
    // field is left): redrawing would break it. Otherwise the refresh keeps what was typed, and where.
    var composing = false;
    var waiting = false;
    function resume() {
      if (!waiting || composing) { return; }
      waiting = false;
      refresh();
    }
    document.addEventListener("compositionstart", function () { composing = true; });
    document.addEventListener("compositionend", function () { composing = false; resume(); });
    document.addEventListener("focusout", function () { composing = false; window.setTimeout(resume, 0); });
    function refresh() {
      if (composing) { waiting = true; return; }
      var number = ++started;
      // A refresh after a change is not the person doing something: it does not keep the session alive.
      fetch(address, { credentials: "same-origin", headers: { "X-OCK-Background": "1" } }).then(function (response) { return response.text(); }).then(function (html) {
        if (number < applied) { return; }
        applied = number;
        var next = new DOMParser().parseFromString(html, "text/html").querySelector("main");
        var main = document.querySelector("main");
        if (!next || !main || next.innerHTML === main.innerHTML) { return; }
        var focusedID = document.activeElement && document.activeElement.id;
        var caret = null;
        try {
          if (focusedID && typeof document.activeElement.selectionStart === "number") {
            caret = [document.activeElement.selectionStart, document.activeElement.selectionEnd];
          }
        } catch (ignored) { caret = null; }
        // What the person was typing or choosing (a resolution note, an owner) stays as it was.
        var edits = [];
        Array.prototype.forEach.call(main.querySelectorAll("textarea[id], input[id]:not([type=hidden]), select[id]"), function (field) {
          var changed = field.tagName === "SELECT"
            ? Array.prototype.some.call(field.options, function (option) { return option.selected !== option.defaultSelected; })
            : (field.type === "checkbox" || field.type === "radio" ? field.checked !== field.defaultChecked : field.value !== field.defaultValue);
          if (changed) { edits.push({ id: field.id, value: field.value, checked: field.checked }); }
        });
        // Each chart's selected column (and whether it had focus), to select again once the chart is drawn anew.
        var selections = [];
        Array.prototype.forEach.call(main.querySelectorAll(".ock-chart[id]"), function (chart) {
          var columns = Array.prototype.slice.call(chart.querySelectorAll(".ock-chart-column"));
          var index = columns.findIndex(function (column) { return column.classList.contains("ock-chart-selected"); });
          if (index >= 0) { selections.push({ id: chart.id, index: index, focused: columns[index] === document.activeElement }); }
        });
        main.innerHTML = next.innerHTML;
        selections.forEach(function (selection) {
          var svg = document.querySelector("#" + CSS.escape(selection.id) + " svg[data-ock-chart]");
          if (svg) { svg.setAttribute("data-ock-selected", String(selection.index)); }
        });
        if (window.OpenCareKitUI) { window.OpenCareKitUI.setUp(main); }
        edits.forEach(function (edit) {
          var field = document.getElementById(edit.id);
          if (!field) { return; }
          if (field.type === "checkbox" || field.type === "radio") { field.checked = edit.checked; } else { field.value = edit.value; }
        });
        if (focusedID && document.getElementById(focusedID)) {
          var refocused = document.getElementById(focusedID);
          refocused.focus();
          if (caret && typeof refocused.setSelectionRange === "function") {
            try { refocused.setSelectionRange(caret[0], caret[1]); } catch (ignored) { /* a field without a caret */ }
          }
        }
        selections.forEach(function (selection) {
          var column = selection.focused && document.querySelectorAll("#" + CSS.escape(selection.id) + " .ock-chart-column")[selection.index];
          if (column) { column.focus(); }
        });
        document.documentElement.setAttribute("data-ock-updates", String(Number(document.documentElement.getAttribute("data-ock-updates") || "0") + 1));
      });
    }
    source.addEventListener("ready", function () {
      // After a reconnection, catch up with what changed while the connection was down.
      if (connected) { refresh(); }
      connected = true;
      document.documentElement.setAttribute("data-ock-live", "open");
    });
    source.addEventListener("error", function () { document.documentElement.setAttribute("data-ock-live", "reconnecting"); });
    source.addEventListener("changed", refresh);
  }

  function listen() {
    refreshOnChange();
    var address = meta("ock-live");
    if (!address || !window.EventSource) { return; }
    source = new EventSource(address);
    source.addEventListener("update", function (event) { applyUpdate(JSON.parse(event.data)); });
    source.addEventListener("open", function () { document.documentElement.setAttribute("data-ock-live", "open"); });
    source.addEventListener("error", function () { document.documentElement.setAttribute("data-ock-live", "reconnecting"); });
  }

  function withoutError(card) {
    if (!card.querySelector(".ock-form-error")) { return card.outerHTML; }
    var copy = card.cloneNode(true);
    copy.querySelectorAll(".ock-form-error").forEach(function (alert) { alert.remove(); });
    return copy.outerHTML;
  }

  function showError(form, message) {
    var card = form.closest(".ock-card") || form;
    var alert = card.querySelector(".ock-form-error");
    if (!alert) {
      alert = document.createElement("p");
      alert.className = "ock-form-error";
      alert.setAttribute("role", "alert");
      card.appendChild(alert);
    }
    alert.textContent = message;
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var action = form.getAttribute("action") || "";
    // A survey: answered as one form, queued on the device; started as that form where the device keeps it.
    if (form.classList.contains("ock-survey-one-page") && Device.queueSurvey(form)) { event.preventDefault(); return; }
    if (form.classList.contains("ock-survey-form") && Device.startSurvey(form)) { event.preventDefault(); return; }
    // Only the cards' forms post in place; others (confirming a deletion) navigate.
    if (form.method.toLowerCase() !== "post" || action.indexOf("/care/events/") < 0 || !form.closest("#care-cards") || !window.fetch) { return; }
    event.preventDefault();
    var queued = Device.queue(form, action);
    if (queued) { return; }
    fillTokens(form);
    var body = new URLSearchParams(new FormData(form));
    fetch(action, { method: "POST", body: body, credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (response) {
        if (response.ok) {
          // Live updates redraw the card; without them, reload to show the change.
          if (!source || source.readyState !== 1) { window.location.reload(); }
          return null;
        }
        // The form's token is stale (the cookie was renewed): reload for a fresh one.
        if (response.status === 403) { window.location.reload(); return null; }
        return response.json().then(function (problem) { showError(form, problem.error.message); },
                                    function () { showError(form, response.status + " " + response.statusText); });
      }, function () {
        // The request never reached the server: send the form the ordinary way.
        form.submit();
      });
  });

  // A horizontal swipe moves to the previous or next day.
  var start = null;
  document.addEventListener("touchstart", function (event) {
    if (event.touches.length === 1) { start = { x: event.touches[0].clientX, y: event.touches[0].clientY }; }
  }, { passive: true });
  document.addEventListener("touchend", function (event) {
    if (!start || event.changedTouches.length !== 1) { return; }
    var dx = event.changedTouches[0].clientX - start.x, dy = event.changedTouches[0].clientY - start.y;
    start = null;
    if (Math.abs(dx) < 60 || Math.abs(dy) > 40) { return; }
    var steps = document.querySelectorAll(".ock-day-nav .ock-day-step");
    var target = steps[dx < 0 ? 2 : 1];
    if (target) { window.location.href = target.href; }
  }, { passive: true });

  // "Today" moves at the patient's local midnight.
  var midnight = Number(meta("ock-next-midnight"));
  // A browser clock ahead of the server's would see that moment as past: then try once a minute rather than reload
  // again and again. One behind it waits at most a day (timers of more than 24.8 days fire at once).
  if (midnight > 0) {
    var wait = midnight - Date.now();
    window.setTimeout(function () { window.location.reload(); }, wait >= 0 ? Math.min(wait + 1000, 86400000) : 60000);
  }

  // Automatic sign-out after a while without activity in any of the app's tabs (they share the last moment of
  // activity through localStorage), with a warning and a "Stay signed in" button a minute before.
  var idle = Number(meta("ock-idle-seconds")) * 1000;
  if (idle > 0 && window.fetch) {
    var warnFor = Math.min(60000, idle / 2);
    var warning = null;
    var lastPing = Date.now();
    var post = function (address) {
      return fetch(address, { method: "POST", credentials: "same-origin", body: new URLSearchParams({ csrf: token || "" }) });
    };
    var lastActive = function () {
      var shared = 0;
      try { shared = Number(window.localStorage.getItem("ock-last-active") || 0); } catch (error) { shared = 0; }
      return Math.max(shared, lastPing);
    };
    var hideWarning = function () {
      if (warning) { warning.remove(); warning = null; }
    };
    var markActive = function () {
      var now = Date.now();
      try { window.localStorage.setItem("ock-last-active", String(now)); } catch (error) { /* private mode */ }
      // Activity that sends nothing to the server (reading a chart) still keeps the session, once a minute.
      if (now - lastPing > 60000) { lastPing = now; post("/session/keep-alive"); }
      hideWarning();
    };
    var showWarning = function () {
      if (warning) { return; }
      warning = document.createElement("div");
      warning.className = "ock-idle-warning";
      warning.setAttribute("role", "alert");
      var text = document.createElement("p");
      text.textContent = meta("ock-idle-warning");
      var stay = document.createElement("button");
      stay.type = "button";
      stay.className = "ock-button";
      stay.textContent = meta("ock-idle-stay");
      stay.addEventListener("click", function () {
        lastPing = Date.now();
        post("/session/keep-alive");
        markActive();
      });
      warning.appendChild(text);
      warning.appendChild(stay);
      document.body.appendChild(warning);
      stay.focus();
    };
    var check = function () {
      var quiet = Date.now() - lastActive();
      if (quiet >= idle) {
        var here = window.location.pathname + window.location.search;
        Device.lock().then(pushEndpoint).then(function (endpoint) {
          return fetch("/sign-out", { method: "POST", credentials: "same-origin",
                                      body: new URLSearchParams({ csrf: token || "", "push-endpoint": endpoint }) });
        }).finally(function () {
          window.location.href = "/sign-in?expired=1&next=" + encodeURIComponent(here);
        });
        return;
      }
      if (quiet >= idle - warnFor) { showWarning(); } else { hideWarning(); }
      window.setTimeout(check, 1000);
    };
    ["click", "keydown", "submit", "touchstart"].forEach(function (name) {
      document.addEventListener(name, function (event) {
        if (!warning || !warning.contains(event.target)) { markActive(); }
      }, true);
    });
    markActive();
    window.setTimeout(check, 1000);
  }

  // Signing out ends this browser's reminders: its push subscription is dropped here and named to the server, which
  // forgets it, so a shared or lost device shows no more task titles.
  function pushEndpoint() {
    if (!("serviceWorker" in navigator)) { return Promise.resolve(""); }
    return navigator.serviceWorker.getRegistration().then(function (registration) {
      return registration ? registration.pushManager.getSubscription() : null;
    }).then(function (subscription) {
      if (!subscription) { return ""; }
      var endpoint = subscription.endpoint;
      return subscription.unsubscribe().then(function () { return endpoint; }, function () { return endpoint; });
    }).catch(function () { return ""; });
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var action = form.getAttribute("action");
    if ((action !== "/sign-out" && action !== "/sign-out/everywhere") || form.hasAttribute("data-push-checked")) { return; }
    event.preventDefault();
    Device.leave().then(function (leaving) {
      if (!leaving) { return null; }
      return pushEndpoint().then(function (endpoint) {
      var field = document.createElement("input");
      field.type = "hidden";
      field.name = "push-endpoint";
      field.value = endpoint;
      form.appendChild(field);
      form.setAttribute("data-push-checked", "");
      form.submit();
      });
    });
  }, true);

  // The report for clinicians: Print, and Share with the Web Share API where the browser has it (the share sheet of
  // iOS and Android), else a download of the same file.
  var printButton = document.querySelector('[data-action="print"]');
  if (printButton) { printButton.addEventListener("click", function () { window.print(); }); }
  var shareButton = document.querySelector('[data-action="share"]');
  if (shareButton && window.fetch) {
    shareButton.addEventListener("click", function () {
      var address = shareButton.getAttribute("data-share-url");
      var name = shareButton.getAttribute("data-share-name");
      var download = function () {
        var link = document.createElement("a");
        link.href = address;
        link.download = name;
        document.body.appendChild(link);
        link.click();
        link.remove();
      };
      if (!navigator.share || !navigator.canShare || !window.File) { download(); return; }
      shareButton.disabled = true;
      fetch(address, { credentials: "same-origin" }).then(function (response) {
        if (!response.ok) { throw new Error("status " + response.status); }
        return response.blob();
      }).then(function (blob) {
        var file = new File([blob], name, { type: blob.type });
        if (!navigator.canShare({ files: [file] })) { download(); return null; }
        return navigator.share({ files: [file], title: shareButton.getAttribute("data-share-title") });
      }).catch(function (error) {
        // Cancelling the share sheet is no failure; anything else falls back to the download.
        if (!error || error.name !== "AbortError") { download(); }
      }).finally(function () { shareButton.disabled = false; });
    });
  }

  // Reminders. On the reminders page, "Turn on notifications" asks for permission, registers the service worker,
  // subscribes with the server's VAPID key and sends the subscription to the server. On every signed-in page of a
  // browser where the person keeps reminders on, reminders also show in the page while it is open.
  var device = document.querySelector("[data-reminder-device]");
  if (device) {
    var deviceStatus = device.querySelector(".ock-device-status");
    var subscribe = device.querySelector('[data-action="subscribe"]');
    var say = function (text) { deviceStatus.textContent = text; };
    var keyBytes = function (text) {
      var base64 = text.replace(/-/g, "+").replace(/_/g, "/");
      var binary = window.atob(base64 + "===".slice((base64.length + 3) % 4));
      return Uint8Array.from(binary, function (character) { return character.charCodeAt(0); });
    };
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      say(device.getAttribute("data-unsupported"));
      subscribe.disabled = true;
    } else {
      subscribe.addEventListener("click", function () {
        Notification.requestPermission().then(function (permission) {
          if (permission !== "granted") { say(device.getAttribute("data-denied")); return null; }
          return navigator.serviceWorker.register("/service-worker.js").then(function () {
            return navigator.serviceWorker.ready;
          }).then(function (registration) {
            return registration.pushManager.getSubscription().then(function (existing) {
              return existing || registration.pushManager.subscribe({
                userVisibleOnly: true, applicationServerKey: keyBytes(device.getAttribute("data-vapid-key"))
              });
            });
          }).then(function (subscription) {
            var json = subscription.toJSON();
            return fetch("/account/push-subscriptions", {
              method: "POST", credentials: "same-origin", headers: { Accept: "application/json" },
              body: new URLSearchParams({ csrf: token || "", endpoint: json.endpoint, p256dh: json.keys.p256dh, auth: json.keys.auth })
            });
          }).then(function (response) {
            return response.json().catch(function () { return {}; }).then(function (answer) {
              say(response.ok ? device.getAttribute("data-on") : (answer.message || device.getAttribute("data-failed")));
            });
          });
        }).catch(function (error) {
          say(device.getAttribute("data-failed") + " (" + (error && error.name || "Error") + ")");
        });
      });
    }
  }
  var remindersForm = document.querySelector("[data-reminders-on]");
  try {
    if (remindersForm) { window.localStorage.setItem("ock-reminders", remindersForm.getAttribute("data-reminders-on")); }
  } catch (error) { /* private mode */ }
  var remindersOn = false;
  try { remindersOn = window.localStorage.getItem("ock-reminders") === "true"; } catch (error) { remindersOn = false; }
  if (remindersOn && idle > 0 && window.EventSource) {
    var reminders = new EventSource("/account/reminders/live");
    var notices = null;
    reminders.addEventListener("reminder", function (event) {
      var notice = JSON.parse(event.data);
      if (!notices) {
        notices = document.createElement("div");
        notices.className = "ock-reminder-notices";
        notices.setAttribute("role", "status");
        notices.setAttribute("aria-live", "polite");
        document.body.appendChild(notices);
      }
      var item = document.createElement("div");
      item.className = "ock-reminder-notice";
      var text = document.createElement("p");
      text.textContent = notice.text;
      var open = document.createElement("a");
      open.className = "ock-button";
      open.href = notice.url.indexOf("/records/") === 0 ? notice.url : "/";
      open.textContent = notice.open;
      var dismiss = document.createElement("button");
      dismiss.type = "button";
      dismiss.className = "ock-button";
      dismiss.textContent = notice.dismiss;
      dismiss.addEventListener("click", function () { item.remove(); });
      item.appendChild(text);
      item.appendChild(open);
      item.appendChild(dismiss);
      notices.appendChild(item);
    });
  }

  // The plan editor: a moment after the person stops typing, the server previews the form (its preview address
  // answers the preview section only, and writes nothing) and the section is replaced; the fields being typed into
  // are left alone, so focus stays.
  function enhanceEditor() {
    var form = document.querySelector('form[data-ock-editor="preview"]');
    if (form && window.fetch) {
      var timer = null, sent = 0;
      var preview = function () {
        fillTokens(form);
        var data = new FormData(form);
        data.set("intent", "preview");
        var number = ++sent;
        fetch(form.getAttribute("data-ock-preview"), { method: "POST", body: new URLSearchParams(data), credentials: "same-origin" })
          .then(function (response) { return response.ok ? response.text() : null; })
          .then(function (html) {
            if (!html || number !== sent) { return; }
            var section = parse(html), old = form.querySelector("#plan-preview");
            if (section && section.id === "plan-preview" && old) {
              old.replaceWith(section);
              document.documentElement.setAttribute("data-ock-previews", String(number));
            }
          }, function () { /* offline: the Preview button still works */ });
      };
      var later = function () { window.clearTimeout(timer); timer = window.setTimeout(preview, 400); };
      form.addEventListener("input", later);
      form.addEventListener("change", later);
    }
    // A template file is read into the JSON field, and the JSON choice selected.
    var file = document.getElementById("template-file");
    if (file && window.FileReader) {
      var row = file.closest(".ock-script-only");
      if (row) { row.hidden = false; }
      file.addEventListener("change", function () {
        if (!file.files || !file.files[0]) { return; }
        var reader = new FileReader();
        reader.onload = function () {
          document.getElementById("template-json").value = String(reader.result);
          document.getElementById("template").value = "json";
        };
        reader.readAsText(file.files[0]);
      });
    }
  }

  // The installable app: the service worker (the app shell, kept per server version), and the browser's install
  // prompt offered by a button where the browser has one.
  var installPrompt = null;
  window.addEventListener("beforeinstallprompt", function (event) {
    event.preventDefault();
    installPrompt = event;
    var row = document.querySelector("[data-ock-install]");
    if (row) { row.hidden = false; }
  });
  window.addEventListener("appinstalled", function () {
    installPrompt = null;
    var row = document.querySelector("[data-ock-install]");
    if (row) { row.hidden = true; }
  });
  // A new version of the app: its worker installs beside the one in control and waits; the page says so and offers
  // the reload, which lets it take over (its shell replaces the old one) and loads the page again with its scripts.
  function offerUpdates(registration) {
    var banner = document.querySelector("[data-ock-update]");
    if (!banner || !navigator.serviceWorker.controller) { return; }
    var reloading = false;
    function reload() {
      if (!reloading) { reloading = true; window.location.reload(); }
    }
    function offer() {
      banner.hidden = false;
      banner.querySelector("p").textContent = banner.getAttribute("data-text");
      banner.querySelector("button").onclick = function () {
        // Another tab may have let the new version take over already: then this page only loads again.
        if (!registration.waiting) { reload(); return; }
        navigator.serviceWorker.addEventListener("controllerchange", reload);
        registration.waiting.postMessage("ock-activate");
      };
    }
    function watch(worker) {
      if (!worker) { return; }
      worker.addEventListener("statechange", function () { if (worker.state === "installed") { offer(); } });
    }
    if (registration.waiting) { offer(); }
    // A worker still installing when this page registered, and any found later.
    watch(registration.installing);
    registration.addEventListener("updatefound", function () { watch(registration.installing); });
  }
  function enhanceInstall() {
    if ("serviceWorker" in navigator && window.isSecureContext) {
      navigator.serviceWorker.register("/service-worker.js", { scope: "/" }).then(offerUpdates)
        .catch(function () { /* the app works without it */ });
    }
    var row = document.querySelector("[data-ock-install]");
    var button = row && row.querySelector("button");
    if (!button) { return; }
    row.hidden = installPrompt === null;
    button.addEventListener("click", function () {
      // A prompt is shown once: a second tap must not ask it again.
      var prompt = installPrompt;
      installPrompt = null;
      if (!prompt) { return; }
      prompt.prompt();
      prompt.userChoice.then(function () { row.hidden = true; });
    });
  }

  // The reader's unread messages in this record, beside its Messages link (the page is the same for every reader).
  function showUnread() {
    var badge = document.querySelector("[data-ock-unread]");
    var record = meta("ock-record");
    if (!badge || !record || !window.fetch) { return; }
    var id = record.split("/").pop();
    fetch("/account/unread", { credentials: "same-origin", headers: { "X-OCK-Background": "1", "Accept": "application/json" } })
      .then(function (response) { return response.ok ? response.json() : {}; })
      .then(function (counts) {
        var count = Number(counts[id] || 0);
        badge.textContent = count > 0 ? String(badge.getAttribute("data-words") || "{0}").replace("{0}", String(count)) : "";
        badge.hidden = count === 0;
      })
      .catch(function () { /* offline: no count to show */ });
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", listen); } else { listen(); }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", showUnread); } else { showUnread(); }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", enhanceEditor); } else { enhanceEditor(); }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", enhanceInstall); } else { enhanceInstall(); }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", Device.start); } else { Device.start(); }
})();
