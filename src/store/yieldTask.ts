/** The macrotask yield the UI's sliced work uses: the one the load client unpacks with. */
export { yieldTask } from "../workers/yieldTask.ts";
