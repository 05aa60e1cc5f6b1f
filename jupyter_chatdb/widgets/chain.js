// The chain view in the browser: draws the HTML the kernel renders and sends the user's clicks back.

function button(label, className, onClick) {
  const b = document.createElement("button");
  b.textContent = label;
  b.className = `chatdb-button ${className}`;
  b.addEventListener("click", onClick);
  return b;
}

// Ask the Jupyter server to interrupt this kernel: the controller stops and rolls back.
async function interruptKernel(kernelId) {
  const config = document.getElementById("jupyter-config-data");
  if (!kernelId || !config) return false;
  const { baseUrl = "/", token = "" } = JSON.parse(config.textContent);
  const headers = {};
  if (token) headers.Authorization = `token ${token}`;
  const xsrf = document.cookie.match(/(?:^|;\s*)_xsrf=([^;]+)/);
  if (xsrf) headers["X-XSRFToken"] = decodeURIComponent(xsrf[1]);
  const response = await fetch(`${baseUrl.replace(/\/?$/, "/")}api/kernels/${kernelId}/interrupt`, {
    method: "POST",
    headers,
    credentials: "same-origin",
  });
  return response.ok;
}

function stepTools(model, card, sql) {
  const tools = document.createElement("div");
  tools.className = "chatdb-step-tools";
  const editor = document.createElement("div");
  editor.className = "chatdb-editor";
  editor.hidden = true;
  const text = document.createElement("textarea");
  text.value = sql;
  text.rows = Math.min(8, sql.split("\n").length + 1);
  const index = Number(card.dataset.index);
  editor.append(
    text,
    button("Run", "chatdb-run", () => model.send({ action: "rerun", index, sql: text.value })),
  );
  const copy = button("Copy SQL", "chatdb-copy", async () => {
    try {
      await navigator.clipboard.writeText(sql);
      copy.textContent = "Copied";
    } catch {
      editor.hidden = false; // no clipboard access: show the SQL to select by hand
      text.select();
    }
  });
  tools.append(button("Edit", "chatdb-edit", () => (editor.hidden = !editor.hidden)), copy);
  card.append(tools, editor);
}

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "chatdb-view";
  const body = document.createElement("div");
  const bar = document.createElement("div");
  bar.className = "chatdb-actions";
  root.append(body, bar);
  el.append(root);

  function drawBar() {
    const phase = model.get("phase");
    const busy = model.get("busy");
    bar.replaceChildren();
    if (busy) {
      bar.append(Object.assign(document.createElement("span"), { textContent: busy, className: "chatdb-busy" }));
    } else if (phase === "running") {
      const stop = button("Stop", "chatdb-stop", async () => {
        stop.disabled = true;
        if (!(await interruptKernel(model.get("kernel_id")))) {
          stop.textContent = "Use the kernel's interrupt button";
        }
      });
      bar.append(stop);
    } else if (phase === "pending") {
      bar.append(button("Approve", "chatdb-approve", () => model.send({ action: "approve" })));
      const keepName = model.get("keep_name");
      if (keepName) {
        // one click applies the write and keeps it as a procedure, under the name in the box
        const name = Object.assign(document.createElement("input"), { value: keepName, className: "chatdb-keep-name" });
        name.setAttribute("aria-label", "procedure name");
        const keep = button("Keep as procedure", "chatdb-keep", () => model.send({ action: "keep", name: name.value }));
        keep.title = "Apply the write and keep it as a procedure for later requests like this one";
        bar.append(keep, name);
      }
      bar.append(button("Reject", "chatdb-reject", () => model.send({ action: "reject" })));
    } else if (phase === "done" && model.get("verifiable")) {
      const right = button("Mark right", "chatdb-verify", () => model.send({ action: "verify" }));
      right.title = "Keep this question and its SQL as a verified example for later questions like it";
      bar.append(right);
    }
  }

  function draw() {
    body.innerHTML = model.get("html");
    const sqlByIndex = new Map(model.get("steps").map((s) => [String(s.index), s.sql]));
    if (model.get("phase") !== "running") {
      for (const card of body.querySelectorAll(".chatdb-step[data-index]")) {
        stepTools(model, card, sqlByIndex.get(card.dataset.index) ?? "");
      }
    }
    drawBar();
  }

  function tick() {
    const progress = body.querySelector(".chatdb-progress[data-started]");
    if (progress) {
      const seconds = Date.now() / 1000 - Number(progress.dataset.started);
      progress.textContent = `${progress.dataset.label}... ${Math.max(0, seconds).toFixed(0)} s`;
    }
    for (const card of body.querySelectorAll('.chatdb-step[data-status="running"][data-started]')) {
      const seconds = Date.now() / 1000 - Number(card.dataset.started);
      const status = card.querySelector(".chatdb-status");
      if (status) status.textContent = `running, ${Math.max(0, seconds).toFixed(1)} s`;
    }
  }

  draw();
  model.on("change:html", draw);
  model.on("change:phase", draw);
  model.on("change:busy", drawBar);
  model.on("change:keep_name", drawBar);
  model.on("change:verifiable", drawBar);
  const timer = setInterval(tick, 250);
  return () => clearInterval(timer);
}

export default { render };
