// Copy buttons (BBCode and plain text drafts) and countdowns. A static file, not an inline script: the
// Content-Security-Policy allows scripts from this site only.
document.addEventListener("click", function (e) {
  var id = e.target.getAttribute && e.target.getAttribute("data-copy");
  if (!id) return;
  var box = document.getElementById(id);
  box.select();
  (navigator.clipboard ? navigator.clipboard.writeText(box.value) : Promise.reject()).catch(function () { document.execCommand("copy"); });
  e.target.textContent = "已复制";
});
document.querySelectorAll(".countdown[data-end]").forEach(function (el) {
  var end = Date.parse(el.getAttribute("data-end"));
  function tick() {
    var s = Math.max(0, Math.floor((end - Date.now()) / 1000));
    el.textContent = Math.floor(s / 3600) + " 小时 " + Math.floor(s % 3600 / 60) + " 分 " + (s % 60) + " 秒";
  }
  tick(); setInterval(tick, 1000);
});
// A form that changes something hard to undo asks first: <form data-confirm="…"> (no inline handlers under the CSP).
document.addEventListener("submit", function (e) {
  var question = e.target.getAttribute && e.target.getAttribute("data-confirm");
  if (question && !window.confirm(question)) e.preventDefault();
});
