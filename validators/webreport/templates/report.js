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
})();
