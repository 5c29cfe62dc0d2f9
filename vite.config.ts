import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The studio is a static single-page app: `vite build` writes dist/, `vite preview` serves it.
// Nothing is fetched at run time; the judge endpoint is entered by the user in the browser.
export default defineConfig({
  plugins: [react()],
  build: {
    target: "es2023",
    sourcemap: true,
  },
  worker: {
    format: "es",
  },
});
