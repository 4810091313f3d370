/** `lab provider --record UPSTREAM --out FILE`: forwards every request, hands the answer back unchanged, writes the exchange. */
import { resolve } from "node:path";
import { RECORDER_MESSAGES, SHORTEST_SECRET, startRecorder, upstreamUrl, type RecordedExchange, type Recorder } from "../../checker/provider/index.js";
import { UsageError } from "../terminal/errors.js";
import { writeLine, type Io } from "../terminal/io.js";

export const RECORD_MESSAGES = {
  recording: (origin: string, upstream: string, file: string) =>
    `Recording on ${origin}: each request goes to ${upstream}, its answer comes back unchanged, and the exchange is appended to ${file}.`,
  noSecrets: `No request header is written, and the key a client sends is cut out of everything that is (values under ${SHORTEST_SECRET} characters, like "lab", are no secret).`,
  pointAt: (origin: string) => `Point the SDK at ${origin} (the OpenAI SDK at ${origin}/v1); replay with lab provider --replay FILE.`,
  unwritable: (file: string, why: string) => `The cassette ${file} cannot be written (${why}).`,
  lost: (file: string, why: string) => `An exchange could not be appended to ${file} (${why}); the client still got its answer.`,
  recorded: (x: RecordedExchange) => `${x.method} ${x.path}  ${x.status} recorded${x.chunks ? ` · stream of ${x.chunks.length} chunks` : ""}  ${x.ms} ms`,
} as const;

/** Starts the recorder and says where it listens; a URL that is not http(s) is a usage error. */
export async function startRecording(opts: { upstream: string; out: string; port: number }, io: Io): Promise<Recorder> {
  let shown: string;
  try {
    const url = upstreamUrl(opts.upstream);
    shown = `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, "")}`;
  } catch {
    throw new UsageError(RECORDER_MESSAGES.badUpstream(opts.upstream));
  }
  const out = resolve(io.cwd, opts.out);
  const why = (err: unknown) => (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  const recorder = await startRecorder({
    upstream: opts.upstream,
    out,
    port: opts.port,
    onRecord: (x) => writeLine(io.stdout, RECORD_MESSAGES.recorded(x)),
    onWriteError: (err) => writeLine(io.stderr, RECORD_MESSAGES.lost(opts.out, why(err))),
  }).catch((err: NodeJS.ErrnoException) => {
    if (err.syscall === "open") throw new UsageError(RECORD_MESSAGES.unwritable(opts.out, why(err)));
    throw err;
  });
  writeLine(io.stdout, RECORD_MESSAGES.recording(recorder.origin, shown, opts.out));
  writeLine(io.stdout, RECORD_MESSAGES.noSecrets);
  writeLine(io.stdout, RECORD_MESSAGES.pointAt(recorder.origin));
  writeLine(io.stdout, "Press Ctrl-C to stop.");
  return recorder;
}
