/* Sorts the rows shown of a table marked data-client-sort by a header click, in the browser:
   the fund page holds one page (100 positions) of a fund that may hold 20,000, read in the
   index's order, so sorting by a figure can only be of the page shown (the page says so).
   Dependency-free and CSP-compliant (a static file, no inline script or style).
   Each <th data-sort> becomes a button; figure columns (class "num") sort by the number in the
   cell's first line ("USD 1,250,000.00", "62.5 %", "0.16x"), largest first on the first click,
   "—" always last; text columns sort in natural order (POSITION_2 before POSITION_10). */
(function () {
  "use strict";

  var collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

  function firstLine(cell) {
    var text = "";
    for (var node = cell.firstChild; node; node = node.nextSibling) {
      if (node.nodeName === "BR") {
        break;
      }
      text += node.textContent;
    }
    return text.trim();
  }

  function numberIn(text) {
    var cleaned = text.replace(/[^0-9.\-]/g, "");
    if (!/[0-9]/.test(cleaned)) {
      return null;
    }
    var value = parseFloat(cleaned);
    return isNaN(value) ? null : value;
  }

  function sortBy(table, header, descending) {
    var body = table.tBodies[0];
    var index = header.cellIndex;
    var numeric = header.classList.contains("num");
    var rows = Array.prototype.slice.call(body.rows).map(function (row, position) {
      var cell = row.cells[index];
      var text = cell ? firstLine(cell) : "";
      return { row: row, text: text, value: numeric ? numberIn(text) : text, position: position };
    });
    rows.sort(function (a, b) {
      if (a.value === null || b.value === null) {
        return (a.value === null) - (b.value === null) || a.position - b.position;
      }
      var order = numeric ? a.value - b.value : collator.compare(a.value, b.value);
      return (descending ? -order : order) || a.position - b.position;
    });
    rows.forEach(function (item) {
      body.appendChild(item.row);
    });
    Array.prototype.forEach.call(table.tHead.querySelectorAll("th[data-sort]"), function (other) {
      other.removeAttribute("aria-sort");
    });
    header.setAttribute("aria-sort", descending ? "descending" : "ascending");
  }

  function enable(table) {
    Array.prototype.forEach.call(table.tHead.querySelectorAll("th[data-sort]"), function (header) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort-button";
      button.setAttribute("data-testid", "sort-" + header.getAttribute("data-sort"));
      while (header.firstChild) {
        button.appendChild(header.firstChild);
      }
      header.appendChild(button);
      button.addEventListener("click", function () {
        var current = header.getAttribute("aria-sort");
        var descending = current ? current === "ascending" : header.classList.contains("num");
        sortBy(table, header, descending);
      });
    });
  }

  document.querySelectorAll("table[data-client-sort]").forEach(enable);
})();
