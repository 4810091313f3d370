// Vitest's setup file: runs before each test file, also where files share a worker process.
import { afterAll } from "vitest";
import { removeFileTempDirs } from "./temp-dir.js";

afterAll(removeFileTempDirs);
