import { expect, test } from "vitest";
import { learnerUnits, type Job } from "../../../src/grade/engine.js";

const job = (learner: string, exercise: string) => ({ pair: { learnerDir: `/class/${learner}`, key: `${learner}/${exercise}` } }) as unknown as Job;
const keys = (units: Job[][]) => units.map((unit) => unit.map((j) => j.pair.key));

test("one unit per learner, in order, each holding only that learner's pairs", () => {
  const jobs = [job("ada", "01"), job("ada", "02"), job("ben", "01"), job("cy", "01"), job("cy", "02")];
  expect(keys(learnerUnits(jobs, 2))).toEqual([["ada/01", "ada/02"], ["ben/01"], ["cy/01", "cy/02"]]);
});

test("with fewer learners than runners, a learner's pairs are split so no runner idles, never mixed with another's", () => {
  const jobs = ["01", "02", "03", "04", "05"].map((n) => job("ada", n));
  expect(keys(learnerUnits(jobs, 2))).toEqual([
    ["ada/01", "ada/02"],
    ["ada/03", "ada/04", "ada/05"],
  ]);
  expect(keys(learnerUnits([job("ada", "01")], 4))).toEqual([["ada/01"]]);
  expect(learnerUnits([], 2)).toEqual([]);
});
