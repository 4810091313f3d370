import type { SessionEvent, SessionListener, WatchSession } from "./watch-session.js";

export type RunningSession = Pick<WatchSession, "subscribe" | "rerun">;

/**
 * Starts `session`'s first run now, before the screen that shows it is loaded, and keeps that
 * run's events for the screen's listener: its worker process starts on one core while Ink
 * loads on the other. The first listener hears every event since the start, then the live
 * ones; the first run is not started again.
 */
export function startFirstRun(session: RunningSession): RunningSession {
  let early: SessionEvent[] | null = [];
  const stopKeeping = session.subscribe((event) => early?.push(event));
  session.rerun();
  return {
    subscribe(listener: SessionListener) {
      const kept = early ?? [];
      if (early) {
        early = null;
        stopKeeping();
      }
      for (const event of kept) listener(event);
      return session.subscribe(listener);
    },
    rerun: () => session.rerun(),
  };
}
