/**
 * Practice for the membrane, while a spare realm waits for the learner's code. Each realm is
 * a new isolate, so the membrane's code on both sides, and the realm's SDK on the paths a
 * hidden test takes through it, would otherwise run cold during the first tests of every
 * save (with the young-generation sweep, practice took 6–12 % off the saves measured side by
 * side). The two sides practise on a channel and membranes of their own, never the real ones:
 * the learner's code can reach nothing of it, and a save stops it (see host.ts and entry.ts).
 */
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { type Locals, Membrane, RealmStopped } from "./membrane.js";
import { sweepYoungGarbage } from "../run/workers/young-garbage.js";
import { WEATHER } from "../run/workers/rehearsal.js";

/** The realm's end of a practice channel, handed to its thread in workerData (its port transferred). */
export interface PracticeChannel {
  port: MessagePort;
  bells: Int32Array;
}

/** What the realm's side offers to practise on: the shapes hidden tests send across. */
export const practiceExports = {
  /** A tool loop: the test's client, tools and sync dispatch, options read from a frozen copy. */
  async loop(client: ClientLike, question: string, tools: unknown[], dispatch: (name: string, input: unknown) => unknown, options: { maxSteps: number }) {
    const messages: unknown[] = [{ role: "user", content: question }];
    for (let step = 0; step < options.maxSteps; step++) {
      const reply = await client.messages.create({ model: "claude-opus-5", max_tokens: 256, tools, messages });
      if (reply.stop_reason !== "tool_use") return reply.content.map((block) => block.text ?? "").join("");
      messages.push({ role: "assistant", content: reply.content });
      const results = reply.content
        .filter((block) => block.type === "tool_use")
        .map((block) => {
          try {
            return { type: "tool_result", tool_use_id: block.id, content: String(dispatch(String(block.name), block.input)) };
          } catch (error) {
            return { type: "tool_result", tool_use_id: block.id, content: String((error as Error).message), is_error: true };
          }
        });
      messages.push({ role: "user", content: results });
    }
    throw new RangeError(`no answer in ${options.maxSteps} steps`);
  },
  /** An instance with sync methods, an async one that awaits the test's async function, a getter and fields. */
  Tally: class Tally {
    count = 0;
    constructor(readonly options: { step: number; name: string }) {}
    add(n: number): number {
      this.count += n * this.options.step;
      return this.count;
    }
    async fetchAndAdd(source: (n: number) => Promise<number>): Promise<number> {
      return this.add(await source(this.count));
    }
    get doubled(): number {
      return this.count * 2;
    }
  },
  scale(vector: Float32Array, by: number): Float32Array {
    return vector.map((x) => x * by);
  },
  refuse(why: string): never {
    throw new TypeError(why);
  },
  /** The practice is over: what it left in the realm's young generation goes before the run comes. */
  rest(): void {
    sweepYoungGarbage();
  },
};

interface ClientLike {
  messages: {
    create(body: unknown): Promise<{ stop_reason: string; content: { type: string; id?: string; name?: string; input?: unknown; text?: string }[] }>;
  };
}

/** The realm's side: offers the practice exports on `port` until `done` (the learner's code arrived). */
export function offerPractice({ port, bells }: PracticeChannel, locals: Locals): { done(): void } {
  const membrane = new Membrane(port, bells, 1, locals, Number.POSITIVE_INFINITY);
  // Each export its own handle, as the learner's module's are (see entry.ts).
  const exports = Object.fromEntries(Object.entries(practiceExports).map(([name, value]) => [name, membrane.encode(value)]));
  port.postMessage({ k: "practice", exports });
  return {
    done() {
      membrane.stop(new RealmStopped("practice is over"));
      port.close();
    },
  };
}

export const PRACTICE_ROUNDS = 40;

/**
 * The trusted side of a practice channel: once the realm offers its exports, runs rounds of
 * calls through them against `url` (a rehearsal provider's) until PRACTICE_ROUNDS, a failure,
 * or `stop()`. Whatever goes wrong only ends the practice.
 */
export class PracticeHost {
  /** For the realm's thread: its port goes in the Worker's transferList. */
  readonly realmSide: PracticeChannel;
  private readonly membrane: Membrane;
  private stopping = false;
  private offered = false;
  private markFinished: (rounds: number) => void = () => undefined;
  /** The rounds run, once the practice is over (all of them, stopped, or failed). */
  readonly finished = new Promise<number>((resolve) => (this.markFinished = resolve));

  constructor(
    private readonly locals: Locals,
    private readonly url: string,
    limitMs: number,
  ) {
    const { port1, port2 } = new MessageChannel();
    const bells = new Int32Array(new SharedArrayBuffer(12));
    this.realmSide = { port: port2, bells };
    this.membrane = new Membrane(port1, bells, 0, locals, limitMs, () => this.stop(), true);
    port1.once("message", (message: { k?: string; exports?: unknown }) => {
      if (message.k !== "practice" || this.stopping) return this.markFinished(0);
      void this.practise(this.membrane.decode(message.exports) as typeof practiceExports);
    });
    port1.once("close", () => {
      // A round in flight then fails, and the practice reports the rounds it ran.
      this.membrane.stop(new RealmStopped("practice is over"));
      if (!this.offered) this.markFinished(0);
    });
    // The realm closes its end when the learner's code arrives; nothing here keeps a process up.
    port1.unref();
  }

  /** No round starts after this one; the realm still gets its answers until it closes its end. */
  stop(): void {
    this.stopping = true;
  }

  private async practise(realm: typeof practiceExports): Promise<void> {
    this.offered = true;
    const Anthropic = this.locals.sdk as unknown as new (options: Record<string, unknown>) => ClientLike;
    const dispatch = (name: string, input: unknown) => {
      if ((input as { city?: string }).city === "Lima") throw new Error(`${name} has no forecast for Lima`);
      return "14C, clear";
    };
    const options = Object.freeze({ maxSteps: 4 });
    // Every step asks first: a sync call made after a save would wait on a realm that has moved on.
    const next = () => {
      if (this.stopping) throw new RealmStopped("practice is over");
    };
    let round = 0;
    try {
      for (; round < PRACTICE_ROUNDS; round++) {
        next();
        const client = new Anthropic({ baseURL: this.url, apiKey: `practice-${round}`, maxRetries: 0 });
        await realm.loop(client, `Weather in Paris, Tokyo and Lima? (${round})`, [WEATHER], dispatch, options).catch(() => undefined);
        next();
        const tally = new realm.Tally({ step: 2, name: "practice" });
        tally.add(round);
        next();
        await tally.fetchAndAdd(async (n) => n + 1);
        next();
        void tally.doubled;
        realm.scale(new Float32Array([0.6, 0.8]), round);
        try {
          realm.refuse("practice");
        } catch {
          // Errors crossing back are part of the practice.
        }
      }
      next();
      realm.rest();
      sweepYoungGarbage();
    } catch {
      // Stopped, or the realm went away: the practice is simply over.
    }
    this.markFinished(round);
  }
}
