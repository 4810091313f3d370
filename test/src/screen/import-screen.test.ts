import { afterEach, expect, test } from "vitest";
import { importScreen } from "../../../src/screen/import-screen.js";

const saved = { ...process.env };
afterEach(() => {
  for (const name of ["CI", "CONTINUOUS_INTEGRATION", "NODE_ENV"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

const seen = async () => ({ CI: process.env["CI"], CONTINUOUS_INTEGRATION: process.env["CONTINUOUS_INTEGRATION"], NODE_ENV: process.env["NODE_ENV"] });

test("while the screen loads there are no CI variables and NODE_ENV is production; afterwards all are as they were", async () => {
  process.env["CI"] = "true";
  process.env["CONTINUOUS_INTEGRATION"] = "1";
  delete process.env["NODE_ENV"];
  await expect(importScreen(seen)).resolves.toEqual({ CI: undefined, CONTINUOUS_INTEGRATION: undefined, NODE_ENV: "production" });
  expect(process.env["CI"]).toBe("true");
  expect(process.env["CONTINUOUS_INTEGRATION"]).toBe("1");
  expect("NODE_ENV" in process.env).toBe(false);
});

test("a NODE_ENV the user set is kept, and variables are put back when the import throws", async () => {
  process.env["CI"] = "true";
  process.env["NODE_ENV"] = "development";
  await expect(importScreen(seen)).resolves.toMatchObject({ CI: undefined, NODE_ENV: "development" });
  await expect(importScreen(() => Promise.reject(new Error("broken module")))).rejects.toThrow("broken module");
  expect(process.env["CI"]).toBe("true");
  expect(process.env["NODE_ENV"]).toBe("development");
});
