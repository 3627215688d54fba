document.documentElement.classList.add("js");
document.querySelectorAll("table.sortable th").forEach(function (th, col) {
  th.addEventListener("click", function () {
    var body = th.closest("table").tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var dir = th.getAttribute("data-dir") === "asc" ? -1 : 1;
    th.setAttribute("data-dir", dir === 1 ? "asc" : "desc");
    rows.sort(function (a, b) {
      var x = a.cells[col].getAttribute("data-sort") || "";
      var y = b.cells[col].getAttribute("data-sort") || "";
      var nx = parseFloat(x), ny = parseFloat(y);
      return dir * (isNaN(nx) || isNaN(ny) ? x.localeCompare(y) : nx - ny);
    });
    rows.forEach(function (r) { body.appendChild(r); });
  });
});
