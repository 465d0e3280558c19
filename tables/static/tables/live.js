  // Live page: poll the table's version; when it moves, swap in the new page (unless a form is being filled in).
  (function () {
    var live = document.getElementById("live"), dirty = false;
    document.addEventListener("input", function () { dirty = true; });
    document.addEventListener("change", function () { dirty = true; });
    function refresh() {
      fetch(location.href, { credentials: "same-origin", cache: "no-store" }).then(function (r) { return r.text(); }).then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html"), fresh = doc.getElementById("live");
        if (!fresh) return;
        live.replaceWith(fresh); live = fresh; document.title = doc.title; dirty = false;
      });
    }
    setInterval(function () {
      fetch(live.getAttribute("data-url"), { cache: "no-store" }).then(function (r) { return r.json(); }).then(function (data) {
        if (String(data.version) === live.getAttribute("data-version")) return;
        if (dirty) { document.getElementById("stale").style.display = "block"; return; }
        refresh();
      }).catch(function () {});
    }, 3000);
  })();
