/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** "1" in `npm start`'s build: the studio opens the bundled demo dataset on start. */
  readonly VITE_OPEN_DEMO?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
