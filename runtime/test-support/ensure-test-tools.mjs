// Runs before `npm test`: the browser tests need a Chromium and the Redis
// counter-store tests a redis-server. Finds each, or installs Debian's
// package when this is a root shell with apt-get (one apt-get for both), or
// stops with the fix. It never skips a test.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const onPath = (command) => spawnSync("sh", ["-c", `command -v ${command}`]).status === 0;

const chromium = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].some((path) => path && existsSync(path));
const redis = onPath("redis-server");

const missing = [];
if (!chromium) missing.push({ name: "Chromium", package: "chromium", fix: "install it (sudo apt-get install chromium) or set CHROMIUM_PATH to a Chrome or Chromium binary" });
if (!redis) missing.push({ name: "redis-server", package: "redis-server", fix: "install it (sudo apt-get install redis-server)" });
if (missing.length === 0) process.exit(0);

if (process.getuid?.() === 0 && onPath("apt-get")) {
  const packages = missing.map((tool) => tool.package).join(" ");
  console.log(`test: installing Debian's ${packages} for the browser and Redis tests`);
  execFileSync("sh", ["-c", `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages}`], { stdio: "inherit" });
  process.exit(0);
}
for (const tool of missing) console.error(`test: the tests need ${tool.name}: ${tool.fix}.`);
process.exit(1);
