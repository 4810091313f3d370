/** What each reference tier is, as the screen and `lab show` name it. */
export const TIER_NAMES: Record<number, string> = { 1: "pseudocode", 2: "LangGraph JS", 3: "the SDK, commented" };
