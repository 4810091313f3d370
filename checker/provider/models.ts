/**
 * The models the provider serves, each with its real output ceiling (Claude Opus 5 and
 * Sonnet 5: 128K; Haiku 4.5: 64K, per the models overview). Any other name is a 404, as on
 * the real API. `startProvider({ models })` adds more.
 */
import { ApiError, invalid } from "./errors.js";

export interface ModelSpec {
  /** The largest max_tokens the model accepts. */
  maxOutputTokens: number;
}

export const MODELS: Readonly<Record<string, ModelSpec>> = {
  "claude-opus-5": { maxOutputTokens: 128_000 },
  "claude-sonnet-5": { maxOutputTokens: 128_000 },
  "claude-haiku-4-5": { maxOutputTokens: 64_000 },
  "claude-haiku-4-5-20251001": { maxOutputTokens: 64_000 },
};

/** Longer names are refused before they are looked up or quoted back. */
export const MAX_MODEL_NAME = 256;

export const MODEL_MESSAGES = {
  notFound: (model: string) => `model: ${model}`,
  nameTooLong: `model: String should have at most ${MAX_MODEL_NAME} characters`,
  overCeiling: (maxTokens: number, ceiling: number, model: string) =>
    `max_tokens: ${maxTokens} > ${ceiling}, which is the maximum allowed number of output tokens for ${model}`,
} as const;

/** The model's spec; throws the API's 400 for an absurd name and its 404 for an unknown one. */
export function resolveModel(models: Readonly<Record<string, ModelSpec>>, model: string): ModelSpec {
  if (model.length > MAX_MODEL_NAME) throw invalid(MODEL_MESSAGES.nameTooLong);
  const spec = Object.hasOwn(models, model) ? models[model] : undefined;
  if (!spec) throw new ApiError(404, MODEL_MESSAGES.notFound(model));
  return spec;
}

/** Refuses a max_tokens past the model's ceiling with the API's own sentence. */
export function checkMaxTokens(spec: ModelSpec, model: string, maxTokens: number): void {
  if (maxTokens > spec.maxOutputTokens) throw invalid(MODEL_MESSAGES.overCeiling(maxTokens, spec.maxOutputTokens, model));
}
