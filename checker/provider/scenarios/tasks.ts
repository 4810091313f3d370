/** Conversational scenarios: the model asks for tools and answers from what they return. */
import { asks, call, callsOf, defineScenario, filler, lastAnswered, numberOption, refusal, say, text, toolUse } from "./helpers.js";
import { integer } from "./options.js";
import type { ScenarioContext } from "./types.js";

const firstLine = (value: string) => value.trim().split("\n")[0]!.slice(0, 200);

export const WEATHER_CITIES = ["Paris", "Tokyo", "Lima"] as const;
const DAYS = ["today", "tomorrow"] as const;

export const weather = defineScenario({
  name: "weather",
  description: "get_weather for Paris, Tokyo and Lima in parallel, today then tomorrow; split results make it go one city per turn",
  reply(ctx) {
    const lookups = callsOf(ctx, "get_weather");
    const answer = (city: string, day: string) => lookups.find((c) => c.input["city"] === city && (c.input["day"] ?? "today") === day && c.result)?.result;
    for (const day of DAYS) {
      const missing = WEATHER_CITIES.filter((city) => !answer(city, day));
      if (missing.length === 0) continue;
      // A transcript that shows parallel calls answered one message at a time is
      // a worked example of sequential calling, and the model follows it.
      const batch = ctx.resultsSplit ? missing.slice(0, 1) : missing;
      return asks(...batch.map((city) => call("get_weather", { city, day })));
    }
    const lines = WEATHER_CITIES.map((city) => `${city}: ${answer(city, "today")!.text} today, ${answer(city, "tomorrow")!.text} tomorrow.`);
    return text(`Here is the weather.\n${lines.join("\n")}`);
  },
});

export const capitalWeather = defineScenario({
  name: "capital-weather",
  description: "get_capital, then get_weather for the city it returned, then one sentence",
  reply(ctx) {
    const country = /capital of ([A-Z][\w-]*)/.exec(ctx.goal)?.[1] ?? "France";
    const capital = lastAnswered(ctx, "get_capital");
    if (!capital) return toolUse("get_capital", { country });
    if (capital.result!.isError) return text(`I could not find the capital of ${country}: ${capital.result!.text}`);
    const city = firstLine(capital.result!.text).slice(0, 60);
    const forecast = lastAnswered(ctx, "get_weather");
    if (!forecast) return toolUse("get_weather", { city });
    if (forecast.result!.isError) return text(`I could not get the weather for ${city}: ${forecast.result!.text}`);
    return text(`The weather in ${city}: ${forecast.result!.text}.`);
  },
});

export const runaway = defineScenario({
  name: "runaway",
  description: "asks for list_files on every turn and never answers",
  reply: () => toolUse("list_files"),
});

export const growing = defineScenario({
  name: "growing",
  description: "a long run (turns=40) whose every turn adds ~grow=1500 tokens of notes to the transcript",
  // 20,000 words a turn is about 25K tokens: past that a run is no longer a lesson, only a load.
  options: { turns: integer(0, 1000), grow: integer(1, 20_000) },
  reply(ctx) {
    const turns = numberOption(ctx, "turns", 40);
    const grow = numberOption(ctx, "grow", 1500);
    if (ctx.turn >= turns) return text(`Finished after ${ctx.turn} steps.`);
    return asks(say(filler(grow, `step ${ctx.turn + 1}`)), call("fetch_page", { page: ctx.turn + 1 }));
  },
});

export const echo = defineScenario({
  name: "echo",
  description: "answers in one sentence that repeats the last user message",
  reply: (ctx) => text(`You said: ${ctx.lastUserText}`),
});

export const refusing = defineScenario({
  name: "refusal",
  description: "declines: empty content with stop_reason refusal",
  reply: () => refusal(),
});

export const truncated = defineScenario({
  name: "truncated",
  description: "writes past max_tokens, so the reply is cut off with stop_reason max_tokens",
  reply: (ctx: ScenarioContext) => text(filler(ctx.request.max_tokens + 64, "the answer")),
});

export const paused = defineScenario({
  name: "pause",
  description: "pauses a long turn (stop_reason pause_turn); answers when the turn is sent back",
  reply(ctx) {
    const last = ctx.request.messages.at(-1);
    if (last?.role === "assistant") return text("Here is the rest of the answer.");
    return text("Looking through the sources…", "pause_turn");
  },
});
