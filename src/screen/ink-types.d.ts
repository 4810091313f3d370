// The types of `#ink` (package.json "imports"): the bundle is Ink itself (see ink-bundle.ts).
export * from "ink";
