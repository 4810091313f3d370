/** Debian's Chromium, driven by playwright-core: headless, offline, a fresh profile for every launch. */
import { existsSync } from "node:fs";
import { chromium, type BrowserContext } from "playwright-core";
import { tempDir } from "./support.js";

/** Installed by `apt-get install chromium` (.ci/run does it when it is missing). */
export const CHROMIUM = "/usr/bin/chromium";

export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A laptop's window. */
export const VIEWPORT = { width: 1280, height: 800 };

export function launchChromium(): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM)) throw new Error(`There is no Chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run installs it when it is missing).`);
  return chromium.launchPersistentContext(tempDir("chromium-profile"), { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS, viewport: VIEWPORT });
}
