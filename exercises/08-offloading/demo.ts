/**
 * lab run 8: your offloader on a 38,000-character tool result in a folder of the run's own.
 * The result is set aside and the pointer the model would see is said; then a window of it
 * is read back, and a read of /etc/passwd is tried, which must be refused.
 */
interface Offloader {
  savedChars: number;
  wrap(toolName: string, payload: unknown): string;
  read(path: string, offset?: number, limit?: number): string;
}

interface Impl {
  Offloader: new (opts: { root?: string; threshold?: number }) => Offloader;
}

interface Kit {
  goal: string | undefined;
  say(text: string): void;
  workDir: string;
}

export default async function demo(lab: Impl, kit: Kit): Promise<unknown> {
  const rows = Array.from({ length: 600 }, (_, i) => `${String(i + 1).padStart(3)}. docs/api-keys.md#rotate :: Settings > API keys > Rotate: the earlier key works for 24 more hours.`);
  const payload = kit.goal ? `${kit.goal}\n${rows.join("\n")}` : rows.join("\n");
  const offloader = new lab.Offloader({ root: kit.workDir });
  const pointer = offloader.wrap("search_docs", payload);
  kit.say(`A ${payload.length}-character search result; the model sees ${pointer.length} characters:`);
  kit.say(pointer);
  const path = /(\/[^\s"'`\]]+)/.exec(pointer)?.[1];
  if (path) {
    kit.say(`\nread_artifact ${path}, lines 100 to 102:`);
    kit.say(offloader.read(path, 100, 3));
  }
  kit.say("\nread_artifact /etc/passwd:");
  kit.say(offloader.read("/etc/passwd"));
  return { savedChars: offloader.savedChars, pointerChars: pointer.length };
}
