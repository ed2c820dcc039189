// Runs before `npm test`: the browser tests need a Chromium. Finds one, or
// installs Debian's when this is a root shell with apt-get, or stops with the
// fix. It never skips the browser tests.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];
if (candidates.some((path) => path && existsSync(path))) process.exit(0);

const root = process.getuid?.() === 0;
const apt = spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
if (root && apt) {
  console.log("test: installing Debian's chromium for the browser tests");
  execFileSync("sh", ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium"], {
    stdio: "inherit",
  });
  process.exit(0);
}
console.error(
  "test: the browser tests need Chromium. Install it (sudo apt-get install chromium) or set CHROMIUM_PATH to a Chrome or Chromium binary.",
);
process.exit(1);
