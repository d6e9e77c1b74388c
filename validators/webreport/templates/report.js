"use strict";
(function () {
  var svg = document.getElementById("arena");
  function targetsOf(node) {
    try { return JSON.parse(node.getAttribute("data-targets") || "[]"); } catch (e) { return []; }
  }
  function elementsFor(ids) {
    var found = [];
    if (!svg) { return found; }
    var all = svg.querySelectorAll("[data-element]");
    for (var i = 0; i < all.length; i++) {
      if (ids.indexOf(all[i].getAttribute("data-element")) >= 0) { found.push(all[i]); }
    }
    return found;
  }
  function mark(ids, cls, on) {
    elementsFor(ids).forEach(function (el) { el.classList.toggle(cls, on); });
  }
  var pinned = null;
  function highlight(ids, on) {
    mark(ids, "hl", on);
    if (!on && pinned) { mark(targetsOf(pinned), "hl", true); }
  }
  function select(item) {
    var overlays = svg ? svg.querySelectorAll(".overlay.shown") : [];
    for (var i = 0; i < overlays.length; i++) { overlays[i].classList.remove("shown"); }
    if (pinned) { pinned.classList.remove("selected"); mark(targetsOf(pinned), "hl", false); }
    if (pinned === item) { pinned = null; return; }
    pinned = item;
    item.classList.add("selected");
    mark(targetsOf(item), "hl", true);
    var overlay = document.getElementById("overlay-" + item.getAttribute("data-finding"));
    if (overlay) { overlay.classList.add("shown"); }
  }
  var items = document.querySelectorAll("[data-targets]");
  for (var i = 0; i < items.length; i++) {
    (function (item) {
      var ids = targetsOf(item);
      item.addEventListener("mouseenter", function () { highlight(ids, true); if (item.tagName === "TR") { item.classList.add("hl"); } });
      item.addEventListener("mouseleave", function () { highlight(ids, false); item.classList.remove("hl"); });
      item.addEventListener("focus", function () { highlight(ids, true); });
      item.addEventListener("blur", function () { highlight(ids, false); });
      if (item.classList.contains("finding")) {
        item.addEventListener("click", function (ev) {
          if (ev.target.closest && ev.target.closest("details")) { return; }
          select(item);
        });
        item.addEventListener("keydown", function (ev) {
          if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); select(item); }
        });
      }
    })(items[i]);
  }
  if (svg) {
    svg.addEventListener("click", function (ev) {
      var el = ev.target.closest ? ev.target.closest("[data-element]") : null;
      if (!el) { return; }
      var id = el.getAttribute("data-element");
      var list = document.querySelectorAll("li.finding");
      for (var i = 0; i < list.length; i++) {
        if (targetsOf(list[i]).indexOf(id) >= 0) { list[i].scrollIntoView({block: "nearest"}); select(list[i]); return; }
      }
    });
  }
  var choice = document.getElementById("heat-choice");
  var readout = document.getElementById("heat-readout");
  var current = null;
  function parseValues(layer) {
    var text = layer.getAttribute("data-values") || "";
    var out = {};
    if (layer.getAttribute("data-kind") === "grid") {
      out.rows = text ? text.split(";").map(function (row) { return row.split(" "); }) : [];
      out.grid = (layer.getAttribute("data-grid") || "").split(" ").map(Number);
    } else {
      out.cells = {};
      text.split(" ").forEach(function (pair) {
        var eq = pair.indexOf("=");
        if (eq > 0) { out.cells[pair.slice(0, eq)] = pair.slice(eq + 1); }
      });
    }
    return out;
  }
  function showHeat(value) {
    var layers = document.querySelectorAll("g.heatmap, .heatlegend");
    for (var i = 0; i < layers.length; i++) { layers[i].classList.remove("shown"); }
    current = null;
    if (readout) { readout.textContent = ""; }
    if (value === "") { return; }
    var layer = document.getElementById("heatmap-" + value);
    var legend = document.getElementById("heatlegend-" + value);
    if (legend) { legend.classList.add("shown"); }
    if (layer) { layer.classList.add("shown"); current = {layer: layer, values: parseValues(layer)}; }
  }
  function valueAt(ev) {
    var v = current.values;
    if (v.cells) {  // the valued cell under the pointer (rows and zones may lie over it)
      var stack = document.elementsFromPoint(ev.clientX, ev.clientY);
      for (var k = 0; k < stack.length; k++) {
        var el = stack[k].closest ? stack[k].closest("[data-element]") : null;
        var id = el ? el.getAttribute("data-element") : "";
        var at = id.slice(id.indexOf(":") + 1);
        if (id && Object.prototype.hasOwnProperty.call(v.cells, at)) { return [id, v.cells[at]]; }
      }
      return null;
    }
    var ctm = svg.getScreenCTM();
    if (!ctm || v.grid.length < 5) { return null; }
    var pt = svg.createSVGPoint();
    pt.x = ev.clientX; pt.y = ev.clientY;
    var p = pt.matrixTransform(ctm.inverse());
    var x = p.x, y = -p.y;
    var i = Math.floor((x - v.grid[0]) / v.grid[2]), j = Math.floor((y - v.grid[1]) / v.grid[2]);
    var row = v.rows[j];
    if (!row || i < 0 || i >= row.length || row[i] === "-") { return null; }
    return [x.toFixed(1) + ", " + y.toFixed(1), row[i]];
  }
  function readValue(ev) {
    if (!current || !readout) { return; }
    var found = valueAt(ev);
    var unit = current.layer.getAttribute("data-unit") || "";
    readout.textContent = found ? found[1] + " " + unit + " at " + found[0] : "";
  }
  if (choice) {
    choice.addEventListener("change", function () { showHeat(choice.value); });
    showHeat(choice.value);
    if (svg) {
      svg.addEventListener("pointermove", readValue);
      svg.addEventListener("pointerdown", readValue);
    }
  }
})();
