// Guild's bundle linter, answered by rtch's guild-lint: a Guild
// installation whose GUILD_PLUGIN_ROOT points at this folder runs
// `npx tsx $GUILD_PLUGIN_ROOT/scripts/lint-context-bundle.ts --bundle …`
// unchanged. guild-lint takes the same flags; set RTCH_GUILD_LINT to a
// binary that is not on PATH.
import { spawnSync } from "node:child_process";

const bin = process.env.RTCH_GUILD_LINT ?? "guild-lint";
const run = spawnSync(bin, process.argv.slice(2), { stdio: "inherit" });
if (run.error) {
  console.error(`lint-context-bundle.ts: error: cannot run ${bin}: ${run.error.message}`);
  console.error("lint-context-bundle.ts: hint: install rtch (its guild-lint must be on PATH) or set RTCH_GUILD_LINT");
  process.exit(127);
}
process.exit(run.status ?? 130);
