"use strict";
// The front page: a report job for the file picked, export and pack jobs for the downloads, a diff
// job for a second file. Every text from a file or the service is set as text (never as HTML).
(function () {
  var maxBody = parseInt(document.body.getAttribute("data-max-body"), 10) || 1048576;
  var first = null;  // {name, text, type} of the arena being shown
  var busy = false;

  function $(id) { return document.getElementById(id); }
  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    if (cls) { node.className = cls; }
    return node;
  }
  function size(n) {
    return n >= 1048576 ? (n / 1048576).toFixed(n % 1048576 ? 1 : 0) + " MiB" : Math.round(n / 1024) + " KiB";
  }
  $("limit").textContent = size(maxBody);

  function mediaType(name) { return /\.json$/i.test(name) ? "application/json" : "application/yaml"; }

  function showStatus(text, done, total) {
    $("status").hidden = false;
    $("status-text").textContent = text;
    var bar = $("status-bar");
    if (total) { bar.max = total; bar.value = Math.min(done || 0, total); } else { bar.removeAttribute("value"); }
  }
  function hideStatus() { $("status").hidden = true; }
  function clearProblem() { $("problem").hidden = true; $("problem").textContent = ""; }
  // A problem document (RFC 9457) or a plain message, as text.
  function showProblem(what, doc) {
    var box = $("problem");
    box.textContent = "";
    box.appendChild(el("strong", what));
    if (typeof doc === "string") {
      box.appendChild(el("p", doc));
    } else {
      box.appendChild(el("p", (doc.status ? doc.status + " " : "") + (doc.title || "Error") + (doc.detail ? ": " + doc.detail : "")));
      if (Array.isArray(doc.problems) && doc.problems.length) {
        var list = el("ul");
        doc.problems.slice(0, 50).forEach(function (e) {
          var where = [e.file, e.line ? "line " + e.line : "", e.column ? "column " + e.column : "", e.pointer || ""]
            .filter(function (s) { return s; }).join(", ");
          list.appendChild(el("li", (where ? where + ": " : "") + (e.message || e.detail || JSON.stringify(e))));
        });
        box.appendChild(list);
      }
    }
    box.hidden = false;
  }

  function readProblem(response) {
    return response.text().then(function (text) {
      try { return JSON.parse(text); } catch (e) { return {status: response.status, title: response.statusText, detail: text.slice(0, 500)}; }
    });
  }

  // POST a job, poll it until it ends; resolves with the finished job, rejects with a problem.
  function runJob(what, query, body, type) {
    showStatus(what + ": sending", 0, 0);
    return fetch("/v1/jobs?" + query, {method: "POST", body: body, headers: {"Content-Type": type},
                                       credentials: "same-origin"})
      .then(function (response) {
        if (response.status !== 202) { return readProblem(response).then(function (p) { throw p; }); }
        return response.json();
      })
      .then(function (created) {
        showStatus(what + ": " + created.state, 0, 0);  // the job as accepted (queued), before the first poll
        return poll(what, created.links.self);
      });
  }
  function poll(what, url) {
    return new Promise(function (resolve, reject) {
      function tick() {
        fetch(url, {credentials: "same-origin", cache: "no-store"})
          .then(function (response) {
            if (!response.ok) { return readProblem(response).then(function (p) { throw p; }); }
            return response.json();
          })
          .then(function (job) {
            var p = job.progress;
            var note = p && p.note !== job.state ? " - " + p.note + (p.total ? " (" + p.done + "/" + p.total + ")" : " (" + p.done + ")") : "";
            showStatus(what + ": " + job.state + note, p ? p.done : 0, p ? p.total : 0);
            if (job.state === "done") { resolve(job); }
            else if (job.state === "failed") { reject(job.error || {title: "The job failed"}); }
            else if (job.state === "cancelled") { reject("The job was cancelled."); }
            else { setTimeout(tick, 300); }
          })
          .catch(reject);
      }
      tick();
    });
  }

  function guarded(what, start) {
    if (busy) { return; }
    busy = true;
    clearProblem();
    setButtons(false);
    start().then(function () { hideStatus(); }, function (problem) {
      hideStatus();
      showProblem(what + " failed", problem instanceof Error ? problem.message : problem);
    }).then(function () { busy = false; setButtons(true); });
  }
  function setButtons(on) {
    ["export", "pack", "second", "file"].forEach(function (id) { $(id).disabled = !on; });
  }

  function readFile(file) {
    if (file.size > maxBody) {
      return Promise.reject(file.name + " is " + size(file.size) + "; the service takes arena files of at most " +
                            size(maxBody) + ".");
    }
    return file.text().then(function (text) { return {name: file.name, text: text, type: mediaType(file.name)}; });
  }

  function openArena(file) {
    guarded("The report of " + file.name, function () {
      return readFile(file).then(function (arena) {
        return runJob("Report of " + arena.name, "kind=report&source=" + encodeURIComponent(arena.name),
                      arena.text, arena.type)
          .then(function (job) {
            first = arena;
            $("current").textContent = arena.name;
            $("actions").hidden = false;
            $("diff").hidden = true;
            $("second").value = "";
            $("report-panel").hidden = false;
            $("report").src = job.links.result;
          });
      });
    });
  }

  function download(job) {
    var a = document.createElement("a");
    a.href = job.links.result;
    a.download = "";
    document.body.appendChild(a);
    a.click();
    a.remove();
  }

  $("file").addEventListener("change", function () { if (this.files.length) { openArena(this.files[0]); } });
  var drop = $("drop");
  ["dragenter", "dragover"].forEach(function (name) {
    drop.addEventListener(name, function (ev) { ev.preventDefault(); drop.classList.add("over"); });
  });
  ["dragleave", "drop"].forEach(function (name) {
    drop.addEventListener(name, function () { drop.classList.remove("over"); });
  });
  drop.addEventListener("drop", function (ev) {
    ev.preventDefault();
    if (ev.dataTransfer && ev.dataTransfer.files.length) { openArena(ev.dataTransfer.files[0]); }
  });

  $("export").addEventListener("click", function () {
    var format = $("format").value;
    guarded("The " + format + " export", function () {
      return runJob("Export to " + format, "kind=export&format=" + encodeURIComponent(format) + "&source=" +
                    encodeURIComponent(first.name), first.text, first.type).then(download);
    });
  });
  $("pack").addEventListener("click", function () {
    guarded("The pack", function () {
      return runJob("Pack", "kind=pack&source=" + encodeURIComponent(first.name), first.text, first.type)
        .then(download);
    });
  });
  $("second").addEventListener("change", function () {
    if (!this.files.length) { return; }
    var file = this.files[0];
    guarded("The comparison with " + file.name, function () {
      return readFile(file).then(function (second) {
        var body = JSON.stringify({a: first.text, b: second.text});
        return runJob("Comparing " + first.name + " with " + second.name, "kind=diff&before=" +
                      encodeURIComponent(first.name) + "&after=" + encodeURIComponent(second.name),
                      body, "application/json")
          .then(function (job) { showDiff(job.result); });
      });
    });
  });

  // The diff document (arena diff --json) as tables.
  function cell(value) {
    if (value === null || value === undefined) { return ""; }
    if (typeof value === "object") { return JSON.stringify(value); }
    return String(value);
  }
  function table(caption, rows) {
    var wrap = el("div", null, "table");
    var t = el("table");
    t.appendChild(el("caption", caption + " (" + rows.length + ")"));
    var columns = [];
    rows.forEach(function (row) {
      Object.keys(row).forEach(function (k) { if (columns.indexOf(k) < 0) { columns.push(k); } });
    });
    var head = el("tr");
    columns.forEach(function (c) { head.appendChild(el("th", c)); });
    t.appendChild(el("thead")).appendChild(head);
    var body = t.appendChild(el("tbody"));
    rows.forEach(function (row) {
      var tr = el("tr");
      columns.forEach(function (c) { tr.appendChild(el("td", cell(row[c]))); });
      body.appendChild(tr);
    });
    wrap.appendChild(t);
    return wrap;
  }
  function showDiff(doc) {
    var out = $("diff-body");
    out.textContent = "";
    out.appendChild(el("p", (doc.before.name || doc.before.file) + " (" + doc.before.file + ") \u2192 " +
                            (doc.after.name || doc.after.file) + " (" + doc.after.file + ")"));
    var elements = doc.elements || {};
    var rows = [];
    ["added", "removed", "moved", "retyped", "changed"].forEach(function (change) {
      (elements[change] || []).forEach(function (item) {
        var row = {change: change, id: item.id, kind: item.kind};
        Object.keys(item).forEach(function (k) { if (k !== "id" && k !== "kind") { row[k] = item[k]; } });
        rows.push(row);
      });
    });
    if (elements.cells) {
      (elements.cells.added || []).forEach(function (c) { rows.push({change: "added", id: c, kind: "cell"}); });
      (elements.cells.removed || []).forEach(function (c) { rows.push({change: "removed", id: c, kind: "cell"}); });
    }
    out.appendChild(rows.length ? table("Elements", rows) : el("p", "No element changed."));
    if ((doc.fields || []).length) { out.appendChild(table("Fields", doc.fields)); }
    var verdict = doc.verdict;
    if (verdict) {
      var sum = verdict.summary || {};
      var counts = ["error", "warning", "info"].map(function (s) {
        return {severity: s, before: (sum.before || {})[s], after: (sum.after || {})[s]};
      });
      out.appendChild(table("Findings by severity", counts));
      var found = [];
      (verdict.gained || []).forEach(function (f) { found.push({change: "gained", code: f.code, severity: f.severity, elements: (f.elements || []).join(", "), message: f.message}); });
      (verdict.lost || []).forEach(function (f) { found.push({change: "lost", code: f.code, severity: f.severity, elements: (f.elements || []).join(", "), message: f.message}); });
      if (found.length) { out.appendChild(table("Findings gained and lost", found)); }
      if ((verdict.metrics || []).length) { out.appendChild(table("Metrics", verdict.metrics)); }
    }
    $("diff").hidden = false;
  }
})();
