/** Learner files written to a temp folder and opened in realms of their own, closed when the test file is done. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { bundleLearner } from "../../../dist/checker/realm/bundle.js";
import { openRealm, type Realm } from "../../../dist/checker/realm/host.js";

export function learnerRealms(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), `lab-${prefix}-`));
  const realms: Realm[] = [];
  afterAll(async () => {
    await Promise.all(realms.map((r) => r.close()));
    rmSync(dir, { recursive: true, force: true });
  });
  /** `source` as the learner's file `name`.ts, loaded in a realm: its exports, as the hidden test gets them. */
  async function learner(name: string, source: string): Promise<Record<string, any>> {
    const file = join(dir, `${name}.ts`);
    writeFileSync(file, source);
    const realm = await openRealm(await bundleLearner(file, () => false));
    realms.push(realm);
    return realm.exports;
  }
  return { dir, realms, learner };
}
