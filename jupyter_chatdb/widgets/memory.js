// The memory browser: a search box and a table of thoughts, each with a Forget button.

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "chatdb-view chatdb-memory";
  const search = document.createElement("input");
  search.type = "search";
  search.placeholder = "Search thoughts (Enter)";
  search.value = model.get("query");
  search.addEventListener("keydown", (e) => {
    if (e.key === "Enter") model.send({ action: "search", text: search.value });
  });
  const status = document.createElement("div");
  status.className = "chatdb-busy";
  const table = document.createElement("table");
  root.append(search, status, table);
  el.append(root);

  function draw() {
    status.textContent = model.get("status");
    const head = "<tr><th>id</th><th>kind</th><th>thought</th><th>source</th><th>freshness</th><th></th></tr>";
    table.innerHTML = head;
    for (const row of model.get("rows")) {
      const tr = document.createElement("tr");
      for (const key of ["id", "kind", "text", "source", "freshness"]) {
        const td = document.createElement("td");
        td.textContent = row[key];
        tr.append(td);
      }
      const forget = document.createElement("button");
      forget.className = "chatdb-button chatdb-reject";
      forget.textContent = "Forget";
      forget.addEventListener("click", () => model.send({ action: "forget", id: row.id }));
      const cell = document.createElement("td");
      cell.append(forget);
      tr.append(cell);
      table.append(tr);
    }
  }

  draw();
  model.on("change:rows", draw);
  model.on("change:status", draw);
}

export default { render };
