// The answering part of Lookout's opencode plugin (issue 23): a permission or a question opencode
// asks is brought to a running Lookout over its private socket; the person's answer comes back
// through opencode's own reply routes, beside the TUI's prompt (the first reply wins; a late one
// is a harmless "not found"). Verified live against opencode 1.18.33: the plugin's `client` is the
// v1 SDK client, served in-process (`serverUrl` is not listening in the TUI), so replies go through
// its inner HTTP client. Everything here fails quietly: opencode's own prompt always decides then.

/** The JS the plugin carries for it, reading Lookout's run folder (`runFolder`, embedded); `provider`: whose prompts (opencode, or a fork). */
export function answeringText(runFolder: string, literal: (value: string) => string, provider = 'opencode'): string {
  return `
// ---- Answering from Lookout: only while a Lookout runs, only the person's explicit answer. ----
const RUN = ${literal(runFolder)};
const WAIT_MS = 570000;
const held = new Map();
const cut = (value, max) => (typeof value === "string" ? value.slice(0, max) : "");

// The token, when Lookout's run folder, socket and token are this user's private files and their owner runs.
function channel() {
  try {
    const uid = typeof process.getuid === "function" ? process.getuid() : null;
    const folder = lstatSync(RUN);
    if (!folder.isDirectory() || (uid !== null && folder.uid !== uid) || (folder.mode & 0o077) !== 0) return null;
    const socket = lstatSync(join(RUN, "answer.sock"));
    if (!socket.isSocket() || (uid !== null && socket.uid !== uid)) return null;
    const owner = Number(readFileSync(join(RUN, "answer.pid"), "utf8").trim());
    if (!Number.isInteger(owner) || owner <= 0) return null;
    process.kill(owner, 0);
    const tokenFile = lstatSync(join(RUN, "answer.token"));
    if (!tokenFile.isFile() || (uid !== null && tokenFile.uid !== uid) || (tokenFile.mode & 0o077) !== 0 || tokenFile.size > 70) return null;
    const token = readFileSync(join(RUN, "answer.token"), "utf8").trim();
    return /^[0-9a-f]{64}$/.test(token) ? token : null;
  } catch {
    return null;
  }
}

// What the person checks before allowing, whole: the command, the file and its diff, else the patterns.
function shown(p) {
  const meta = p.metadata && typeof p.metadata === "object" ? p.metadata : {};
  if (typeof meta.command === "string") return meta.command;
  const path = typeof meta.filepath === "string" ? meta.filepath : typeof meta.filePath === "string" ? meta.filePath : null;
  if (path !== null) return path + (typeof meta.diff === "string" ? "\\n\\n" + meta.diff : "");
  const patterns = Array.isArray(p.patterns) ? p.patterns.filter((item) => typeof item === "string") : [];
  return patterns.length > 0 ? patterns.join("\\n") : typeof p.title === "string" ? p.title : String(p.permission || "permission");
}

// Never a silent cut: the card says how much is hidden, and such a prompt is answered in the terminal.
const SHOWN_MAX = 64000;
const shownPart = (text) => ({ text: text.slice(0, SHOWN_MAX), hidden: Math.max(0, text.length - SHOWN_MAX) });
// The answer is bound to the whole request, every field, whatever is shown.
const wholeOf = (p) => createHash("sha256").update(JSON.stringify(p) || "").digest("hex");

function draftOf(type, p) {
  const base = { provider: ${literal(provider)}, sessionId: cut(p.sessionID, 200), agentId: null, agentRequest: cut(p.id, 200), whole: wholeOf(p) };
  if (type === "question.asked") {
    const questions = (Array.isArray(p.questions) ? p.questions : []).slice(0, 20).map((q) => ({
      question: cut(q && q.question, 2000),
      header: q && typeof q.header === "string" ? cut(q.header, 200) : null,
      multiple: !!(q && q.multiple),
      options: (q && Array.isArray(q.options) ? q.options : []).slice(0, 50).filter((o) => o && typeof o.label === "string").map((o) => ({ label: cut(o.label, 500), description: typeof o.description === "string" ? cut(o.description, 2000) : null })),
    }));
    if (questions.length === 0 || questions.some((q) => q.options.length === 0)) return null;
    return { ...base, prompt: "question", tool: "question", ...shownPart(questions.map((q) => q.question).join("\\n")), questions };
  }
  return { ...base, prompt: "approval", tool: cut(String(p.permission || "permission"), 200), ...shownPart(shown(p)), questions: [] };
}

// opencode's own reply routes, through the client it handed the plugin (in-process in the TUI).
async function reply(client, type, id, decision) {
  const http = client && client._client;
  if (!http || typeof http.post !== "function") return;
  const json = { "Content-Type": "application/json" };
  if (type === "permission.asked") {
    const body = decision.behavior === "allow" ? { reply: "once" } : decision.message ? { reply: "reject", message: decision.message } : { reply: "reject" };
    await http.post({ url: "/permission/{requestID}/reply", path: { requestID: id }, body, headers: json });
  } else if (decision.behavior === "answers") {
    await http.post({ url: "/question/{requestID}/reply", path: { requestID: id }, body: { answers: decision.answers }, headers: json });
  } else if (decision.behavior === "deny") {
    await http.post({ url: "/question/{requestID}/reject", path: { requestID: id } });
  }
}

async function askLookout(client, type, p) {
  const token = channel();
  const draft = token === null ? null : draftOf(type, p);
  if (draft === null || draft.sessionId === "" || draft.agentRequest === "") return;
  const { createConnection } = await import("node:net");
  const socket = createConnection(join(RUN, "answer.sock"));
  const entry = { socket, token, request: null };
  held.set(draft.agentRequest, entry);
  let buffer = "";
  const done = () => {
    clearTimeout(timer);
    held.delete(draft.agentRequest);
    socket.destroy();
  };
  const timer = setTimeout(done, WAIT_MS);
  socket.on("error", done);
  socket.on("close", done);
  socket.on("connect", () => socket.write(JSON.stringify({ type: "request", token, pid: process.pid, draft, serial: false, wait: WAIT_MS }) + "\\n"));
  socket.setEncoding("utf8");
  socket.on("data", (chunk) => {
    buffer += chunk;
    if (buffer.length > 262144) return done();
    let newline;
    while ((newline = buffer.indexOf("\\n")) !== -1) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        return done();
      }
      if (message && message.type === "pending" && typeof message.request === "string") entry.request = message.request;
      else if (message && message.type === "decision" && message.decision && typeof message.decision.behavior === "string") {
        done();
        reply(client, type, draft.agentRequest, message.decision).catch(() => {});
      } else return done();
    }
  });
}

// Answered in the TUI (or anywhere): Lookout is told, and lets its request go.
function answeredElsewhere(p) {
  const entry = held.get(typeof p.requestID === "string" ? p.requestID : "");
  if (entry === undefined) return;
  held.delete(p.requestID);
  // Not connected yet: Lookout never saw the request, so there is nothing to tell.
  if (entry.socket.connecting) return entry.socket.destroy();
  try {
    // Lookout's id when its "pending" came; else it knows the request by this connection.
    entry.socket.write(JSON.stringify(entry.request !== null ? { type: "resolved", token: entry.token, request: entry.request } : { type: "resolved", token: entry.token }) + "\\n");
  } catch {}
  entry.socket.end();
}

function answering(client, event) {
  try {
    const p = event.properties || {};
    if (event.type === "permission.asked" || event.type === "question.asked") askLookout(client, event.type, p).catch(() => {});
    else if (event.type === "permission.replied" || event.type === "question.replied" || event.type === "question.rejected") answeredElsewhere(p);
  } catch {
    // Lookout must never get in opencode's way.
  }
}
`;
}
