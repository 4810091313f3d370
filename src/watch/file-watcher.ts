import { watch } from "chokidar";

/** How often a polling watcher looks at the file, for file systems whose change events stay silent. */
export const POLL_INTERVAL_MS = 100;

export interface FileWatchHandlers {
  /** The file was written (in place, or replaced by an editor's atomic save). */
  onSave(): void;
  /** The file is gone and did not come back (a deletion, not an atomic save). */
  onMissing(): void;
  onError(error: Error): void;
}

export interface FileWatch {
  close(): Promise<void>;
}

export type WatchFile = (file: string, options: { poll: boolean }, handlers: FileWatchHandlers) => Promise<FileWatch>;

/** Watches one file; resolves once the watcher is ready, so no save is missed after it returns. */
export const watchFile: WatchFile = (file, { poll }, handlers) =>
  new Promise((resolveReady, rejectReady) => {
    // `atomic` turns vim's and VS Code's rename-over saves into one change; no awaitWriteFinish,
    // which would add two seconds to every save.
    const watcher = watch(file, { ignoreInitial: true, atomic: !poll, usePolling: poll, interval: POLL_INTERVAL_MS, awaitWriteFinish: false });
    watcher.on("add", () => handlers.onSave());
    watcher.on("change", () => handlers.onSave());
    watcher.on("unlink", () => handlers.onMissing());
    watcher.on("error", (err) => handlers.onError(err instanceof Error ? err : new Error(String(err))));
    watcher.once("ready", () => resolveReady({ close: () => watcher.close() }));
    watcher.once("error", (err) => rejectReady(err));
  });
