/**
 * Once a dataset is open the drop zone is gone, but a file dropped anywhere on the page still opens
 * it (without this, the browser would navigate to the dropped file and lose the session).
 */
import { useEffect, useRef } from "react";
import { droppedFiles, pickedFiles, type PickedFile } from "../components/droppedFiles.ts";

export function useWindowFileDrop(enabled: boolean, onFiles: (files: PickedFile[]) => void): void {
  const latest = useRef(onFiles);
  useEffect(() => {
    latest.current = onFiles;
  });
  // Window drag events are an external system: listen while enabled.
  useEffect(() => {
    if (!enabled) return;
    const carriesFiles = (e: DragEvent): boolean =>
      e.dataTransfer?.types.includes("Files") ?? false;
    const over = (e: DragEvent): void => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = "copy";
    };
    const drop = (e: DragEvent): void => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      const data = e.dataTransfer;
      const deliver = (files: PickedFile[]): void => {
        if (files.length > 0) latest.current(files);
      };
      droppedFiles(data).then(deliver, () => deliver(pickedFiles(data?.files ?? null)));
    };
    window.addEventListener("dragover", over);
    window.addEventListener("drop", drop);
    return () => {
      window.removeEventListener("dragover", over);
      window.removeEventListener("drop", drop);
    };
  }, [enabled]);
}
