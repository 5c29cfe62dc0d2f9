/**
 * The files a drop or a picker delivers, each with its path (issue 14): a dropped folder is walked
 * through `DataTransferItem.webkitGetAsEntry` (its files' paths start with the folder's name), a
 * directory picker's files carry `webkitRelativePath`, and plain files their name. The dataset
 * slice turns several into one run (store/runPlan.ts).
 */

export interface PickedFile {
  readonly file: File;
  /** `/`-separated, relative to what was chosen: "run/1.jsonl" from a folder, else the name. */
  readonly path: string;
}

/** A picker's files: their `webkitRelativePath` when a folder was chosen, else their names. */
export function pickedFiles(list: FileList | null): PickedFile[] {
  return Array.from(list ?? [], (file) => {
    // Not every File has it (jsdom's has none): a missing one is a plain file.
    const relative: unknown = file.webkitRelativePath;
    return { file, path: typeof relative === "string" && relative !== "" ? relative : file.name };
  });
}

const fileOf = (entry: FileSystemFileEntry): Promise<File> =>
  new Promise((resolve, reject) => entry.file(resolve, reject));

/** Every entry of a folder: readEntries gives them in batches until an empty one. */
async function entriesOf(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

async function walk(entry: FileSystemEntry, path: string, out: PickedFile[]): Promise<void> {
  if (entry.isFile) {
    out.push({ file: await fileOf(entry as FileSystemFileEntry), path });
    return;
  }
  if (!entry.isDirectory) return;
  for (const child of await entriesOf(entry as FileSystemDirectoryEntry))
    await walk(child, `${path}/${child.name}`, out);
}

/**
 * A drop's files, folders walked. Entries are taken synchronously (the DataTransfer is emptied
 * once the event returns); without `webkitGetAsEntry`, the plain file list.
 */
export function droppedFiles(data: DataTransfer | null): Promise<PickedFile[]> {
  if (data === null) return Promise.resolve([]);
  const entries = Array.from(data.items)
    .filter((item) => item.kind === "file")
    .map((item) => item.webkitGetAsEntry?.() ?? null);
  if (entries.length === 0 || entries.some((e) => e === null))
    return Promise.resolve(pickedFiles(data.files));
  return (async () => {
    const out: PickedFile[] = [];
    for (const entry of entries) await walk(entry!, entry!.name, out);
    return out;
  })();
}
