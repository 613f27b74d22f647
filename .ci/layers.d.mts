// Types of layers.mjs, for the tests that read the table.
export declare const root: string;
export declare const LAYERS: Readonly<Record<string, readonly string[]>>;
export declare function folderOf(file: string): string;
export declare function layerViolation(
  file: string,
  spec: string,
  typeOnly: boolean,
): string | null;
