// Types of deps.mjs, for the test that the folders import each other without a cycle.
export declare function importGraph(): Map<string, Set<string>>;
export declare function cycles(graph: Map<string, Set<string>>): string[][];
