#!/usr/bin/env node
// A PreToolUse hook for Claude Code's Read tool: recall before read.
//
// Off unless RTCH_READ_HOOK_BYTES is set (a size in bytes). When the agent
// is about to read a whole file larger than that, the read is declined and
// the reason carries rtch's brief instead: the protected, bounded chunks of
// the tree that bear on the user's last request, with that file as a known
// target. A read with offset or limit (a re-entry) always goes through, and
// so does every read when the lane cannot run (no binaries on PATH, a tree
// the lane refuses): the hook never stands between the agent and a file.
//
//   RTCH_READ_HOOK_BYTES   threshold in bytes; unset or 0: the hook does nothing
//   RTCH_READ_HOOK_TOKENS  the brief's token budget (default 4000)
//
// Input: the hook's JSON on stdin (tool_name, tool_input.file_path, cwd,
// transcript_path). Output: nothing, or one JSON object that denies the
// read with the brief as its reason.

import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { relative, isAbsolute, resolve } from "node:path";

const threshold = Number(process.env.RTCH_READ_HOOK_BYTES || 0);
const budget = Number(process.env.RTCH_READ_HOOK_TOKENS || 4000);
const goalLimit = 2000; // characters of the user's request the goal keeps

function main() {
  if (!(threshold > 0)) return;
  const input = JSON.parse(readFileSync(0, "utf8"));
  const args = input.tool_input || {};
  if (input.tool_name !== "Read" || !args.file_path) return;
  if (args.offset !== undefined || args.limit !== undefined) return;
  const root = input.cwd || process.cwd();
  const file = isAbsolute(args.file_path) ? args.file_path : resolve(root, args.file_path);
  const rel = relative(root, file);
  if (rel.startsWith("..") || isAbsolute(rel)) return; // outside the project
  let size;
  try {
    size = statSync(file).size;
  } catch {
    return; // let Read report the missing file
  }
  if (size <= threshold) return;
  const goal = lastRequest(input.transcript_path) || `what in ${rel} matters here`;
  const brief = lane(root, goal, rel);
  if (!brief) return;
  const reason =
    `${rel} is ${size} bytes, over RTCH_READ_HOOK_BYTES=${threshold}: rtch read the parts of the tree ` +
    `that bear on the request instead (below). Read a line range of it (offset and limit) when you need more.\n\n` +
    brief;
  process.stdout.write(
    JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: reason,
      },
    }) + "\n",
  );
}

// lastRequest is the text of the user's last message in the session's
// transcript (JSON lines), cut to goalLimit characters; "" when there is
// none to read.
function lastRequest(path) {
  if (!path) return "";
  let lines;
  try {
    lines = readFileSync(path, "utf8").split("\n");
  } catch {
    return "";
  }
  for (let i = lines.length - 1; i >= 0; i--) {
    let entry;
    try {
      entry = JSON.parse(lines[i]);
    } catch {
      continue;
    }
    const text = userText(entry);
    if (text) return text.slice(0, goalLimit);
  }
  return "";
}

// userText is the typed text of a user entry (tool results are user
// entries too, and are not requests).
function userText(entry) {
  if (!entry || entry.type !== "user" || !entry.message) return "";
  const content = entry.message.content;
  if (typeof content === "string") return content.trim();
  if (!Array.isArray(content)) return "";
  return content
    .filter((part) => part && part.type === "text" && typeof part.text === "string")
    .map((part) => part.text)
    .join("\n")
    .trim();
}

// lane runs the pipe rtch-intake | rtch-zone | … | rtch-packet --format md
// in root and returns the brief, or "" when a stage fails.
function lane(root, goal, target) {
  const stages = [
    ["rtch-intake", "--goal-file", "-", "--known-target", target, "--profile", "code_path", "--fanout", "conservative",
      "--risk", "read_only", "--output-kind", "hydration_packet", "--enough", `the parts of ${target} the request needs are hydrated`,
      "--budget-tokens", String(budget), "-q"],
    ["rtch-zone", "-q"],
    ["rtch-scout", "-q"],
    ["rtch-probe", "-q"],
    ["rtch-hydrate", "-q"],
    ["rtch-packet", "--format", "md", "--line-numbers", "-q"],
  ];
  let data = goal;
  for (const argv of stages) {
    const run = spawnSync(argv[0], argv.slice(1), { cwd: root, input: data, maxBuffer: 64 << 20 });
    if (run.error || run.status !== 0) return "";
    data = run.stdout;
  }
  return data.toString("utf8");
}

try {
  main();
} catch {
  // a hook that cannot decide lets the read through
}
