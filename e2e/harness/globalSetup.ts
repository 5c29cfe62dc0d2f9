/**
 * Vitest globalSetup for the e2e config: one build and one preview server per run, shared by every
 * spec through `inject("baseUrl")`, and one build of the CLI (harness/cli.ts runs it).
 */
import type { TestProject } from "vitest/node";

import { buildCli } from "../../scripts/buildCli.ts";
import { startPreviewServer } from "./server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Origin of the preview server serving the production build. */
    baseUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await buildCli();
  const server = await startPreviewServer();
  console.log(`e2e: serving the production build at ${server.url}`);
  project.provide("baseUrl", server.url);
  return () => server.close();
}
