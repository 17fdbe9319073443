"use strict";
// The page around the Go verifier: it reads the files the auditor chose (never sending them anywhere: the
// page's Content Security Policy forbids every connection) and shows the verifier's report. All text is set
// with textContent, never as HTML.
(function () {
  const $ = (id) => document.getElementById(id);
  const chosen = { archive: null, signature: null, cards: [], sig: null, attestation: null, sigstore: null, policy: null };
  let ready = null;

  function status(text) { $("status").textContent = text; }

  async function loadVerifier() {
    const b64 = $("verifier").textContent.trim();
    const raw = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const wasm = await new Response(new Blob([raw]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
    const go = new Go();
    const { instance } = await WebAssembly.instantiate(wasm, go.importObject);
    go.run(instance);
    if (typeof globalThis.bernsteinVerify !== "function") {
      await new Promise((resolve) => addEventListener("bernstein-ready", resolve, { once: true }));
    }
  }

  const bytes = async (file) => new Uint8Array(await file.arrayBuffer());

  async function run() {
    if (!chosen.archive) {
      status("Choose the bundle (.tar.gz) to check.");
      return;
    }
    status("Checking " + chosen.archive.name + " …");
    try {
      await ready;
    } catch (e) {
      status("The verifier could not start in this browser: " + e);
      return;
    }
    try {
      const archive = await bytes(chosen.archive);
      const signature = chosen.signature ? await bytes(chosen.signature) : null;
      const cards = [];
      for (const c of chosen.cards) cards.push({ name: c.name, data: await bytes(c) });
      const sidecars = {
        sig: chosen.sig ? await bytes(chosen.sig) : null,
        attestation: chosen.attestation ? await bytes(chosen.attestation) : null,
        sigstore: chosen.sigstore ? await bytes(chosen.sigstore) : null,
      };
      const policy = chosen.policy ? { name: chosen.policy.name, data: await bytes(chosen.policy) } : null;
      show(JSON.parse(globalThis.bernsteinVerify(archive, signature, cards, chosen.archive.name, sidecars, policy)));
    } catch (e) {
      status("The check could not run: " + e);
    }
  }

  function show(result) {
    const rep = JSON.parse(result.report);
    const banner = $("banner");
    banner.className = "banner v-" + rep.verdict;
    banner.dataset.verdict = rep.verdict;
    banner.dataset.exitCode = String(rep.exit_code);
    $("word").textContent = rep.verdict;
    $("means").textContent = result.means;
    $("notmeans").textContent = result.not_means;
    $("exit").textContent = "`git bernstein verify` exits " + rep.exit_code + " for the same files.";
    const next = $("next");
    next.replaceChildren();
    for (const step of result.next_steps || []) {
      const li = document.createElement("li");
      li.textContent = step;
      next.appendChild(li);
    }
    next.classList.toggle("hidden", !next.children.length);
    const list = $("checks");
    list.replaceChildren();
    for (const line of result.text.replace(/\n$/, "").split("\n")) {
      const li = document.createElement("li");
      li.className = line.startsWith("[PASS]") ? "pass" : line.startsWith("[WARN]") || line.startsWith("[UNUSABLE]") ? "warn"
        : line.startsWith("[FAIL]") ? "fail" : line.startsWith(rep.verdict + ": ") ? "verdict" : "problem";
      li.textContent = line;
      list.appendChild(li);
    }
    const controls = $("controls");
    controls.replaceChildren();
    for (const line of (result.controls_text || "").replace(/\n$/, "").split("\n")) {
      if (!line) continue;
      const li = document.createElement("li");
      li.className = line.startsWith("[PASS]") ? "pass" : line.startsWith("[UNKNOWN]") ? "warn"
        : line.startsWith("[EXCEPTION]") ? "fail" : "problem";
      li.textContent = line;
      controls.appendChild(li);
    }
    if (result.policy_error) {
      const li = document.createElement("li");
      li.className = "fail";
      li.textContent = "The policy file does not read, so no control was evaluated: " + result.policy_error;
      controls.appendChild(li);
    }
    $("policy-used").textContent = result.policy || "the default policy";
    $("controls-part").classList.toggle("hidden", !controls.children.length);
    $("json").textContent = result.report;
    $("result").classList.remove("hidden");
    status("Checked " + chosen.archive.name + (chosen.signature ? " with " + chosen.signature.name : " (no signature)")
      + (chosen.cards.length ? " against " + chosen.cards.map((c) => c.name).join(", ") : " (no card)") + ".");
  }

  // A dropped file goes where its name says: .jws is the signature, .sig the SSH signature, .intoto.jsonl the
  // attestation, .sigstore.json the Sigstore bundle, .yaml or .yml the policy, another .json a card (a JSON
  // policy is chosen with its own input), anything else the bundle.
  function place(files) {
    for (const f of files) {
      if (/\.jws$/i.test(f.name)) chosen.signature = f;
      else if (/\.ya?ml$/i.test(f.name)) chosen.policy = f;
      else if (/\.sig$/i.test(f.name)) chosen.sig = f;
      else if (/\.intoto\.jsonl$/i.test(f.name)) chosen.attestation = f;
      else if (/\.sigstore\.json$/i.test(f.name)) chosen.sigstore = f;
      else if (/\.json$/i.test(f.name)) chosen.cards.push(f);
      else chosen.archive = f;
    }
  }

  $("archive").addEventListener("change", (e) => { chosen.archive = e.target.files[0] || null; run(); });
  $("signature").addEventListener("change", (e) => { chosen.signature = e.target.files[0] || null; run(); });
  $("cards").addEventListener("change", (e) => { chosen.cards = Array.from(e.target.files); run(); });
  $("sshsig").addEventListener("change", (e) => { chosen.sig = e.target.files[0] || null; run(); });
  $("attestation").addEventListener("change", (e) => { chosen.attestation = e.target.files[0] || null; run(); });
  $("sigstore").addEventListener("change", (e) => { chosen.sigstore = e.target.files[0] || null; run(); });
  $("policy").addEventListener("change", (e) => { chosen.policy = e.target.files[0] || null; run(); });
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    place(e.dataTransfer.files);
    run();
  });

  ready = loadVerifier();
  ready.then(() => { document.body.dataset.ready = "1"; status("Ready: choose or drop the files."); },
    (e) => status("The verifier could not start in this browser: " + e));
})();
