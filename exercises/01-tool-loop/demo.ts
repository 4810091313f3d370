/**
 * lab run 1: your loop on the weather task. The model (the `weather` scenario) asks for the
 * weather in Paris, Tokyo and Lima in parallel, today then tomorrow; the demo's tool answers
 * from a small table and says each call it runs. A goal that asks for the capital of a
 * country runs the `capital-weather` scenario instead (get_capital, then get_weather).
 */
import type Anthropic from "@anthropic-ai/sdk";

interface Impl {
  agent(client: Anthropic, goal: string, tools: Anthropic.Tool[], dispatch: (name: string, input: Record<string, unknown>) => string | Promise<string>): Promise<string>;
}

interface Kit {
  goal: string | undefined;
  client(scenario: string): unknown;
  say(text: string): void;
}

const FORECAST: Record<string, string> = { Paris: "18°C and cloudy", Tokyo: "24°C and clear", Lima: "16°C with drizzle" };
const CAPITALS: Record<string, string> = { France: "Paris", Japan: "Tokyo", Peru: "Lima" };

const city = { type: "object" as const, properties: { city: { type: "string" }, day: { type: "string" } }, required: ["city"] };
const TOOLS: Anthropic.Tool[] = [
  { name: "get_weather", description: "The weather in a city, today or tomorrow.", input_schema: city },
  { name: "get_capital", description: "The capital of a country.", input_schema: { type: "object", properties: { country: { type: "string" } }, required: ["country"] } },
];

export default async function demo(lab: Impl, kit: Kit): Promise<unknown> {
  const goal = kit.goal ?? "What is the weather in Paris, Tokyo and Lima, today and tomorrow?";
  const scenario = /capital of/i.test(goal) ? "capital-weather" : "weather";
  kit.say(`Goal: ${goal} (the ${scenario} scenario)`);
  let calls = 0;
  const dispatch = (name: string, input: Record<string, unknown>) => {
    calls++;
    kit.say(`tool ${name} ${JSON.stringify(input)}`);
    if (name === "get_capital") return CAPITALS[String(input["country"])] ?? "unknown country";
    const forecast = FORECAST[String(input["city"])];
    if (!forecast) throw new Error(`no forecast for ${String(input["city"])}`);
    return input["day"] === "tomorrow" ? forecast.replace(/\d+/, (t) => String(Number(t) + 1)) : forecast;
  };
  const answer = await lab.agent(kit.client(scenario) as Anthropic, goal, TOOLS, dispatch);
  kit.say(`${calls} tool calls.`);
  return answer;
}
