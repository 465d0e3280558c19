(function () {
  /* Counts down the remaining time the server rendered (so a wrong clock on the reader's machine does not matter);
     base.html's ticker reads an end time instead. */
  var start = Date.now(), els = document.querySelectorAll(".countdown-left[data-left]");
  function tick() {
    var gone = (Date.now() - start) / 1000;
    for (var i = 0; i < els.length; i++) {
      var s = Math.max(0, Math.floor(+els[i].getAttribute("data-left") - gone));
      var h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60);
      els[i].textContent = s ? (h ? h + " 小时 " : "") + m + " 分 " + (s % 60) + " 秒" : "已到截止时间";
    }
  }
  if (els.length) { setInterval(tick, 1000); }
  /* Tell the reader when a new phase has begun since this page was rendered (polls a sentence or nothing). */
  var box = document.getElementById("phase-watch");
  function poll() {
    fetch(box.getAttribute("data-watch"), {credentials: "omit", cache: "no-store"})
      .then(function (r) { return r.ok ? r.text() : ""; })
      .then(function (html) { if (html) { box.innerHTML = html; } })
      .catch(function () {});
  }
  if (box) { setInterval(poll, +(box.getAttribute("data-every") || 60000)); }
})();
