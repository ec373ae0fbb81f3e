// Guild's recall entry point, answered by rtch's guild-recall: a Guild
// installation whose GUILD_PLUGIN_ROOT points at this folder runs
// `npx tsx $GUILD_PLUGIN_ROOT/scripts/lib/recall.ts --query … --cwd … --run-id …`
// unchanged. guild-recall takes the same flags; set RTCH_GUILD_RECALL to a
// binary that is not on PATH.
import { spawnSync } from "node:child_process";

const bin = process.env.RTCH_GUILD_RECALL ?? "guild-recall";
const run = spawnSync(bin, process.argv.slice(2), { stdio: "inherit" });
if (run.error) {
  console.error(`recall.ts: error: cannot run ${bin}: ${run.error.message}`);
  console.error("recall.ts: hint: install rtch (its guild-recall must be on PATH) or set RTCH_GUILD_RECALL");
  process.exit(127);
}
process.exit(run.status ?? 130);
