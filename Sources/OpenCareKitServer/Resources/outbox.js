"use strict";
// What the care app keeps on a device, shared by the pages (app.js) and the service worker (sw.js):
// - "writes": the changes a person made on a Care page (a task done or undone, a value logged, recorded or deleted),
//   in the order they were made, each for one account on one record, until the server has taken it. Each carries
//   the moment the person acted ("acted", by the device's clock), which is what makes sending it again harmless: a
//   done/undone is a state, a log with a moment already logged is not logged again, a delete names the value's
//   moment. A change the record refuses stays, as "refused", with the server's reason, until the person retries or
//   discards it.
// - "kept": the records a person chose to keep on this device (their pages live in the cache "ock-pages").
// - "state": whose data the device holds ("current": the account's pseudonym, and whether an idle sign-out locked
//   the kept pages).
(function (scope) {
  var NAME = "opencarekit-device";
  var PAGES = "ock-pages";
  var database = null;

  function request(operation) {
    return new Promise(function (resolve, reject) {
      operation.onsuccess = function () { resolve(operation.result); };
      operation.onerror = function () { reject(operation.error); };
    });
  }

  function open() {
    if (!database) {
      database = new Promise(function (resolve, reject) {
        var opening = scope.indexedDB.open(NAME, 1);
        opening.onupgradeneeded = function () {
          var db = opening.result;
          db.createObjectStore("writes", { keyPath: "seq", autoIncrement: true }).createIndex("account", "account");
          db.createObjectStore("kept", { keyPath: "key" });
          db.createObjectStore("state", { keyPath: "name" });
        };
        opening.onsuccess = function () {
          var db = opening.result;
          // Another tab deleting the database (sign-out) closes this connection; the next use opens it again.
          db.onversionchange = function () { db.close(); database = null; };
          resolve(db);
        };
        opening.onerror = function () { database = null; reject(opening.error); };
        opening.onblocked = function () { database = null; reject(new Error("blocked")); };
      });
    }
    return database;
  }

  function transaction(stores, mode, body) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var work = db.transaction(stores, mode);
        var result;
        Promise.resolve(body(function (name) { return work.objectStore(name); })).then(function (value) { result = value; }, reject);
        work.oncomplete = function () { resolve(result); };
        work.onerror = function () { reject(work.error); };
        work.onabort = function () { reject(work.error || new Error("aborted")); };
      });
    });
  }

  function all(store, account) {
    return transaction([store], "readonly", function (stores) {
      return request(stores(store).getAll()).then(function (items) {
        return items.filter(function (item) { return account === undefined || item.account === account; });
      });
    });
  }

  var Outbox = {
    PAGES: PAGES,
    // The security headers a kept page was served with, kept with it (`Content-Security-Policy` first of all).
    KEPT_HEADERS: ["Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options", "Permissions-Policy"],

    // Queues a change, unless it undoes a done/undone of the same event still waiting: then the two cancel, and
    // neither is sent (under the queue's lock, so that one being sent meanwhile is not cancelled but followed).
    // Resolves to the change with its number, or null when it cancelled one.
    // The change is stored at once (a send that hangs never holds a tap back); the cancel runs under the lock.
    queue: function (write) {
      return Outbox.add(write).then(function (added) {
        if (write.action === "/surveys/answer") { return Outbox.replacing(added); }
        if (write.action !== "/care/events/toggle") { return added; }
        return Outbox.locked(function () {
          return Outbox.writes(write.account).then(function (writes) {
            var twin = writes.filter(function (other) {
              return other.seq !== added.seq && other.state === "waiting" && other.record === write.record && other.action === write.action &&
                other.fields.task === write.fields.task && other.fields.occurrence === write.fields.occurrence &&
                other.fields.complete !== write.fields.complete;
            }).pop();
            if (!twin) { return added; }
            return Outbox.remove(twin.seq).then(function () { return Outbox.remove(added.seq); }).then(function () { return null; });
          });
        });
      });
    },

    // A survey's answers replace the same event's answers still waiting (answered again before they were sent).
    replacing: function (added) {
      return Outbox.locked(function () {
        return Outbox.writes(added.account).then(function (writes) {
          return Promise.all(writes.filter(function (other) {
            return other.seq !== added.seq && other.state === "waiting" && other.record === added.record && other.action === added.action &&
              other.fields.task === added.fields.task && other.fields.occurrence === added.fields.occurrence;
          }).map(function (other) { return Outbox.remove(other.seq); }));
        }).then(function () { return added; });
      });
    },

    // Runs `body` holding the device's queue lock (Web Locks, where the browser has them).
    locked: function (body) {
      var locks = scope.navigator && scope.navigator.locks;
      return locks ? locks.request("ock-outbox", body) : body();
    },

    add: function (write) {
      return transaction(["writes"], "readwrite", function (stores) {
        return request(stores("writes").add(write)).then(function (seq) { write.seq = seq; return write; });
      });
    },
    // The account's changes, oldest first.
    writes: function (account) { return all("writes", account); },
    remove: function (seq) {
      return transaction(["writes"], "readwrite", function (stores) { return request(stores("writes").delete(seq)); });
    },
    // Changes a change still queued (one that sign-out or Discard removed meanwhile stays removed).
    update: function (write) {
      return transaction(["writes"], "readwrite", function (stores) {
        return request(stores("writes").get(write.seq)).then(function (stored) {
          return stored ? request(stores("writes").put(write)) : null;
        });
      });
    },

    kept: function (account) { return all("kept", account); },
    keep: function (account, record, updated) {
      return transaction(["kept"], "readwrite", function (stores) {
        return request(stores("kept").put({ key: account + " " + record, account: account, record: record, updated: updated || 0 }));
      });
    },
    forget: function (account, record) {
      return transaction(["kept"], "readwrite", function (stores) { return request(stores("kept").delete(account + " " + record)); });
    },

    current: function () {
      return transaction(["state"], "readonly", function (stores) { return request(stores("state").get("current")); });
    },
    setCurrent: function (account, locked) {
      return transaction(["state"], "readwrite", function (stores) {
        return request(stores("state").put({ name: "current", account: account, locked: Boolean(locked) }));
      });
    },

    // Everything of `account` on this device: its changes, kept records and pages; the device then holds no one's.
    clearAccount: function (account) {
      return Outbox.locked(function () { return Outbox.clearAccountNow(account); });
    },
    clearAccountNow: function (account) {
      return transaction(["writes", "kept", "state"], "readwrite", function (stores) {
        return Promise.all([
          request(stores("writes").getAll()).then(function (items) {
            return Promise.all(items.filter(function (item) { return item.account === account; })
              .map(function (item) { return request(stores("writes").delete(item.seq)); }));
          }),
          request(stores("kept").getAll()).then(function (items) {
            return Promise.all(items.filter(function (item) { return item.account === account; })
              .map(function (item) { return request(stores("kept").delete(item.key)); }));
          }),
          request(stores("state").delete("current")),
        ]);
      }).then(function () { return scope.caches ? scope.caches.delete(PAGES) : null; });
    },

    // Sends the account's waiting changes in order, one at a time (across the device's tabs and its worker, where
    // the browser has Web Locks). `token(record, fresh)` gives the CSRF token for a record's writes (`fresh`: the
    // last was refused as stale). Resolves to why it stopped: "idle" (nothing waited), "done", "offline",
    // "signed-out" or "later" (the server is busy or failing); refused changes are kept with their reason.
    flush: function (account, token) {
      return Outbox.locked(function () { return Outbox.sendAll(account, token); });
    },

    sendAll: function (account, token) {
      return Outbox.writes(account).then(function (writes) {
        var waiting = writes.filter(function (write) { return write.state === "waiting"; });
        if (!waiting.length) { return "idle"; }
        var next = function (index) {
          if (index >= waiting.length) { return "done"; }
          return Outbox.send(waiting[index], token, false).then(function (result) {
            return result === "sent" || result === "refused" ? next(index + 1) : result;
          });
        };
        return next(0);
      });
    },

    send: function (write, token, retried) {
      return Promise.resolve(token(write.record, retried)).then(function (csrf) {
        var body = new URLSearchParams(write.fields);
        body.set("csrf", csrf || "");
        // A send that hangs (a connection that drops without closing) is given up after 20 s, and tried again later.
        var abort = scope.AbortController ? new AbortController() : null;
        var timer = abort ? setTimeout(function () { abort.abort(); }, 20000) : null;
        return fetch(write.record + write.action, {
          method: "POST", body: body, credentials: "same-origin", redirect: "manual", signal: abort ? abort.signal : undefined,
          headers: { "Accept": "application/json", "X-OCK-Queued": "1", "X-OCK-Account": write.account }
        }).finally(function () { if (timer) { clearTimeout(timer); } });
      }).then(function (response) {
        if (response.ok) {
          // Done already by someone else meanwhile: nothing was changed, and the answer says who and when; the
          // person reads it (a "notice") until they dismiss it.
          var isJSON = (response.headers.get("Content-Type") || "").indexOf("application/json") === 0;
          return (isJSON ? response.json().catch(function () { return {}; }) : Promise.resolve({})).then(function (answer) {
            if (!answer || typeof answer.notice !== "string") { return Outbox.remove(write.seq); }
            write.state = "notice";
            write.reason = answer.notice;
            return Outbox.update(write);
          }).then(function () { return "sent"; });
        }
        if (response.type === "opaqueredirect" || response.status === 401) { return "signed-out"; }
        if (response.status >= 500 || response.status === 429 || response.status === 408) { return "later"; }
        return response.json().catch(function () { return {}; }).then(function (problem) {
          var error = (problem && problem.error) || {};
          if (response.status === 403 && error.field === "csrf") {
            return retried ? "signed-out" : Outbox.send(write, token, true);
          }
          // Another account is signed in here: the change waits for its own.
          if (response.status === 409 && error.field === "account") { return "signed-out"; }
          write.state = "refused";
          write.reason = error.message || String(response.status);
          return Outbox.update(write).then(function () { return "refused"; });
        });
      }, function () { return "offline"; });
    },

    // A token source for one flush that reads each record's token once (`fetchToken`), and again when told it is
    // stale.
    tokens: function () {
      var known = {};
      return function (record, fresh) {
        if (!fresh && known[record]) { return known[record]; }
        known[record] = Outbox.fetchToken(record);
        return known[record];
      };
    },

    // The CSRF token of a record's pages, read from its Care page (a worker has no page of its own to read it from).
    fetchToken: function (record) {
      return fetch(record + "/care", { credentials: "same-origin", headers: { "X-OCK-Background": "1" } })
        .then(function (response) { return response.text(); })
        .then(function (html) {
          var match = /<meta content="([0-9a-f]{64})" name="ock-csrf">/.exec(html);
          return match ? match[1] : "";
        });
    }
  };

  scope.OpenCareKitOutbox = Outbox;
})(self);
