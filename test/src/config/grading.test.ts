import { join } from "node:path";
import { expect, test } from "vitest";
import { DEFAULT_CONFIG, resolveConfig } from "../../../src/config/schema.js";

const FILE = join("/class", "lab.config.ts");

test("grading defaults: every exercise worth the default weight, partial credit per hidden test", () => {
  expect(DEFAULT_CONFIG.grading).toEqual({ weights: {}, partialCredit: true });
  expect(resolveConfig({}, FILE).grading).toEqual({ weights: {}, partialCredit: true });
});

test("weights by exercise number and partial credit are read over the defaults", () => {
  const config = resolveConfig({ grading: { weights: { 1: 20, 4: 0, 12: 7.5 }, partialCredit: false } }, FILE);
  expect(config.grading).toEqual({ weights: { "1": 20, "4": 0, "12": 7.5 }, partialCredit: false });
  expect(resolveConfig({ grading: { partialCredit: false } }, FILE).grading).toEqual({ weights: {}, partialCredit: false });
});

test.each([
  [{ weights: { x: 10 } }, `"grading.weights" must map exercise numbers to points from 0 to 1000, such as { 1: 10, 4: 20 } (got {"x":10}).`],
  [{ weights: { 1: -1 } }, `"grading.weights" must map exercise numbers to points from 0 to 1000, such as { 1: 10, 4: 20 } (got {"1":-1}).`],
  [{ weights: { 1: 1001 } }, `"grading.weights" must map exercise numbers to points from 0 to 1000, such as { 1: 10, 4: 20 } (got {"1":1001}).`],
  [{ weights: { 1: "10" } }, `"grading.weights" must map exercise numbers to points from 0 to 1000, such as { 1: 10, 4: 20 } (got {"1":"10"}).`],
  [{ weights: [10] }, `"grading.weights" must map exercise numbers to points from 0 to 1000, such as { 1: 10, 4: 20 } (got [10]).`],
  [{ partialCredit: "yes" }, `"grading.partialCredit" must be true or false (got "yes").`],
  [{ partial: true }, `"grading.partial" is not a setting; known settings are grading.weights, grading.partialCredit (got true).`],
])("a bad grading setting %j names the field and the file", (grading, problem) => {
  expect(() => resolveConfig({ grading }, FILE)).toThrow(`${FILE}: ${problem}`);
});

test("grading itself must be an object", () => {
  expect(() => resolveConfig({ grading: 5 }, FILE)).toThrow(`${FILE}: "grading" must be an object (got 5).`);
});
