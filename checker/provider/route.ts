/** Reading a request path: /v1/messages[/count_tokens] or /v1/chat/completions, optionally under /s/NAME/key=value/… */

export const DEFAULT_SCENARIO = "echo";

export type Endpoint = "messages" | "count_tokens" | "chat_completions" | "unknown";

export interface Route {
  endpoint: Endpoint;
  scenario: string | null;
  options: Record<string, string>;
  /** Why the path cannot be read, when it has the right shape but broken parts. */
  problem: string | null;
}

/** At most this much of a broken segment is quoted back. */
const QUOTE = 100;
const OPTION_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export const ROUTE_MESSAGES = {
  badEncoding: (segment: string) => `The path segment "${segment.length > QUOTE ? `${segment.slice(0, QUOTE)}…` : segment}" is not valid percent-encoding.`,
  badOptionName: (name: string) =>
    `${JSON.stringify(name.length > QUOTE ? `${name.slice(0, QUOTE)}…` : name)} is not an option name: use letters, digits, - and _, starting with a letter.`,
  repeatedOption: (name: string) => `The option "${name}" is given twice in the path.`,
} as const;

const ROUTE = /^(?:\/s\/([^/]+)((?:\/[^/=]+=[^/]*)*))?\/v1\/(?:messages(\/count_tokens)?|(chat\/completions))\/?$/;

class BrokenPath extends Error {}

function decode(text: string, segment: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new BrokenPath(ROUTE_MESSAGES.badEncoding(segment));
  }
}

/** Never throws: a path with bad percent-encoding or option names comes back with a `problem`. */
export function parseRoute(rawPath: string): Route {
  const path = rawPath.split("?")[0]!;
  const match = ROUTE.exec(path);
  if (!match) return { endpoint: "unknown", scenario: null, options: {}, problem: null };
  const endpoint = match[4] ? "chat_completions" : match[3] ? "count_tokens" : "messages";
  const options: Record<string, string> = {};
  try {
    const scenario = match[1] ? decode(match[1], match[1]) : DEFAULT_SCENARIO;
    for (const pair of (match[2] ?? "").split("/").filter(Boolean)) {
      const at = pair.indexOf("=");
      const name = decode(pair.slice(0, at), pair);
      const value = decode(pair.slice(at + 1), pair);
      if (!OPTION_NAME.test(name)) throw new BrokenPath(ROUTE_MESSAGES.badOptionName(name));
      if (Object.hasOwn(options, name)) throw new BrokenPath(ROUTE_MESSAGES.repeatedOption(name));
      options[name] = value;
    }
    return { endpoint, scenario, options, problem: null };
  } catch (err) {
    if (!(err instanceof BrokenPath)) throw err;
    return { endpoint, scenario: match[1] ?? DEFAULT_SCENARIO, options, problem: err.message };
  }
}
