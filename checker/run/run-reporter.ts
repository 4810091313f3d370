import type { Reporter, TestCase, TestModule } from "vitest/node";
import { outcomeOf } from "./outcome.js";
import type { Binding } from "./binding.js";

/** Turns vitest's reporter hooks into the runner's events, per bound test file. */
export function runReporter(bindings: Map<string, Binding>): Reporter {
  const bindingOf = (module: TestModule) => bindings.get(module.moduleId);
  return {
    onTestModuleCollected(module) {
      const binding = bindingOf(module);
      if (!binding) return;
      const names = [...module.children.allTests()].map((test) => test.name);
      binding.listener?.({ type: "tests-collected", names });
    },
    onTestCaseReady(test: TestCase) {
      bindingOf(test.module)?.listener?.({ type: "test-started", name: test.name });
    },
    onTestCaseResult(test: TestCase) {
      const binding = bindingOf(test.module);
      if (!binding) return;
      const outcome = outcomeOf(test, binding.exercise);
      binding.tests.set(test.id, outcome);
      binding.listener?.({ type: "test-finished", test: outcome });
    },
  };
}
